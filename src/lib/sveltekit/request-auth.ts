import type { RequestEvent } from '@sveltejs/kit';
import type { AuthServer, CurrentSession } from '../core/index.js';

/**
 * What kitauth's handle knows about one request, for code that runs later in it without the
 * handle's own event: kitauth's remote functions (`kitauth/remote`), which kit hands a narrowed
 * copy of the event (no `url` in a query, cookies refused in a query).
 */
export interface RequestAuth {
	/** The event the handle saw: its URL, request and cookies are the request's own. */
	readonly event: RequestEvent;
	/** The request's auth server (its configuration may be a function of the event). */
	server(): Promise<AuthServer>;
	/** The request's session, read once however many callers ask (the one `locals.auth()` reads). */
	current(): Promise<CurrentSession>;
}

/**
 * Keyed by `locals`, the one object every view of a request shares (kit's copies of the event for
 * remote functions included); entries go with their requests.
 */
const byRequest = new WeakMap<object, RequestAuth>();

export function attachRequestAuth(
	event: RequestEvent,
	getServer: (event: RequestEvent) => Promise<AuthServer>,
	current: (event: RequestEvent) => Promise<CurrentSession>
): void {
	byRequest.set(event.locals, { event, server: () => getServer(event), current: () => current(event) });
}

/** The auth of the request `event` belongs to, if kitauth's handle saw it. */
export function requestAuthOf(event: Pick<RequestEvent, 'locals'>): RequestAuth | undefined {
	return byRequest.get(event.locals);
}
