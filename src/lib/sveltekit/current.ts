import type { RequestEvent } from '@sveltejs/kit';
import type { AuthServer, CurrentSession } from '../core/index.js';
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
	const current = await server.session(serverRequest(event));
	applyCookies(event.cookies, current.cookies);
	return current;
}
