import type { RequestEvent } from '@sveltejs/kit';
import type { Session } from '../core/types/models.js';
import type { CurrentSession } from './current.js';

/**
 * `locals.auth()`: reads the session straight through the core's session reader (no synthetic
 * HTTP request), once per request however many `load` functions ask. It fails closed: a broken
 * configuration throws, it never yields a session.
 */
export function createSessionGetter(
	event: RequestEvent,
	current: (event: RequestEvent) => Promise<CurrentSession>
): () => Promise<Session | null> {
	return async () => (await current(event)).read.session;
}
