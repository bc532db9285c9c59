import { sequence } from '@sveltejs/kit/hooks';
import { handle as auth } from './auth.js';

/** The app's own hook: marks every response it saw, so the test can tell who answered. */
const app = async ({ event, resolve }) => {
	const response = await resolve(event);
	response.headers.set('x-kit2-app', 'resolved');
	return response;
};

export const handle = sequence(auth, app);
