import { callback } from './actions/callback.js';
import { csrf } from './actions/csrf.js';
import { error, verifyRequest } from './actions/pages.js';
import { providers } from './actions/providers.js';
import { getSession, updateSession } from './actions/session.js';
import { signInGet, signInPost } from './actions/signin.js';
import { signOutGet, signOutPost } from './actions/signout.js';
import {
	forgotPasswordGet,
	forgotPasswordPost,
	resendVerificationPost,
	resetPasswordGet,
	resetPasswordPost,
	signUpGet,
	signUpPost,
	verifyEmailGet,
	verifyEmailPost
} from './actions/password.js';
import { changeEmailPost, changePasswordPost, confirmEmailGet, confirmEmailPost, deleteAccountPost } from './actions/password-account.js';
import { twoFactorGet, twoFactorPost } from './actions/two-factor.js';
import { twoFactorBackupCodes, twoFactorDevices, twoFactorDisable, twoFactorEnable, twoFactorSetup } from './actions/two-factor-manage.js';
import { webauthnOptions } from './actions/webauthn-options.js';
import { type AuthContext, type CallbackUrl, type ProviderContext, resolveCallbackUrl } from './context.js';
import { InvalidRequest, MissingCSRF, UnknownAction } from './errors.js';
import { flowOf } from './flows/index.js';
import type { AuthAction } from './types/config.js';
import type { Cookie, RequestInternal, ResponseInternal } from './types/internal.js';
import type { ProviderConfig } from './types/provider.js';

type Run<C extends AuthContext> = (
	req: RequestInternal,
	ctx: C,
	callbackUrl: CallbackUrl
) => ResponseInternal | Promise<ResponseInternal>;

/** Everything the core needs to know about one action, in one place. */
export type Route = RouteRules &
	(
		| { provider: 'none' | 'optional'; run: Run<AuthContext> }
		/** A missing provider id is a 400, an unknown one a 404; `run` always gets the provider. */
		| { provider: 'required'; run: Run<ProviderContext> }
	);

interface RouteRules {
	/** How a failure answers: JSON for API clients, or the sign-in/error page. */
	errors: 'json' | 'page';
	/**
	 * The provider id after the action: not allowed (`none`), `optional`, or `required`.
	 */
	provider: 'none' | 'optional' | 'required';
	/**
	 * What proves a request is the user's own: nothing (`none`, reads), the double-submit CSRF token
	 * in the body and a same-site `Origin` (`token`), or whatever the provider's flow says (`flow`,
	 * the callback: a token, or check cookies set at the start).
	 */
	csrf: 'none' | 'token' | 'flow';
	/** Whether the callback URL this action resolves is remembered in the callback-URL cookie. */
	storesCallbackUrl: boolean;
	/**
	 * A page a browser or a link checker may ask for with `HEAD`: answered as the GET, without the
	 * body (GET routes only).
	 */
	head?: boolean;
}

const read = { provider: 'none', csrf: 'none', storesCallbackUrl: false } as const;

/** The one route table: `METHOD action` → route. Anything else is a 400. */
export const ROUTES: Readonly<Record<string, Route>> = Object.freeze({
	'GET csrf': { ...read, errors: 'json', run: (_req: RequestInternal, ctx: AuthContext) => csrf(ctx) },
	'GET providers': { ...read, errors: 'json', run: (_req: RequestInternal, ctx: AuthContext) => providers(ctx) },
	'GET session': { ...read, errors: 'json', run: getSession },
	'POST session': { ...read, errors: 'json', csrf: 'token', run: updateSession },
	'GET signin': { ...read, errors: 'page', head: true, provider: 'optional', storesCallbackUrl: true, run: signInGet },
	'POST signin': { errors: 'page', provider: 'optional', csrf: 'token', storesCallbackUrl: true, run: signInPost },
	'GET callback': { errors: 'page', head: true, provider: 'required', csrf: 'flow', storesCallbackUrl: true, run: callback },
	'POST callback': { errors: 'page', provider: 'required', csrf: 'flow', storesCallbackUrl: true, run: callback },
	'GET signout': { ...read, errors: 'page', head: true, run: signOutGet },
	'POST signout': { errors: 'page', provider: 'none', csrf: 'token', storesCallbackUrl: true, run: signOutPost },
	'GET signup': { ...read, errors: 'page', head: true, provider: 'required', storesCallbackUrl: true, run: signUpGet },
	'POST signup': { errors: 'page', provider: 'required', csrf: 'token', storesCallbackUrl: true, run: signUpPost },
	'GET forgot-password': { ...read, errors: 'page', head: true, provider: 'required', run: forgotPasswordGet },
	'POST forgot-password': { errors: 'page', provider: 'required', csrf: 'token', storesCallbackUrl: false, run: forgotPasswordPost },
	'GET reset-password': { ...read, errors: 'page', head: true, provider: 'required', run: resetPasswordGet },
	'POST reset-password': { errors: 'page', provider: 'required', csrf: 'token', storesCallbackUrl: false, run: resetPasswordPost },
	'GET verify-email': { ...read, errors: 'page', head: true, provider: 'required', run: verifyEmailGet },
	'POST verify-email': { errors: 'page', provider: 'required', csrf: 'token', storesCallbackUrl: false, run: verifyEmailPost },
	'POST resend-verification': { errors: 'page', provider: 'required', csrf: 'token', storesCallbackUrl: false, run: resendVerificationPost },
	// The signed-in user's password account: JSON, each a state change behind the token.
	'POST change-password': { ...read, errors: 'json', provider: 'required', csrf: 'token', run: changePasswordPost },
	'POST change-email': { ...read, errors: 'json', provider: 'required', csrf: 'token', run: changeEmailPost },
	'POST delete-account': { ...read, errors: 'json', provider: 'required', csrf: 'token', run: deleteAccountPost },
	'GET confirm-email': { ...read, errors: 'page', head: true, provider: 'required', run: confirmEmailGet },
	'POST confirm-email': { errors: 'page', provider: 'required', csrf: 'token', storesCallbackUrl: false, run: confirmEmailPost },
	'GET error': { ...read, errors: 'page', head: true, run: error },
	'GET verify-request': { ...read, errors: 'page', head: true, run: verifyRequest },
	'GET webauthn-options': { ...read, errors: 'json', provider: 'required', run: webauthnOptions },
	// A sign-in's second step (the pending state is its own proof of the first; the POST needs the token too).
	'GET two-factor': { ...read, errors: 'page', head: true, run: twoFactorGet },
	'POST two-factor': { ...read, errors: 'page', csrf: 'token', run: twoFactorPost },
	// Two-factor management for the signed-in user: JSON, each a state change behind the token.
	'POST two-factor-setup': { ...read, errors: 'json', csrf: 'token', run: twoFactorSetup },
	'POST two-factor-enable': { ...read, errors: 'json', csrf: 'token', run: twoFactorEnable },
	'POST two-factor-disable': { ...read, errors: 'json', csrf: 'token', run: twoFactorDisable },
	'POST two-factor-backup-codes': { ...read, errors: 'json', csrf: 'token', run: twoFactorBackupCodes },
	'POST two-factor-devices': { ...read, errors: 'json', csrf: 'token', run: twoFactorDevices }
} satisfies Record<string, Route>);

/** The route of a method and action, if the core serves it. */
export function routeOf(method: string, action: string): Route | undefined {
	return Object.hasOwn(ROUTES, `${method} ${action}`) ? ROUTES[`${method} ${action}`] : undefined;
}

const ACTIONS: ReadonlySet<string> = new Set(Object.keys(ROUTES).map((key) => key.slice(key.indexOf(' ') + 1)));
const WITH_PROVIDER: ReadonlySet<string> = new Set(
	Object.entries(ROUTES)
		.filter(([, route]) => route.provider !== 'none')
		.map(([key]) => key.slice(key.indexOf(' ') + 1))
);

/** Does `action` answer `HEAD` (as its GET, without a body)? Only the pages do. */
export function answersHead(action: string): boolean {
	return routeOf('GET', action)?.head === true;
}

/** Is `action` one the core serves (by any method)? */
export function isAuthAction(action: string): action is AuthAction {
	return ACTIONS.has(action);
}

/** Does `action` take a provider id (by any method)? */
export function takesProvider(action: AuthAction): boolean {
	return WITH_PROVIDER.has(action);
}

/**
 * Dispatches a parsed request through the route table: the provider rule, the CSRF rule and the
 * callback-URL cookie are applied here, once, for every action.
 */
export async function route(req: RequestInternal, ctx: AuthContext): Promise<ResponseInternal> {
	const entry = routeOf(req.method, req.action);
	if (!entry) throw new UnknownAction(`${req.method} ${req.action} is not supported`);
	let resolved: Promise<{ callbackUrl: string; cookie?: Cookie }> | undefined;
	const callbackUrl = async () => (await (resolved ??= resolveCallbackUrl(ctx, req))).callbackUrl;
	const res = await dispatch(entry, req, ctx, callbackUrl);
	const remembered = entry.storesCallbackUrl && resolved ? (await resolved).cookie : undefined;
	const cookies = [...ctx.pendingCookies, ...(remembered ? [remembered] : []), ...(res.cookies ?? [])];
	return cookies.length ? { ...res, cookies } : res;
}

function dispatch(entry: Route, req: RequestInternal, ctx: AuthContext, callbackUrl: CallbackUrl) {
	if (entry.provider !== 'required') {
		checkCsrf(req, ctx, entry.csrf === 'none' ? 'none' : 'token');
		return entry.run(req, ctx, callbackUrl);
	}
	// The client's mistake, not the server's: a 4xx (Auth.js answers with a 500 error page here).
	if (!hasProvider(ctx)) {
		throw new InvalidRequest(req.providerId ? 'no such provider' : `${req.action} needs a provider`, req.providerId ? 404 : 400);
	}
	checkCsrf(req, ctx, entry.csrf === 'flow' ? flowOf(ctx.provider).callback.protection : entry.csrf);
	return entry.run(req, ctx, callbackUrl);
}

function hasProvider(ctx: AuthContext): ctx is ProviderContext {
	return ctx.provider !== undefined;
}

/**
 * A state-changing POST must come from this site: a foreign (or opaque `null`) `Origin`, or
 * `Sec-Fetch-Site: cross-site`, is refused (this covers JSON bodies too, which SvelteKit's own
 * form check does not); and where the rule is the token, the body must echo the double-submit
 * CSRF token. A callback protected by check cookies is cross-site by design (`form_post`).
 */
function checkCsrf(req: RequestInternal, ctx: AuthContext, rule: 'none' | 'token' | 'checks'): void {
	if (req.method !== 'POST' || ctx.csrfChecked || rule !== 'token') return;
	const origin = req.headers.get('origin');
	const site = req.headers.get('sec-fetch-site');
	if (site === 'cross-site' || (origin !== null && origin !== ctx.origin && origin !== req.url.origin)) {
		throw new InvalidRequest('Cross-site request refused', 403);
	}
	if (ctx.csrf.verified) return;
	// Same-origin by the browser's own word: an `Origin` of this site (checked above), or none but
	// `Sec-Fetch-Site: same-origin`. Only where the integration vouches for those headers.
	const sameOrigin = origin !== null || site === 'same-origin';
	if (req.originProvesCsrf && sameOrigin) return;
	throw new MissingCSRF(`${req.action} without a valid CSRF token`);
}
