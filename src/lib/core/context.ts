import { absoluteRedirect, parseCallbackUrl } from './redirect.js';
import { cookieTable } from './session/cookies.js';
import { type CsrfState, checkCsrf } from './session/csrf.js';
import type { CookiesOptions } from './types/config.js';
import type { Cookie, RequestInternal } from './types/internal.js';
import type { AuthContext, AuthOptions } from './types/options.js';
import type { ProviderConfig } from './types/provider.js';

export type { AuthContext };

/** The callback URL of a sign-in or sign-out, resolved on first use (see `route()` in router.ts). */
export type CallbackUrl = () => Promise<string>;

/** A context whose provider the router has checked (routes that require one). */
export type ProviderContext = AuthContext & { readonly provider: ProviderConfig };

/** Cookie tables per options object, [plain, secure]: built once, not on every request. */
const tables = new WeakMap<AuthOptions, [CookiesOptions?, CookiesOptions?]>();

function cookiesFor(options: AuthOptions, secure: boolean): CookiesOptions {
	let pair = tables.get(options);
	if (!pair) tables.set(options, (pair = []));
	const index = secure ? 1 : 0;
	return (pair[index] ??= deepFreeze(cookieTable(secure, options.cookieOverrides)));
}

function deepFreeze<T extends object>(value: T): T {
	for (const child of Object.values(value)) if (child && typeof child === 'object') deepFreeze(child);
	return Object.freeze(value);
}

/**
 * The CSRF state of a request (its cookie checked, or a new token minted), which `createContext`
 * needs unless the caller checked CSRF itself. Asynchronous: it hashes (Web Crypto digests are).
 */
export function requestCsrf(
	options: AuthOptions,
	req: Pick<RequestInternal, 'url' | 'cookies' | 'body'>
): Promise<CsrfState> {
	const origin = options.siteUrl?.origin ?? req.url.origin;
	const cookies = cookiesFor(options, options.useSecureCookies ?? origin.startsWith('https:'));
	return checkCsrf(req.cookies[cookies.csrfToken.name], options.csrfSecret, req.body.csrfToken);
}

export function createContext(
	options: AuthOptions,
	req: Pick<RequestInternal, 'url' | 'cookies' | 'body' | 'providerId' | 'signal'>,
	caller: { csrfChecked?: boolean; csrf?: CsrfState } = {}
): AuthContext {
	const origin = options.siteUrl?.origin ?? req.url.origin;
	const secure = options.useSecureCookies ?? origin.startsWith('https:');
	const cookies = cookiesFor(options, secure);
	const csrfChecked = options.skipCSRFCheck || caller.csrfChecked === true;
	// A caller that checked CSRF itself needs no token: skip the hashing (the session hot path).
	const csrf = csrfChecked ? { token: '', verified: true } : caller.csrf;
	if (!csrf) throw new TypeError('createContext needs the request\'s CSRF state (requestCsrf) unless CSRF was checked');
	const pendingCookies: Cookie[] = [];
	if (csrf.cookieValue && !csrfChecked) {
		pendingCookies.push({ name: cookies.csrfToken.name, value: csrf.cookieValue, options: cookies.csrfToken.options });
	}
	return {
		options,
		origin,
		baseUrl: `${origin}${options.basePath}`,
		cookies,
		provider: req.providerId ? options.providers.find((p) => p.id === req.providerId) : undefined,
		csrf,
		pendingCookies,
		csrfChecked,
		signal: req.signal
	};
}

/**
 * The callbackUrl of a sign-in or sign-out: from the body, the query or the callback-url cookie
 * (the first usable one), through the `redirect` callback; the site's origin otherwise. The
 * result is remembered in the cookie, which carries it across an OAuth round trip.
 */
export async function resolveCallbackUrl(
	ctx: AuthContext,
	req: Pick<RequestInternal, 'body' | 'query' | 'cookies'>
): Promise<{ callbackUrl: string; cookie?: Cookie }> {
	const { callbackUrl: cookieName } = ctx.cookies;
	const stored = req.cookies[cookieName.name];
	const candidate =
		parseCallbackUrl(req.body.callbackUrl) ??
		parseCallbackUrl(req.query.callbackUrl) ??
		parseCallbackUrl(stored);
	let callbackUrl = ctx.origin;
	if (candidate) {
		const decided = await ctx.options.callbacks.redirect({ url: candidate, baseUrl: ctx.origin });
		callbackUrl = absoluteRedirect(decided, ctx.origin) ?? ctx.origin;
	}
	const cookie =
		callbackUrl !== stored
			? { name: cookieName.name, value: callbackUrl, options: cookieName.options }
			: undefined;
	return { callbackUrl, cookie };
}

/** A URL under the base path, e.g. `pageUrl(ctx, 'signin', {error})`. */
export function actionUrl(ctx: AuthContext, path: string, params?: Record<string, string | undefined>): string {
	const url = `${ctx.baseUrl}/${path}`;
	return withParams(url, params);
}

export function withParams(url: string, params?: Record<string, string | undefined>): string {
	const search = new URLSearchParams();
	for (const [key, value] of Object.entries(params ?? {})) if (value !== undefined) search.set(key, value);
	const query = search.toString();
	return query ? `${url}${url.includes('?') ? '&' : '?'}${query}` : url;
}
