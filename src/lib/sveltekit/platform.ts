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

/**
 * The platform's way to keep work alive after the answer: Cloudflare's `ExecutionContext`, which
 * adapter-cloudflare passes as `platform.ctx` (older versions also as `platform.context`). None
 * on Node, where the process outlives the request.
 */
export function waitUntilOf(event: RequestEvent): ((promise: Promise<unknown>) => void) | undefined {
	const platform = event.platform as { ctx?: unknown; context?: unknown } | undefined;
	for (const context of [platform?.ctx, platform?.context]) {
		const waitUntil = (context as { waitUntil?: unknown } | undefined)?.waitUntil;
		if (typeof waitUntil === 'function') return (promise) => void waitUntil.call(context, promise);
	}
	return undefined;
}

/** What the server API needs to know about an event's request. */
export function serverRequest(event: RequestEvent) {
	const waitUntil = waitUntilOf(event);
	return { url: event.url, request: event.request, clientAddress: clientAddress(event), ...(waitUntil ? { waitUntil } : {}) };
}
