import { type AuthOptions, resolveOptions } from './config.js';
import { createContext, type AuthContext } from './context.js';
import { MissingSecret, UntrustedHost } from './errors.js';
import { handleError } from './handle-error.js';
import { createLogger } from './logger.js';
import { raw } from './markers.js';
import { toInternalRequest } from './request.js';
import { toResponse } from './response.js';
import { route } from './router.js';
import type { AuthConfig } from './types/config.js';
import type { RequestInternal, ResponseInternal } from './types/internal.js';

/**
 * The core: a web `Request` in, a `Response` out (or a `ResponseInternal` with the `raw` marker).
 * Throws only `MissingSecret` (no secret configured, as the spec says); every other failure is an
 * answer: a 4xx, a page, or JSON.
 */
export async function Auth(request: Request, config: AuthConfig & { raw: symbol }): Promise<ResponseInternal>;
export async function Auth(request: Request, config: AuthConfig): Promise<Response>;
export async function Auth(request: Request, config: AuthConfig): Promise<Response | ResponseInternal> {
	let options: AuthOptions;
	try {
		options = resolveOptions(config);
	} catch (error) {
		if (error instanceof MissingSecret) throw error;
		createLogger(config).error(error instanceof Error ? error : new Error(String(error)));
		const res = handleError(error, undefined, undefined, { logged: true });
		return config.raw === raw ? res : toResponse(res, request);
	}
	const res = await respond(request, options);
	return options.raw ? res : toResponse(res, request);
}

/** Parses a request and answers it; never throws. */
export async function respond(request: Request, options: AuthOptions): Promise<ResponseInternal> {
	let req: RequestInternal | undefined;
	let ctx: AuthContext | undefined;
	try {
		req = await toInternalRequest(request, options.basePath);
		ctx = createContext(options, req);
		return await handleRequest(req, ctx);
	} catch (error) {
		return handleError(error, req?.action, ctx ?? fallbackContext(options, request));
	}
}

/** Runs one parsed request through the router, turning failures into answers. */
export async function handleRequest(req: RequestInternal, ctx: AuthContext): Promise<ResponseInternal> {
	try {
		if (!ctx.options.trustHost) {
			throw new UntrustedHost(
				`Host must be trusted. Set AUTH_URL to this site's URL, or AUTH_TRUST_HOST=true when the platform sets the Host header safely. URL was: ${req.url.origin}`
			);
		}
		return await route(req, ctx);
	} catch (error) {
		return handleError(error, req.action, ctx);
	}
}

function fallbackContext(options: AuthOptions, request: Request): AuthContext | undefined {
	try {
		return createContext(options, { url: new URL(request.url), cookies: {}, body: {} });
	} catch {
		return undefined;
	}
}
