import { error, type RequestEvent } from '@sveltejs/kit';
import { type AuthServer, type CurrentSession, refusalOf } from '../core/index.js';
import { applyCookies } from './cookies.js';
import { serverRequest } from './platform.js';

/**
 * Reads each request's session at most once, however many `load` functions and session-manager
 * calls ask. Keyed by the request's `locals`, the one object every view of a request shares.
 */
export function createCurrentSession(
	getServer: (event: RequestEvent) => Promise<AuthServer>
): (event: RequestEvent) => Promise<CurrentSession> {
	const reads = new WeakMap<object, Promise<CurrentSession>>();
	return (event) => {
		let pending = reads.get(event.locals);
		if (!pending) {
			pending = readCurrent(event, getServer);
			reads.set(event.locals, pending);
		}
		return pending;
	};
}

async function readCurrent(event: RequestEvent, getServer: (event: RequestEvent) => Promise<AuthServer>): Promise<CurrentSession> {
	const server = await getServer(event);
	let current: CurrentSession;
	try {
		current = await server.session(serverRequest(event));
	} catch (cause) {
		throwIfUnavailable(event, cause);
		throw cause;
	}
	applyCookies(event.cookies, current.cookies);
	return current;
}

/**
 * A session store busy or out of reach for a while (a 503 refusal) is not a server error: the
 * read fails as a 503 with `Retry-After`, which the app's error page shows with a message naming
 * the cause. Anything else stays the error it is.
 */
function throwIfUnavailable(event: RequestEvent, cause: unknown): void {
	const refusal = refusalOf(cause);
	if (refusal?.status !== 503) return;
	try {
		event.setHeaders({ 'retry-after': String(refusal.retryAfter) });
	} catch {
		// The app set it already, or the response has begun: the 503 still stands.
	}
	error(503, refusal.message);
}
