import type { RequestEvent } from '@sveltejs/kit';
import type { AuthOptions } from '../core/config.js';
import { type AuthContext, createContext } from '../core/context.js';
import { UntrustedHost } from '../core/errors.js';
import { parseCookieHeader } from '../core/session/cookies.js';
import { readSession, type SessionRead } from '../core/session/index.js';
import { applyCookies } from './cookies.js';

/** The session of one request, read once, for `locals.auth()` and the session manager alike. */
export interface CurrentSession {
	ctx: AuthContext;
	cookies: Record<string, string>;
	read: SessionRead;
}

/**
 * Reads each request's session at most once, however many `load` functions and session-manager
 * calls ask. Keyed by the request's `locals`, the one object every view of a request shares.
 */
export function createCurrentSession(
	getOptions: (event: RequestEvent) => Promise<AuthOptions>
): (event: RequestEvent) => Promise<CurrentSession> {
	const reads = new WeakMap<object, Promise<CurrentSession>>();
	return (event) => {
		let pending = reads.get(event.locals);
		if (!pending) {
			pending = readCurrent(event, getOptions);
			reads.set(event.locals, pending);
		}
		return pending;
	};
}

async function readCurrent(
	event: RequestEvent,
	getOptions: (event: RequestEvent) => Promise<AuthOptions>
): Promise<CurrentSession> {
	const options = await getOptions(event);
	if (!options.trustHost) {
		throw new UntrustedHost('Host must be trusted: set AUTH_URL, or AUTH_TRUST_HOST=true behind a trusted proxy.');
	}
	const cookies = parseCookieHeader(event.request.headers.get('cookie'));
	const ctx = createContext(options, { url: event.url, cookies, body: {} }, { csrfChecked: true });
	const read = await readSession(ctx, cookies);
	applyCookies(event.cookies, read.cookies);
	return { ctx, cookies, read };
}
