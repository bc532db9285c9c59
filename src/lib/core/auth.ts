import { resolveOptions } from './config.js';
import { createContext, requestCsrf, type AuthContext } from './context.js';
import { MissingSecret } from './errors.js';
import { handleError, refuseUntrustedHost } from './handle-error.js';
import { createLogger } from './logger.js';
import { isMarker, raw } from './markers.js';
import { type Platform, toInternalRequest } from './request.js';
import { toResponse } from './response.js';
import { route } from './router.js';
import { hostTrusted } from './trust.js';
import type { AuthConfig } from './types/config.js';
import type { RequestInternal, ResponseInternal } from './types/internal.js';
import type { AuthOptions } from './types/options.js';

/** Options are derived once per config object (an app hands `Auth()` the same one every time). */
const derived = new WeakMap<AuthConfig, AuthOptions>();
/** Config objects that failed to resolve (other than for a missing secret), and why. */
const failed = new WeakMap<AuthConfig, { error: unknown }>();

/**
 * The core: a web `Request` in, a `Response` out (or a `ResponseInternal` with the `raw` marker).
 * Throws only `MissingSecret` (no secret configured, as the spec says), on every call; every other
 * failure is an answer: a 4xx, a page, or JSON. A configuration that fails to resolve is logged
 * once, and every call with it answers 500 alike.
 */
export async function Auth(request: Request, config: AuthConfig & { raw: symbol }): Promise<ResponseInternal>;
export async function Auth(request: Request, config: AuthConfig): Promise<Response>;
export async function Auth(request: Request, config: AuthConfig): Promise<Response | ResponseInternal> {
	const options = derived.get(config) ?? resolveOnce(config);
	if (!options) {
		const res = await handleError(failed.get(config)?.error, undefined, undefined, { logged: true });
		return isMarker(config.raw, raw) ? res : toResponse(res, request);
	}
	const res = await respond(request, options);
	return options.raw ? res : toResponse(res, request);
}

/** The options of a config object, derived once; `undefined` (logged the first time) when it is broken. */
function resolveOnce(config: AuthConfig): AuthOptions | undefined {
	if (failed.has(config)) return undefined;
	try {
		const options = resolveOptions(config);
		derived.set(config, options);
		return options;
	} catch (error) {
		if (error instanceof MissingSecret) throw error;
		failed.set(config, { error });
		createLogger(config).error(error instanceof Error ? error : new Error(String(error)));
		return undefined;
	}
}

/** Parses a request and answers it through the route table; never throws. */
export async function respond(request: Request, options: AuthOptions, platform?: Platform): Promise<ResponseInternal> {
	let req: RequestInternal | undefined;
	let ctx: AuthContext | undefined;
	try {
		// Trust first: nothing (a URL, a page's links, a cookie) may be derived from an untrusted Host.
		if (!hostTrusted(options)) return await refuseUntrustedHost(request, options);
		req = await toInternalRequest(request, options.basePath, platform);
		ctx = createContext(options, req, { csrf: await requestCsrf(options, req) });
		return await route(req, ctx);
	} catch (error) {
		return handleError(error, req, ctx ?? (await fallbackContext(options, request)));
	}
}

async function fallbackContext(options: AuthOptions, request: Request): Promise<AuthContext | undefined> {
	try {
		const req = { url: new URL(request.url), cookies: {}, body: {} };
		return createContext(options, req, { csrf: await requestCsrf(options, req) });
	} catch {
		return undefined;
	}
}
