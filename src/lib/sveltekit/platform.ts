import type { RequestEvent } from '@sveltejs/kit';

/**
 * The connection's address, for the rate limiter: `getClientAddress()` throws where the adapter
 * has none (prerendering, some platforms), and then there is simply no per-address budget.
 */
export function clientAddress(event: RequestEvent): string | undefined {
	try {
		return event.getClientAddress();
	} catch {
		return undefined;
	}
}

/** What the server API needs to know about an event's request. */
export function serverRequest(event: RequestEvent) {
	return { url: event.url, request: event.request, clientAddress: clientAddress(event) };
}
