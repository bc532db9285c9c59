import type { Translator } from '../i18n/index.js';
import { requestTranslator } from './i18n.js';
import { absoluteRedirect, parseCallbackUrl } from './redirect.js';
import { cookieTable } from './session/cookies.js';
import { type CsrfState, checkCsrf } from './session/csrf.js';
import { cookieJar } from './session/jar.js';
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
 * The site's origin (`AUTH_URL`'s when configured, else the request's) and whether its cookies are
 * the https ones (`useSecureCookies`, else whether that origin is https): the one place both are
 * decided, so the CSRF check and the context never disagree on a cookie's name.
 */
function siteOf(options: AuthOptions, url: URL): { origin: string; cookies: CookiesOptions } {
	const origin = options.siteUrl?.origin ?? url.origin;
	return { origin, cookies: cookiesFor(options, options.useSecureCookies ?? origin.startsWith('https:')) };
}

/**
 * The CSRF state of a request (its cookie checked, or a new token minted), which `createContext`
 * needs unless the caller checked CSRF itself. Asynchronous: it hashes (Web Crypto digests are).
 */
export function requestCsrf(
	options: AuthOptions,
	req: Pick<RequestInternal, 'url' | 'cookies' | 'body'>
): Promise<CsrfState> {
	const { cookies } = siteOf(options, req.url);
	return checkCsrf(req.cookies[cookies.csrfToken.name], options.csrfSecret, req.body.csrfToken);
}

export function createContext(
	options: AuthOptions,
	req: Pick<RequestInternal, 'url' | 'cookies' | 'body' | 'providerId' | 'signal' | 'waitUntil'> & { request?: Request },
	caller: { csrfChecked?: boolean; csrf?: CsrfState } = {}
): AuthContext {
	const { origin, cookies } = siteOf(options, req.url);
	const csrfChecked = options.skipCSRFCheck || caller.csrfChecked === true;
	// A caller that checked CSRF itself needs no token: skip the hashing (the session hot path).
	const csrf = csrfChecked ? { token: '', verified: true } : caller.csrf;
	if (!csrf) throw new TypeError('createContext needs the request\'s CSRF state (requestCsrf) unless CSRF was checked');
	const pendingCookies: Cookie[] = [];
	let translator: Translator | undefined;
	if (csrf.cookieValue && !csrfChecked) {
		pendingCookies.push({ name: cookies.csrfToken.name, value: csrf.cookieValue, options: cookies.csrfToken.options });
	}
	return {
		options,
		origin,
		baseUrl: `${origin}${options.basePath}`,
		cookies,
		jar: cookieJar(req.cookies, cookies),
		provider: req.providerId ? options.providers.find((p) => p.id === req.providerId) : undefined,
		csrf,
		pendingCookies,
		csrfChecked,
		signal: req.signal,
		waitUntil: req.waitUntil,
		get i18n() {
			return (translator ??= requestTranslator(options.i18n, req.request));
		}
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

/** The pages an app may replace that have a built-in one, and its path under the base path. */
const BUILT_IN_PAGES = { signIn: 'signin', signOut: 'signout', error: 'error', verifyRequest: 'verify-request' } as const;

/** The app's own page for `name` (`pages.<name>`, a path on the site's origin) as a URL; none without one. */
export function customPage(ctx: AuthContext, name: keyof AuthOptions['pages']): string | undefined {
	const path = ctx.options.pages[name];
	return path ? `${ctx.origin}${path}` : undefined;
}

/**
 * Where a page lives: the app's own (`pages.<name>`) or else the built-in one under the base path.
 * The one place that decides "custom page or built-in page"; `params` go in its query.
 */
export function pageUrl(ctx: AuthContext, name: keyof typeof BUILT_IN_PAGES, params?: Record<string, string | undefined>): string {
	return withParams(customPage(ctx, name) ?? actionUrl(ctx, BUILT_IN_PAGES[name]), params);
}

/** A URL under the base path, e.g. `actionUrl(ctx, 'signin', {error})`. */
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
