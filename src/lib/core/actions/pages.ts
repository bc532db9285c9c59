import { type AuthContext, customPage, withParams } from '../context.js';
import { isUrlSafeError } from '../error-answers.js';
import { flowOf } from '../flows/index.js';
import { errorPage, verifyRequestPage } from '../pages/index.js';
import type { RequestInternal, ResponseInternal } from '../types/internal.js';

/** GET /error?error=X: the error page (403 or 200 by error, never a 5xx), or a redirect to `pages.error`. */
export async function error(req: RequestInternal, ctx: AuthContext): Promise<ResponseInternal> {
	const value = req.query.error && isUrlSafeError(req.query.error) ? req.query.error : undefined;
	const custom = customPage(ctx, 'error');
	if (custom && !isSelf(req, custom)) return { redirect: withParams(custom, { error: value }) };
	return errorPage(ctx, value);
}

/**
 * GET /verify-request: "check your email" (the page of the `provider` named in the query when its
 * flow has one), or a redirect to `pages.verifyRequest`.
 */
export function verifyRequest(req: RequestInternal, ctx: AuthContext): ResponseInternal | Promise<ResponseInternal> {
	const custom = customPage(ctx, 'verifyRequest');
	if (custom) return { redirect: `${custom}${req.url.search}` };
	const provider = ctx.options.providers.find((p) => p.id === req.query.provider);
	const page = provider && flowOf(provider).verifyRequest;
	return provider && page ? page(req, ctx, provider) : verifyRequestPage(ctx);
}

/** A custom error page that points back at this endpoint would loop forever. */
function isSelf(req: RequestInternal, page: string): boolean {
	return new URL(page).pathname === req.url.pathname;
}
