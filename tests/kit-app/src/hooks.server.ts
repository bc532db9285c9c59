import { building } from '$app/env';
import { sequence, type Handle, type ServerInit } from '@sveltejs/kit/hooks';
import { migrate } from '#lib/adapters/libsql/index.js';
import { BASE, broken, database, mailless, main, untrusted } from './auth.js';

/**
 * `/base/broken/*` and `/base/untrusted/*` belong to the misconfigured instances, `/base/mailless/*`
 * to the email provider without a server.
 */
const zones: [prefix: string, handle: Handle][] = [
	[`${BASE}/broken/`, broken.handle],
	[`${BASE}/untrusted/`, untrusted.handle],
	[`${BASE}/mailless/`, mailless.handle]
];

const auth: Handle = ({ event, resolve }) => {
	const zone = zones.find(([prefix]) => event.url.pathname.startsWith(prefix));
	return (zone?.[1] ?? main.handle)({ event, resolve });
};

/** The app's own hook: marks every response it saw, so the tests can tell who answered. */
const app: Handle = async ({ event, resolve }) => {
	const response = await resolve(event);
	response.headers.set('x-kit-app', 'resolved');
	return response;
};

export const handle = sequence(auth, app);

export const init: ServerInit = async () => {
	if (!building) await migrate(database);
};
