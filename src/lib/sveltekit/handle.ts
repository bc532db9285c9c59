import type { RequestEvent } from '@sveltejs/kit';
import type { AuthServer, CurrentSession } from '../core/index.js';
import { createFormPostCheck } from './form-post-check.js';
import { clientAddress, waitUntilOf } from './platform.js';
import { attachRequestAuth } from './request-auth.js';
import type { Handle } from './types.js';

/**
 * The `handle` hook: sets `locals.auth()` on every request and serves
 * `{paths.base}{basePath}/*` through the core; everything else goes on to the app.
 */
export function createHandle(
	getServer: (event: RequestEvent) => Promise<AuthServer>,
	current: (event: RequestEvent) => Promise<CurrentSession>
): Handle {
	const formPost = createFormPostCheck();
	return async ({ event, resolve }) => {
		const probe = formPost.answer(event);
		if (probe) return probe;
		// `locals.auth()` reads the session straight through the core (no synthetic HTTP request),
		// once per request; it fails closed: a broken configuration throws, it never yields a session.
		event.locals.auth = async () => (await current(event)).session;
		// @auth/sveltekit's older name, for apps switching over.
		event.locals.getSession = event.locals.auth;
		// For kitauth's remote functions, which kit runs with a narrowed copy of the event.
		attachRequestAuth(event, getServer, current);
		const server = await getServer(event);
		// Once per provider origin: does SvelteKit let a `form_post` callback through? (A warning if not.)
		await formPost.check(event, server);
		if (!server.serves(event.url.pathname)) return resolve(event);
		// SvelteKit hands the browser's own headers on: a same-origin POST proves itself by its
		// Origin, as `@auth/sveltekit` clients (which send no CSRF token) rely on.
		const waitUntil = waitUntilOf(event);
		return server.handle(event.request, { clientAddress: clientAddress(event), originProvesCsrf: true, ...(waitUntil ? { waitUntil } : {}) });
	};
}
