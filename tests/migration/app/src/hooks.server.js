import { sequence } from '@sveltejs/kit/hooks';
import { handle as auth } from './auth.js';

/** Names the app that answered (`MIGRATION_APP`), so the test can tell them apart. */
const app = async ({ event, resolve }) => {
	const response = await resolve(event);
	response.headers.set('x-migration-app', process.env.MIGRATION_APP ?? 'unknown');
	return response;
};

export const handle = sequence(auth, app);
