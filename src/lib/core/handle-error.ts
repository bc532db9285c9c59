import type { AuthOptions } from './types/options.js';
import { type AuthContext, customPage, pageUrl } from './context.js';
import {
	AdapterError,
	AuthError,
	CredentialsSignin,
	InvalidRequest,
	MissingCSRF,
	RateLimited,
	RateLimitUnavailable,
	UnknownAction,
	WebAuthnVerificationError
} from './errors.js';
import { CONFIGURATION_MESSAGE, retryAfterOf, safeCode, urlErrorFor } from './error-answers.js';
import { escapeHtml } from './html.js';
import { requestTranslator } from './i18n.js';
import { logOnce } from './logger.js';
import { signInMessage } from '../shared/messages.js';
import { errorPage, untrustedErrorPage } from './pages/index.js';
import { signInPage } from './pages/signin.js';
import { parseActionAndProviderId } from './request.js';
import { NO_CACHE } from './response.js';
import { routeOf } from './router.js';
import { untrustedHost } from './trust.js';
import type { RequestInternal, ResponseInternal } from './types/internal.js';

/** A plain-text refusal: never sniffed as anything else, never cached. */
const PLAIN_TEXT = { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' } as const;

/**
 * A request while the `Host` header is not trusted (`trust.ts`): 400, and nothing derived from the
 * request — no `Location`, no absolute link, no cookie. JSON for the JSON routes (and clients that
 * ask with `X-Auth-Return-Redirect`), else the error page. Logged once per instance: it is the
 * configuration's fault, and every request meets it.
 */
export async function refuseUntrustedHost(request: Request, options: AuthOptions): Promise<ResponseInternal> {
	logOnce(options.runtime.reported, options.logger, untrustedHost());
	const asked = request.method.toUpperCase();
	let route: ReturnType<typeof routeOf>;
	try {
		const { action } = parseActionAndProviderId(new URL(request.url).pathname, options.basePath);
		route = routeOf(asked === 'HEAD' ? 'GET' : asked, action);
	} catch {
		route = undefined;
	}
	if (route?.errors === 'page' && !request.headers.has('X-Auth-Return-Redirect')) {
		// The request's language is no URL or link: nothing derived from its Host.
		const i18n = requestTranslator(options.i18n, request);
		return untrustedErrorPage({ theme: options.theme, i18n, messages: options.i18n.messages }, 'Configuration', 400);
	}
	return { status: 400, headers: { ...NO_CACHE }, body: { message: CONFIGURATION_MESSAGE } };
}

/**
 * Turns a failure into the right answer: 4xx for a bad request, the sign-in or error page (with
 * an allow-listed `?error=`) for a failed flow, JSON without internals for the JSON endpoints.
 * Every failure is logged; none is a 500 with a stack trace, none creates a session.
 */
export async function handleError(
	error: unknown,
	req: (Pick<RequestInternal, 'method' | 'action'> & { headers?: Headers }) | undefined,
	ctx: AuthContext | undefined,
	flags: { logged?: boolean } = {}
): Promise<ResponseInternal> {
	if (error instanceof InvalidRequest || error instanceof UnknownAction) {
		ctx?.options.logger.debug(`refused request: ${error.message}`);
		const status = error instanceof InvalidRequest ? error.status : 400;
		return { status, headers: { ...PLAIN_TEXT }, body: `Bad request: ${error.message}` };
	}
	const route = req && routeOf(req.method, req.action);
	const json = !route || route.errors === 'json';
	if (json && error instanceof MissingCSRF) {
		// A JSON action refused for CSRF (the session update) answers `null`, as in Auth.js.
		ctx?.options.logger.debug(`refused request: ${error.message}`);
		return { status: 400, headers: { ...NO_CACHE }, body: null };
	}
	// The limiter has logged the refusal (without secrets) and emitted `rateLimited`.
	if (error instanceof RateLimited) return tooManyAttempts(error, json, req?.headers, ctx);
	const logged = error instanceof Error ? error : new AuthError(String(error));
	// The client left (a closed tab, a load test's end): not a fault, and nobody reads this answer.
	if (ctx?.signal?.aborted) ctx.options.logger.debug(`the client gave up: ${logged.message}`);
	// The limiter logged its store's failure when it refused.
	else if (error instanceof RateLimitUnavailable) ctx?.options.logger.debug(`refused request: ${logged.message}`);
	else if (ctx) ctx.options.logger.error(logged);
	else if (!flags.logged) console.error(logged);
	if (!ctx) return { status: 500, body: { message: 'Server error' } };

	const retryAfter = retryAfterOf(error);
	const retryHeader: Record<string, string> = retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) };
	if (json) {
		const message =
			error instanceof RateLimitUnavailable
				? 'Sign-in is unavailable for a moment. Try again later.'
				: error instanceof AdapterError
					? 'The session store is unavailable. Try again later.'
					: undefined;
		return {
			status: message ? 503 : 500,
			headers: { ...NO_CACHE, ...retryHeader },
			body: { message: message ?? CONFIGURATION_MESSAGE }
		};
	}
	if (retryAfter !== undefined && !customPage(ctx, 'error')) {
		// Busy for a moment: say so here, with when to retry (a redirect would ask the busy store again).
		const busy = await errorPage(ctx, 'Unavailable');
		return { ...busy, status: 503, headers: { ...busy.headers, ...retryHeader }, cookies: ctx.pendingCookies };
	}
	const value = urlErrorFor(error);
	const kind = error instanceof AuthError ? error.kind : 'error';
	const code =
		error instanceof CredentialsSignin
			? safeCode(error.code)
			: error instanceof WebAuthnVerificationError && error.code !== 'webauthn'
				? error.code
				: undefined;
	if (req?.action === 'error') {
		// Failing on the error page itself: render it here rather than redirect to itself. This
		// request failed on the server (not because of its `?error=`), so it says so: a 500.
		try {
			return { ...(await errorPage(ctx, value)), status: 500, cookies: ctx.pendingCookies };
		} catch {
			return { status: 500, headers: { ...PLAIN_TEXT }, body: 'Server error' };
		}
	}
	return { redirect: pageUrl(ctx, kind === 'signIn' ? 'signIn' : 'error', { error: value, code }), cookies: ctx.pendingCookies };
}

/**
 * A refusal by the rate limiter: 429 with `Retry-After`, as JSON for API clients (`{url}` for
 * `X-Auth-Return-Redirect` ones, pointing at the sign-in page with `error=RateLimited`), else the
 * built-in sign-in page saying so (or, with `pages.signIn`, a short page linking to it).
 */
async function tooManyAttempts(error: RateLimited, json: boolean, headers: Headers | undefined, ctx: AuthContext | undefined): Promise<ResponseInternal> {
	const retry = { ...NO_CACHE, 'Retry-After': String(error.retryAfter) };
	const message = signInMessage('RateLimited', ctx?.i18n);
	if (json || !ctx) return { status: 429, headers: retry, body: { message, retryAfter: error.retryAfter } };
	const custom = customPage(ctx, 'signIn');
	const signin = pageUrl(ctx, 'signIn', { error: 'RateLimited' });
	if (headers?.has('X-Auth-Return-Redirect')) return { status: 429, headers: retry, body: { url: signin }, cookies: ctx.pendingCookies };
	if (!custom) {
		const page = await signInPage(ctx, { callbackUrl: ctx.origin, error: 'RateLimited' });
		return { ...page, status: 429, headers: { ...page.headers, ...retry }, cookies: ctx.pendingCookies };
	}
	const link = escapeHtml(signin);
	return {
		status: 429,
		headers: { ...retry, 'Content-Type': 'text/html; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'" },
		body:
			`<!doctype html><html lang="${ctx.i18n.locale}" dir="${ctx.i18n.dir}"><head><meta charset="utf-8"><title>${escapeHtml(ctx.i18n.t('signIn.error.rateLimitedTitle'))}</title></head>` +
			`<body><p>${escapeHtml(message)} <a href="${link}">${escapeHtml(ctx.i18n.t('signIn.back'))}</a></p></body></html>`,
		cookies: ctx.pendingCookies
	};
}
