import { customFetch } from '../markers.js';

/**
 * Auth.js's `customFetch` is `Symbol("custom-fetch")`, not `Symbol.for(…)`: no import could give us
 * the very symbol an app's copy of `@auth/core` made. Its description is what identifies it.
 */
const AUTHJS_DESCRIPTION = 'custom-fetch';

/** The fetch an object carries under kitauth's `[customFetch]` key or Auth.js's, if any. */
export function customFetchOf(source: object | undefined): typeof globalThis.fetch | undefined {
	if (!source) return undefined;
	const own = (source as { [customFetch]?: unknown })[customFetch];
	if (typeof own === 'function') return own as typeof globalThis.fetch;
	for (const key of Object.getOwnPropertySymbols(source)) {
		if (key.description !== AUTHJS_DESCRIPTION) continue;
		const value: unknown = (source as Record<symbol, unknown>)[key];
		if (typeof value === 'function') return value as typeof globalThis.fetch;
	}
	return undefined;
}

/**
 * For a preset that must adjust its provider's token requests or responses (Twitch's scope array,
 * TikTok's `client_key`, VK's missing `token_type`) whatever fetch the app gives: the preset's
 * `fetch`, made by `wrap` around the app's (`[customFetch]` or `fetch` from the options, else the
 * global fetch, looked up per call), and the options without the app's, so that the preset's own
 * stays the provider's after normalization.
 */
export function wrapAppFetch<O extends object>(
	options: O,
	wrap: (inner: typeof globalThis.fetch) => typeof globalThis.fetch
): { fetch: typeof globalThis.fetch; options: O } {
	const app = customFetchOf(options) ?? (options as { fetch?: typeof globalThis.fetch }).fetch;
	const inner: typeof globalThis.fetch = app ?? ((input, init) => globalThis.fetch(input, init));
	const rest: Record<PropertyKey, unknown> = {};
	for (const key of Reflect.ownKeys(options)) {
		if (key === 'fetch' || key === customFetch) continue;
		if (typeof key === 'symbol' && key.description === AUTHJS_DESCRIPTION) continue;
		rest[key] = (options as Record<PropertyKey, unknown>)[key];
	}
	return { fetch: wrap(inner), options: rest as O };
}

/** The form body of a token endpoint request (one with a `grant_type`), as oauth4webapi sends it. */
export function tokenRequestBody(init: RequestInit | undefined): URLSearchParams | undefined {
	if (init?.method !== 'POST' || !(init.body instanceof URLSearchParams)) return undefined;
	return init.body.has('grant_type') ? init.body : undefined;
}

/** The same response with its JSON body changed by `change` (status and headers kept). */
export async function withJsonBody(
	response: Response,
	change: (body: Record<string, unknown>) => Record<string, unknown>
): Promise<Response> {
	const body: unknown = await response.clone().json().catch(() => undefined);
	if (!body || typeof body !== 'object' || Array.isArray(body)) return response;
	const headers = new Headers(response.headers);
	headers.delete('content-length');
	headers.delete('content-encoding');
	return new Response(JSON.stringify(change(body as Record<string, unknown>)), {
		status: response.status,
		statusText: response.statusText,
		headers
	});
}
