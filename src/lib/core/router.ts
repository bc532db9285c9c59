import { callback } from './actions/callback.js';
import { csrf } from './actions/csrf.js';
import { error, verifyRequest } from './actions/pages.js';
import { providers } from './actions/providers.js';
import { getSession, updateSession } from './actions/session.js';
import { signInGet, signInPost } from './actions/signin.js';
import { signOutGet, signOutPost } from './actions/signout.js';
import type { AuthContext } from './context.js';
import { InvalidRequest, UnknownAction } from './errors.js';
import type { RequestInternal, ResponseInternal } from './types/internal.js';

type Handler = (req: RequestInternal, ctx: AuthContext) => ResponseInternal | Promise<ResponseInternal>;

/** The one dispatch table: method × action → handler. Anything else is a 400. */
const ROUTES: Record<string, Handler> = {
	'GET csrf': (_req, ctx) => csrf(ctx),
	'GET providers': (_req, ctx) => providers(ctx),
	'GET session': getSession,
	'POST session': updateSession,
	'GET signin': signInGet,
	'POST signin': signInPost,
	'GET callback': callback,
	'POST callback': callback,
	'GET signout': signOutGet,
	'POST signout': signOutPost,
	'GET error': error,
	'GET verify-request': verifyRequest
};

export async function route(req: RequestInternal, ctx: AuthContext): Promise<ResponseInternal> {
	const handler = ROUTES[`${req.method} ${req.action}`];
	if (!handler) throw new UnknownAction(`${req.method} ${req.action} is not supported`);
	if (req.method === 'POST' && !isCrossSiteByDesign(req, ctx)) checkOrigin(req, ctx);
	const res = await handler(req, ctx);
	return ctx.pendingCookies.length ? { ...res, cookies: [...ctx.pendingCookies, ...(res.cookies ?? [])] } : res;
}

/** An OAuth `form_post` callback is POSTed by the identity provider's page. */
function isCrossSiteByDesign(req: RequestInternal, ctx: AuthContext): boolean {
	return req.action === 'callback' && (ctx.provider?.type === 'oauth' || ctx.provider?.type === 'oidc');
}

/**
 * Beside the double-submit token, a state-changing POST must not come from another site: a
 * foreign (or opaque `null`) `Origin`, or `Sec-Fetch-Site: cross-site`, is refused. This also
 * covers JSON bodies, which SvelteKit's own form check does not.
 */
function checkOrigin(req: RequestInternal, ctx: AuthContext): void {
	if (ctx.csrfChecked) return;
	const origin = req.headers.get('origin');
	const crossSite = req.headers.get('sec-fetch-site') === 'cross-site';
	if (crossSite || (origin !== null && origin !== ctx.origin && origin !== req.url.origin)) {
		throw new InvalidRequest('Cross-site request refused', 403);
	}
}
