import type { Component } from 'svelte';
import { type AuthContext, actionUrl } from '../context.js';
import type { ResponseInternal } from '../types/internal.js';
import { clientProvider } from '../providers/public.js';
import type { ProviderConfig } from '../types/provider.js';
import { credentialFields } from './fields.js';
import { ErrorPage, render, SignInPage, SignOutPage, VerifyRequestPage } from './components.js';
import { errorPageText, signInMessage } from './messages.js';
import type { PageProvider } from './types.js';
import { PASSKEY_SCRIPT } from './passkey-script.generated.js';

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
	const { credentials, webauthn } = clientProvider(provider);
	return {
		id: provider.id,
		name: provider.name,
		type: provider.type,
		signinUrl: actionUrl(ctx, `signin/${provider.id}`),
		callbackUrl: actionUrl(ctx, `callback/${provider.id}`),
		fields: credentials ? credentialFields(credentials) : undefined,
		webauthn: webauthn
			? { fields: credentialFields(webauthn.formFields), autofill: webauthn.enableConditionalUI }
			: undefined,
		style: 'style' in provider ? provider.style : undefined
	};
}

export function signInPage(
	ctx: AuthContext,
	params: { callbackUrl: string; error?: string }
): ResponseInternal<string> {
	const error = params.error ? signInMessage(params.error) : undefined;
	const providers = ctx.options.providers.map((provider) => pageProvider(ctx, provider));
	return page(SignInPage, {
		providers,
		basePath: new URL(ctx.baseUrl).pathname.replace(/\/$/, ''),
		// Passkeys need the browser: the page inlines its script (bundled, never from a CDN).
		passkeyScript: providers.some((p) => p.webauthn) ? PASSKEY_SCRIPT : undefined,
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

export function verifyRequestPage(ctx: AuthContext): ResponseInternal<string> {
	return page(VerifyRequestPage, {
		host: new URL(ctx.origin).host,
		homeUrl: ctx.origin,
		theme: ctx.options.theme
	});
}
