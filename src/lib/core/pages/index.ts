import type { Component } from 'svelte';
import { type AuthContext, actionUrl } from '../context.js';
import type { Theme } from '../types/config.js';
import type { ResponseInternal } from '../types/internal.js';
import type { ClientProvider } from '../providers/public.js';
import { clientProviders } from '../providers/public.js';
import { ConfirmSignIn, ErrorPage, Page, render, SignIn, SignOut, VerifyRequest } from './components.js';
import { errorPageText } from './messages.js';
import { PASSKEY_SCRIPT } from './passkey-script.generated.js';
import { contentSecurityPolicy } from './csp.js';
import { signInEndpoint } from '../../shared/endpoints.js';
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

/** A built-in page: the component kit's `view` in the page frame, rendered to a whole document. */
async function page<Props extends Record<string, unknown>>(
	theme: Readonly<Theme>,
	title: string,
	view: Component<Props>,
	props: Props,
	status = 200,
	script?: string
): Promise<ResponseInternal<string>> {
	// The frame carries the colours and the scheme; the view shows the logo.
	const viewProps = { ...props, theme: theme.logo ? { logo: theme.logo } : undefined };
	const { head, body } = render(Page<Props>, { props: { theme, title, view, props: viewProps, script } });
	const html =
		'<!doctype html><html lang="en"><head><meta charset="utf-8">' +
		'<meta name="viewport" content="width=device-width, initial-scale=1">' +
		`${head}</head><body>${body}</body></html>`;
	const csp = await contentSecurityPolicy({ styles: `${head}${body}`, script, logo: theme.logo });
	return { status, headers: { ...PAGE_HEADERS, 'Content-Security-Policy': csp }, body: html };
}

export async function signInPage(ctx: AuthContext, params: { callbackUrl: string; error?: string }): Promise<ResponseInternal<string>> {
	const fields = { csrfToken: ctx.csrf.token, callbackUrl: params.callbackUrl };
	const providers = clientProviders(ctx.options.providers);
	return page(
		ctx.options.theme,
		'Sign in',
		SignIn,
		{
			providers,
			error: params.error,
			basePath: new URL(ctx.baseUrl).pathname.replace(/\/$/, ''),
			// Plain forms to the REST endpoints (shared/endpoints.ts says which).
			target: (provider: ClientProvider) => ({ action: signInEndpoint(ctx.baseUrl, provider), fields })
		},
		200,
		// Passkeys need the browser: the page inlines their script (bundled with kitauth, never from a CDN).
		providers.some((provider) => provider.webauthn) ? PASSKEY_SCRIPT : undefined
	);
}

export async function signOutPage(ctx: AuthContext, callbackUrl?: string): Promise<ResponseInternal<string>> {
	return page(ctx.options.theme, 'Sign out', SignOut, {
		variant: 'card',
		target: { action: actionUrl(ctx, 'signout'), fields: { csrfToken: ctx.csrf.token, ...(callbackUrl ? { callbackUrl } : {}) } }
	});
}

export async function errorPage(ctx: AuthContext, error: string | undefined): Promise<ResponseInternal<string>> {
	const text = errorPageText(error);
	return page(ctx.options.theme, text.heading, ErrorPage, { error, signInUrl: actionUrl(ctx, 'signin'), homeUrl: ctx.origin }, text.status);
}

/**
 * The error page for a request nothing may be derived from (its `Host` is not trusted): the same
 * page, with `status`, and only a link to `/` (no absolute URL: its origin would be the client's).
 */
export async function untrustedErrorPage(theme: Readonly<Theme>, error: string, status: number): Promise<ResponseInternal<string>> {
	const text = errorPageText(error);
	return page(theme, text.heading, ErrorPage, { error, homeUrl: '/' }, status);
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
	return page(ctx.options.theme, 'Check your email', VerifyRequest, {
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
	const res = await page(ctx.options.theme, 'Confirm sign-in', ConfirmSignIn, { email, target: { action, fields }, homeUrl: ctx.origin });
	return { ...res, headers: { ...res.headers, 'Referrer-Policy': 'strict-origin' } };
}
