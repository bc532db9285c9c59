import type { RequestEvent } from '@sveltejs/kit';
import type { AuthOptions } from '../core/config.js';
import { actionUrl, createContext, withParams } from '../core/context.js';
import { UntrustedHost } from '../core/errors.js';
import { route } from '../core/router.js';
import { parseCookieHeader } from '../core/session/cookies.js';
import type { AuthAction } from '../core/types/config.js';
import type { RequestInternal } from '../core/types/internal.js';
import { applyCookies } from './cookies.js';

/**
 * Runs a sign-in or sign-out for a server-side caller (form action or `signIn()`), straight
 * through the core's router. SvelteKit has already checked the form's origin, so the CSRF token
 * is not needed. Failures are thrown as `AuthError`s; cookies go onto the event.
 * Returns where the user should go next.
 */
export async function perform(
	event: RequestEvent,
	options: AuthOptions,
	call: {
		action: Extract<AuthAction, 'signin' | 'callback' | 'signout'>;
		providerId?: string;
		body: Record<string, unknown>;
		query?: URLSearchParams;
	}
): Promise<string> {
	if (!options.trustHost) throw new UntrustedHost('Host must be trusted: set AUTH_URL or AUTH_TRUST_HOST=true.');
	const path = call.providerId ? `${call.action}/${call.providerId}` : call.action;
	const url = new URL(`${event.url.origin}${options.basePath}/${path}`);
	for (const [key, value] of call.query ?? []) url.searchParams.append(key, value);
	const cookies = parseCookieHeader(event.request.headers.get('cookie'));
	const req: RequestInternal = {
		url,
		method: 'POST',
		action: call.action,
		providerId: call.providerId,
		headers: event.request.headers,
		cookies,
		query: Object.fromEntries(url.searchParams),
		body: call.body,
		request: event.request
	};
	const ctx = createContext(options, req, { csrfChecked: true });
	const res = await route(req, ctx);
	applyCookies(event.cookies, res.cookies);
	return res.redirect ?? ctx.origin;
}

/** The sign-in page URL (built-in or `pages.signIn`) with a callbackUrl. */
export function signInPageUrl(event: RequestEvent, options: AuthOptions, callbackUrl: string): string {
	const ctx = createContext(options, { url: event.url, cookies: {}, body: {} }, { csrfChecked: true });
	const page = options.pages.signIn ? `${ctx.origin}${options.pages.signIn}` : actionUrl(ctx, 'signin');
	return withParams(page, { callbackUrl });
}
