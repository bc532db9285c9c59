/**
 * `kitauth/client`: sign in and out from the browser, as `@auth/sveltekit/client` does, through
 * kitauth's REST endpoints (CSRF token first, then a form POST that answers `{ url }` because it
 * sends `X-Auth-Return-Redirect`). Browser-only: it imports no server code.
 *
 * The endpoints are looked for under `{paths.base}/auth`; pass `basePath` when the server's
 * `basePath` option moved them.
 */
import { appBase } from '../shared/app-base.js';
import { signInAction, signInEndpoint } from '../shared/endpoints.js';
import type { Session } from '../index.js';
import { session, sessionInUse } from './session.svelte.js';
import { runCeremony } from './webauthn.js';

export { forgetPasskey, passkeyAutofillSupported, passkeysSupported } from './webauthn.js';
export { session, type ReactiveSession } from './session.svelte.js';

export interface ClientOptions {
	/**
	 * Where the endpoints are, e.g. `/api/auth` (after `paths.base`, which is added). Default
	 * `/auth`, as on the server.
	 */
	basePath?: string;
	/** Where to land afterwards: a path or URL on this site (the server checks it). Default: this page. */
	redirectTo?: string;
	/** @deprecated Auth.js's older name for `redirectTo`. */
	callbackUrl?: string;
	/**
	 * `true` (default): go where the server says. `false`: stay and get the result, e.g. to show
	 * a refused credentials sign-in in place (then `invalidateAll()` to reload the page's data).
	 */
	redirect?: boolean;
}

/**
 * `signIn`'s options: the above plus the provider's own fields (credentials, `email`; for a
 * passkey provider, `action: 'register' | 'authenticate'` and `email`).
 */
export type ClientSignInOptions = ClientOptions & Record<string, string | boolean | undefined>;

export interface SignInResult {
	/** The server accepted the attempt (no `error` in the URL it answered). */
	ok: boolean;
	/** Where the server sends the browser next (an IdP, the landing page, or a page with an error). */
	url: string;
	/** The error the server reported (e.g. `CredentialsSignin`), else null. */
	error: string | null;
	/** `CredentialsSignin`'s code, else null. */
	code: string | null;
}

interface PublicProvider {
	id: string;
	type: string;
}

const OWN_OPTIONS = new Set(['basePath', 'redirectTo', 'callbackUrl', 'redirect', 'autofill']);

function endpoints(basePath = '/auth'): string {
	return `${appBase()}${basePath.startsWith('/') ? basePath : `/${basePath}`}`.replace(/\/+$/, '');
}

async function json<T>(response: Response, what: string): Promise<T> {
	if (!response.ok) throw new Error(`kitauth: ${what} answered ${response.status}`);
	return (await response.json()) as T;
}

/** The double-submit token (the response sets its cookie). */
async function csrfToken(base: string): Promise<string> {
	return (await json<{ csrfToken: string }>(await fetch(`${base}/csrf`), 'GET csrf')).csrfToken;
}

/** A form POST that answers where to go (`X-Auth-Return-Redirect`) instead of redirecting. */
async function postForUrl(url: string, fields: Record<string, string>, what: string): Promise<string> {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Auth-Return-Redirect': '1' },
		body: new URLSearchParams(fields)
	});
	// Too many attempts: still an answer with a place to go (the sign-in page, error=RateLimited).
	if (response.status === 429) return ((await response.json()) as { url: string }).url;
	return (await json<{ url: string }>(response, what)).url;
}

/**
 * After a sign-in that stays on the page: the new session, for the reactive `session` (when this
 * page uses it: a request otherwise spared). The cookie is HttpOnly, so only the server can say.
 */
async function learnSignIn(base: string, result: SignInResult, stays: boolean): Promise<void> {
	if (!result.ok || !stays || !sessionInUse()) return;
	session.set(await json<Session | null>(await fetch(`${base}/session`), 'GET session'));
}

function navigate(url: string): void {
	window.location.href = url;
	// Only the fragment changed: the browser would not load the page.
	if (url.includes('#')) window.location.reload();
}

/**
 * Starts a sign-in with `provider` (its id): OAuth/OIDC go to the provider, email sends the
 * link, credentials post `options`' fields. Without a provider, or with one the server does not
 * know, the browser goes to the sign-in page.
 */
export async function signIn(
	provider?: string,
	options: ClientSignInOptions = {},
	authorizationParams?: Record<string, string> | URLSearchParams | string
): Promise<SignInResult> {
	const base = endpoints(options.basePath);
	const callbackUrl = options.redirectTo ?? options.callbackUrl ?? window.location.href;
	const [providers, token] = await Promise.all([
		fetch(`${base}/providers`).then((response) => json<Record<string, PublicProvider>>(response, 'GET providers')),
		csrfToken(base)
	]);
	const known = provider !== undefined && Object.hasOwn(providers, provider) ? providers[provider] : undefined;
	if (!known) {
		const url = `${base}/signin?${new URLSearchParams({ callbackUrl })}`;
		navigate(url);
		return { ok: false, url, error: null, code: null };
	}
	const fields: Record<string, string> = {};
	for (const [name, value] of Object.entries(options)) {
		if (!OWN_OPTIONS.has(name) && value !== undefined) fields[name] = String(value);
	}
	if (known.type === 'webauthn') return passkeyCeremony(base, known.id, fields, token, callbackUrl, options);
	const query = authorizationParams ? `?${new URLSearchParams(authorizationParams)}` : '';
	const url = await postForUrl(
		`${signInEndpoint(base, known)}${query}`,
		{ ...fields, csrfToken: token, callbackUrl },
		`POST ${signInAction(known.type)}`
	);
	const params = new URL(url, window.location.href).searchParams;
	const result = { ok: !params.has('error'), url, error: params.get('error'), code: params.get('code') };
	// Credentials sign in at once; OAuth and email sign in later, elsewhere.
	await learnSignIn(base, result, known.type === 'credentials' && options.redirect === false);
	if (options.redirect !== false) navigate(url);
	return result;
}

async function passkeyCeremony(
	base: string,
	id: string,
	fields: Record<string, string>,
	csrfToken: string,
	callbackUrl: string,
	options: ClientSignInOptions,
	autofill = false
): Promise<SignInResult> {
	const outcome = await runCeremony(base, id, fields, { csrfToken, callbackUrl }, autofill);
	if (outcome.url === null) return { ok: false, url: window.location.href, error: outcome.error, code: outcome.code };
	const result = { ok: outcome.error === null, url: outcome.url, error: outcome.error, code: outcome.code };
	await learnSignIn(base, result, options.redirect === false);
	if (options.redirect !== false) navigate(outcome.url);
	return result;
}

/**
 * Adds a passkey to the signed-in user (a registration ceremony with a WebAuthn provider, by
 * default `passkey`), then goes where the server says (`redirectTo`, default this page).
 */
export function addPasskey(provider = 'passkey', options: ClientOptions = {}): Promise<SignInResult> {
	return signIn(provider, { ...options, action: 'register' });
}

/**
 * Offers passkeys in the browser's autofill on this page's sign-in form (conditional mediation):
 * needs an input with `autocomplete="username webauthn"`. Resolves when the user picks one (and the
 * sign-in went through), or with `null` where the browser cannot. A button's ceremony (`signIn`)
 * cancels it; call again to offer autofill anew.
 */
export async function passkeyAutofill(provider = 'passkey', options: ClientOptions = {}): Promise<SignInResult | null> {
	const { passkeyAutofillSupported } = await import('./webauthn.js');
	if (!(await passkeyAutofillSupported())) return null;
	if (!document.querySelector('input[autocomplete~="webauthn" i]')) return null;
	const base = endpoints(options.basePath);
	const callbackUrl = options.redirectTo ?? options.callbackUrl ?? window.location.href;
	return passkeyCeremony(base, provider, { action: 'authenticate' }, await csrfToken(base), callbackUrl, { redirect: options.redirect }, true);
}

/** Signs out (the session cookie goes; a database session is deleted). */
export async function signOut(options: ClientOptions = {}): Promise<{ url: string }> {
	const base = endpoints(options.basePath);
	const callbackUrl = options.redirectTo ?? options.callbackUrl ?? window.location.href;
	const url = await postForUrl(`${base}/signout`, { csrfToken: await csrfToken(base), callbackUrl }, 'POST signout');
	session.set(null);
	if (options.redirect !== false) navigate(url);
	return { url };
}

/**
 * Updates the session, as Auth.js's `update(data)`: the server's `jwt` (JWT sessions) or
 * `session` (database sessions) callback runs with `trigger: 'update'` and `data`, and the new
 * session (`null` when signed out) is returned, and shown by the reactive `session` here and in
 * the other tabs.
 */
export async function update(data?: unknown, options: Pick<ClientOptions, 'basePath'> = {}): Promise<Session | null> {
	const base = endpoints(options.basePath);
	const response = await fetch(`${base}/session`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ csrfToken: await csrfToken(base), data })
	});
	const updated = await json<Session | null>(response, 'POST session');
	session.set(updated);
	return updated;
}
