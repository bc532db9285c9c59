import type { Component, ComponentProps } from 'svelte';
import { type AuthContext, actionUrl } from '../context.js';
import type { ResponseInternal } from '../types/internal.js';
import { clientProvider } from '../providers/public.js';
import type { ProviderConfig } from '../types/provider.js';
import { credentialFields } from './fields.js';
import { ConfirmSignInPage, ErrorPage, render, SignInPage, SignOutPage, VerifyRequestPage } from './components.js';
import { errorPageText, signInMessage } from './messages.js';
import type { PageProvider } from './types.js';

/** Pages carry a CSRF token and must never be framed (clickjacking) or cached. */
const PAGE_HEADERS = {
	'Content-Type': 'text/html; charset=utf-8',
	'Cache-Control': 'private, no-store',
	'X-Frame-Options': 'DENY',
	'Content-Security-Policy': "frame-ancestors 'none'",
	'Referrer-Policy': 'same-origin'
};

function page<Props extends Record<string, unknown>>(
	component: Component<Props>,
	props: Props,
	status = 200
): ResponseInternal<string> {
	const { head, body } = render(component, { props });
	const html =
		'<!doctype html><html lang="en"><head><meta charset="utf-8">' +
		'<meta name="viewport" content="width=device-width, initial-scale=1">' +
		`${head}</head><body>${body}</body></html>`;
	return { status, headers: { ...PAGE_HEADERS }, body: html };
}

export function pageProvider(ctx: AuthContext, provider: ProviderConfig): PageProvider {
	const { credentials } = clientProvider(provider);
	return {
		id: provider.id,
		name: provider.name,
		type: provider.type,
		signinUrl: actionUrl(ctx, `signin/${provider.id}`),
		callbackUrl: actionUrl(ctx, `callback/${provider.id}`),
		fields: credentials ? credentialFields(credentials) : undefined,
		style: 'style' in provider ? provider.style : undefined
	};
}

export function signInPage(
	ctx: AuthContext,
	params: { callbackUrl: string; error?: string }
): ResponseInternal<string> {
	const error = params.error ? signInMessage(params.error) : undefined;
	return page(SignInPage, {
		providers: ctx.options.providers.map((provider) => pageProvider(ctx, provider)),
		csrfToken: ctx.csrf.token,
		callbackUrl: params.callbackUrl,
		error,
		theme: ctx.options.theme
	});
}

export function signOutPage(ctx: AuthContext, callbackUrl?: string): ResponseInternal<string> {
	return page(SignOutPage, {
		action: actionUrl(ctx, 'signout'),
		csrfToken: ctx.csrf.token,
		callbackUrl,
		theme: ctx.options.theme
	});
}

export function errorPage(ctx: AuthContext, error: string | undefined): ResponseInternal<string> {
	const text = errorPageText(error);
	return page(
		ErrorPage,
		{
			heading: text.heading,
			message: text.message,
			signinUrl: text.signin ? actionUrl(ctx, 'signin') : undefined,
			homeUrl: ctx.origin,
			theme: ctx.options.theme
		},
		text.status
	);
}

/** "Check your email"; email providers with codes add the address and the code form. */
export function verifyRequestPage(
	ctx: AuthContext,
	extra: Pick<ComponentProps<typeof VerifyRequestPage>, 'email' | 'code' | 'codeSpent'> = {}
): ResponseInternal<string> {
	return page(VerifyRequestPage, {
		host: new URL(ctx.origin).host,
		homeUrl: ctx.origin,
		theme: ctx.options.theme,
		...extra
	});
}

/**
 * The page an emailed link opens: one button that posts the link's values (and the CSRF token)
 * back. Its URL holds the token, so referrers carry the origin only (`no-referrer` would do too
 * much: browsers then send `Origin: null` with the form, which SvelteKit refuses as cross-site).
 */
export function confirmSignInPage(
	ctx: AuthContext,
	props: { action: string; email: string; token: string; callbackUrl?: string }
): ResponseInternal<string> {
	const res = page(ConfirmSignInPage, { ...props, csrfToken: ctx.csrf.token, homeUrl: ctx.origin, theme: ctx.options.theme });
	return { ...res, headers: { ...res.headers, 'Referrer-Policy': 'strict-origin' } };
}
