import { type AuthContext, actionUrl } from '../context.js';
import type { ResponseInternal } from '../types/internal.js';
import { ConfirmSignIn, ErrorPage, SignOut, VerifyRequest } from './components.js';
import { errorPageText } from '../../shared/messages.js';
import { page, type PageSetting, settingOf } from './page.js';
import type { VerifyRequestCode } from './types.js';

export async function signOutPage(ctx: AuthContext, callbackUrl?: string): Promise<ResponseInternal<string>> {
	return page(settingOf(ctx), ctx.i18n.t('signOut.heading'), SignOut, {
		variant: 'card',
		target: { action: actionUrl(ctx, 'signout'), fields: { csrfToken: ctx.csrf.token, ...(callbackUrl ? { callbackUrl } : {}) } }
	});
}

export async function errorPage(ctx: AuthContext, error: string | undefined): Promise<ResponseInternal<string>> {
	const text = errorPageText(error, ctx.i18n);
	return page(settingOf(ctx), text.heading, ErrorPage, { error, signInUrl: actionUrl(ctx, 'signin'), homeUrl: ctx.origin }, text.status);
}

/**
 * The error page for a request nothing may be derived from (its `Host` is not trusted): the same
 * page, with `status`, and only a link to `/` (no absolute URL: its origin would be the client's).
 */
export async function untrustedErrorPage(
	setting: PageSetting,
	error: string,
	status: number
): Promise<ResponseInternal<string>> {
	const text = errorPageText(error, setting.i18n);
	return page(setting, text.heading, ErrorPage, { error, homeUrl: '/' }, status);
}

/**
 * "Check your email"; with `code`, also the form for the one-time code the email carries (the
 * email flow decides whether it sends codes and where they are checked).
 */
export async function verifyRequestPage(
	ctx: AuthContext,
	options: { email?: string; code?: VerifyRequestCode; notice?: string } = {}
): Promise<ResponseInternal<string>> {
	const { code, notice } = options;
	const failure = code?.error
		? { failed: true, fieldErrors: { code: [code.error] } }
		: notice
			? { failed: true, formErrors: [notice] }
			: null;
	return page(settingOf(ctx), ctx.i18n.t('verify.heading'), VerifyRequest, {
		email: options.email,
		host: new URL(ctx.origin).host,
		homeUrl: ctx.origin,
		codes: !!code,
		action: code?.action,
		fields: code ? { ...code.fields, csrfToken: ctx.csrf.token } : undefined,
		form: failure
	});
}

/**
 * The page an emailed link opens: one button that posts the link's values (and the CSRF token)
 * back. Its URL holds the token, so referrers carry the origin only (`no-referrer` would do too
 * much: browsers then send `Origin: null` with the form, which SvelteKit refuses as cross-site).
 */
export async function confirmSignInPage(
	ctx: AuthContext,
	props: { action: string; email: string; token: string; callbackUrl?: string }
): Promise<ResponseInternal<string>> {
	const { action, email, token, callbackUrl } = props;
	const fields = { csrfToken: ctx.csrf.token, token, email, ...(callbackUrl ? { callbackUrl } : {}) };
	const res = await page(settingOf(ctx), ctx.i18n.t('confirm.heading'), ConfirmSignIn, { email, target: { action, fields }, homeUrl: ctx.origin });
	return { ...res, headers: { ...res.headers, 'Referrer-Policy': 'strict-origin' } };
}
