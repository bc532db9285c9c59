import type { Component } from 'svelte';
import type { LocaleMessages, Translator } from '../../i18n/index.js';
import { type AuthContext, actionUrl } from '../context.js';
import type { Theme } from '../types/config.js';
import type { ResponseInternal } from '../types/internal.js';
import type { ClientProvider } from '../providers/public.js';
import { clientProvider } from '../providers/public.js';
import { ConfirmSignIn, ErrorPage, Page, render, SignIn, SignOut, VerifyRequest } from './components.js';
import { errorPageText } from './messages.js';
import { PASSKEY_SCRIPT } from './passkey-script.generated.js';
import { contentSecurityPolicy } from './csp.js';
import { flowOf } from '../flows/index.js';
import type { VerifyRequestCode } from './types.js';

/**
 * Pages carry a CSRF token: never framed (clickjacking), cached or sniffed, referrers kept on this
 * site; and a strict Content-Security-Policy (see `contentSecurityPolicy`).
 */
const PAGE_HEADERS = {
	'Content-Type': 'text/html; charset=utf-8',
	'Cache-Control': 'private, no-store',
	'X-Content-Type-Options': 'nosniff',
	'X-Frame-Options': 'DENY',
	'Referrer-Policy': 'same-origin',
	'Cross-Origin-Opener-Policy': 'same-origin'
};

/** What every page is rendered with: the look, and the language of the request. */
interface PageSetting {
	theme: Readonly<Theme>;
	i18n: Translator;
	/** The app's messages (`i18n.messages`), which the views' translators take too. */
	messages?: LocaleMessages;
}

const settingOf = (ctx: AuthContext): PageSetting => ({ theme: ctx.options.theme, i18n: ctx.i18n, messages: ctx.options.i18n.messages });

/** A built-in page: the component kit's `view` in the page frame, rendered to a whole document. */
async function page<Props extends Record<string, unknown>>(
	setting: PageSetting,
	title: string,
	view: Component<Props>,
	props: Props,
	status = 200,
	script?: string
): Promise<ResponseInternal<string>> {
	const { theme, i18n, messages } = setting;
	// The frame carries the colours and the scheme; the view shows the logo, in the page's language.
	const viewProps = { ...props, theme: theme.logo ? { logo: theme.logo } : undefined, locale: i18n.locale, messages };
	const { head, body } = render(Page<Props>, { props: { theme, title, view, props: viewProps, script } });
	const html =
		`<!doctype html><html lang="${i18n.locale}" dir="${i18n.dir}"><head><meta charset="utf-8">` +
		'<meta name="viewport" content="width=device-width, initial-scale=1">' +
		`${head}</head><body>${body}</body></html>`;
	const csp = await contentSecurityPolicy({ styles: `${head}${body}`, script, logo: theme.logo });
	return { status, headers: { ...PAGE_HEADERS, 'Content-Security-Policy': csp }, body: html };
}

export async function signInPage(ctx: AuthContext, params: { callbackUrl: string; error?: string }): Promise<ResponseInternal<string>> {
	const fields = { csrfToken: ctx.csrf.token, callbackUrl: params.callbackUrl };
	const actions = new Map(ctx.options.providers.map((provider) => [provider.id, flowOf(provider).serverAction]));
	const providers = ctx.options.providers.map(clientProvider);
	return page(
		settingOf(ctx),
		ctx.i18n.t('signIn.heading'),
		SignIn,
		{
			providers,
			error: params.error,
			basePath: new URL(ctx.baseUrl).pathname.replace(/\/$/, ''),
			// Plain forms to the REST endpoints: providers proven on their callback (credentials, passkeys)
			// post there, the others start at /signin/<id>.
			target: (provider: ClientProvider) => ({
				action: actionUrl(ctx, `${actions.get(provider.id) === 'callback' ? 'callback' : 'signin'}/${provider.id}`),
				fields
			})
		},
		200,
		// Passkeys need the browser: the page inlines their script (bundled with kitauth, never from a CDN).
		providers.some((provider) => provider.webauthn) ? PASSKEY_SCRIPT : undefined
	);
}

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
