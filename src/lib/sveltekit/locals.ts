import type { RequestEvent } from '@sveltejs/kit';
import type { AuthOptions } from '../core/config.js';
import { createContext } from '../core/context.js';
import { UntrustedHost } from '../core/errors.js';
import { parseCookieHeader } from '../core/session/cookies.js';
import { readSession } from '../core/session/index.js';
import type { Session } from '../core/types/models.js';
import { applyCookies } from './cookies.js';

/**
 * `locals.auth()`: reads the session straight through the core's session reader (no synthetic
 * HTTP request), once per request however many `load` functions ask. It fails closed: a broken
 * configuration throws, it never yields a session.
 */
export function createSessionGetter(
	event: RequestEvent,
	getOptions: (event: RequestEvent) => Promise<AuthOptions>
): () => Promise<Session | null> {
	let pending: Promise<Session | null> | undefined;
	return () => (pending ??= readForEvent(event, getOptions));
}

async function readForEvent(
	event: RequestEvent,
	getOptions: (event: RequestEvent) => Promise<AuthOptions>
): Promise<Session | null> {
	const options = await getOptions(event);
	if (!options.trustHost) {
		throw new UntrustedHost('Host must be trusted: set AUTH_URL, or AUTH_TRUST_HOST=true behind a trusted proxy.');
	}
	const cookies = parseCookieHeader(event.request.headers.get('cookie'));
	const ctx = createContext(options, { url: event.url, cookies, body: {} }, { csrfChecked: true });
	const read = await readSession(ctx, cookies);
	applyCookies(event.cookies, read.cookies);
	return read.session;
}
