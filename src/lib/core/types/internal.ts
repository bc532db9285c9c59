import type { AuthAction, CookieSerializeOptions } from './config.js';

/** A cookie to set (or, with `maxAge: 0` and an empty value, to delete). */
export interface Cookie {
	name: string;
	value: string;
	options: CookieSerializeOptions;
}

/** What an action answers, before it becomes a `Response` (the spec's `ResponseInternal`). */
export interface ResponseInternal<Body = unknown> {
	status?: number;
	headers?: Record<string, string>;
	body?: Body;
	redirect?: string;
	cookies?: Cookie[];
}

/** A parsed, validated request. Everything here came from the client: treat it as hostile. */
export interface RequestInternal {
	url: URL;
	method: 'GET' | 'POST';
	action: AuthAction;
	providerId?: string;
	headers: Headers;
	cookies: Record<string, string>;
	query: Record<string, string>;
	body: Record<string, unknown>;
	/** The original request, for `authorize()` and providers that need it. */
	request: Request;
	/**
	 * The connection's address as the platform sees it (SvelteKit's `getClientAddress()`), when the
	 * integration knows it: the rate limiter's per-address budgets.
	 */
	clientAddress?: string;
	/** A same-origin POST needs no CSRF token (see `Platform.originProvesCsrf`). */
	originProvesCsrf?: boolean;
	/** The request's signal: aborted when its client gives up (where the platform says so). */
	signal?: AbortSignal;
	/** Keeps work after the answer alive, where the platform stops it otherwise (`Platform.waitUntil`). */
	waitUntil?: (promise: Promise<unknown>) => void;
}
