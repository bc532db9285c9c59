/**
 * Drives kitauth's OAuth/OIDC flows through the real `Auth()` for the `tests/integration/oauth*`
 * suites: an app on `http://app.test` (Auth() never connects to it; only the test IdPs on
 * 127.0.0.1 are real servers), a browser (`TestClient`: cookie jar + CSRF dance), and the steps of
 * a sign-in — POST `/auth/signin/<id>`, the IdP's pages, GET (or POST) the callback.
 */
import { expect } from 'vitest';
import { Auth, createAuthServer, type Env } from '../../src/lib/core/index.js';
import { decode } from '../../src/lib/core/session/jwt.js';
import type { AuthConfig, JWT, OAuthConfig, Provider } from '../../src/lib/core/types.js';
import { sessionWithUserId } from '../integration/fixtures.js';
import { isDeletion, setCookies, TestClient, type SetCookie } from './client.js';
import { TEST_CLIENT_ID, TEST_CLIENT_SECRET, type TestIdp } from './oidc-provider.js';

export const APP_ORIGIN = 'http://app.test';
export const OAUTH_SECRET = 'oauth-integration-secret-0123456789abcdef0123';
export const SESSION_COOKIE = 'authjs.session-token';
export const CALLBACK_URL_COOKIE = 'authjs.callback-url';
export const PKCE_COOKIE = 'authjs.pkce.code_verifier';
export const STATE_COOKIE = 'authjs.state';
export const NONCE_COOKIE = 'authjs.nonce';
export const CHECK_COOKIES = [PKCE_COOKIE, STATE_COOKIE, NONCE_COOKIE] as const;

/** kitauth's redirect_uri for a provider: `<origin>/auth/callback/<id>`. */
export function callbackUri(providerId: string, origin = APP_ORIGIN): string {
	return `${origin}/auth/callback/${providerId}`;
}

/** The test IdP's default client as an OIDC provider (`id` `local` unless told otherwise). */
export function localProvider(idp: Pick<TestIdp, 'issuer'>, overrides: Partial<OAuthConfig> = {}): OAuthConfig {
	return {
		id: 'local',
		name: 'Local',
		type: 'oidc',
		issuer: idp.issuer,
		clientId: TEST_CLIENT_ID,
		clientSecret: TEST_CLIENT_SECRET,
		...overrides
	};
}

export interface OAuthApp {
	config: AuthConfig;
	/** What the logger's `error` received (kitauth logs every failure). */
	errors: Error[];
	handler: (request: Request) => Promise<Response>;
	/** A new browser. */
	browser(origin?: string): TestClient;
}

/**
 * A fresh configuration object (options are cached per object) for the app on `origin`. With
 * `env`, the app runs on the server API resolved against that environment.
 */
export function oauthApp(providers: Provider[], overrides: Partial<AuthConfig> = {}, origin = APP_ORIGIN, env?: Env): OAuthApp {
	const errors: Error[] = [];
	const config: AuthConfig = {
		secret: OAUTH_SECRET,
		trustHost: true,
		providers,
		logger: { error: (error) => void errors.push(error), warn: () => {}, debug: () => {} },
		...overrides,
		// The suites look at users' ids: the callback Auth.js apps write for that.
		callbacks: { session: sessionWithUserId, ...overrides.callbacks }
	};
	const handler = env ? createAuthServer(config, { env }).handle : (request: Request) => Auth(request, config);
	return { config, errors, handler, browser: (o = origin) => new TestClient(handler, { origin: o }) };
}

export interface Started {
	res: Response;
	/** The authorization URL kitauth redirected to. */
	url: URL;
	/** Every `Set-Cookie` of the sign-in response. */
	cookies: SetCookie[];
}

/** POST `/auth/signin/<id>` with a CSRF token (and `query` on the URL): must redirect to the IdP. */
export async function startSignIn(
	browser: TestClient,
	providerId: string,
	options: { query?: Record<string, string>; form?: Record<string, string> } = {}
): Promise<Started> {
	const res = await browser.postForm(`signin/${providerId}`, options.form ?? {}, options.query ? { query: options.query } : {});
	expect(res.status, `sign-in answered ${res.status} ${res.headers.get('location') ?? ''}`).toBe(302);
	const url = new URL(res.headers.get('location') ?? '');
	return { res, url, cookies: setCookies(res) };
}

/** The user agent's way through the IdP: the authorization URL in, the redirect to our callback out. */
export type Authorize = (authorizationUrl: URL) => Promise<URL>;

export interface SignedIn {
	start: Started;
	/** Where the IdP sent the user agent back to. */
	callback: URL;
	/** kitauth's answer to the callback. */
	res: Response;
}

/** A whole sign-in: start, the IdP, the callback (GET, with the browser's cookies). */
export async function oauthSignIn(
	browser: TestClient,
	providerId: string,
	authorize: Authorize,
	options: { query?: Record<string, string>; form?: Record<string, string> } = {}
): Promise<SignedIn> {
	const start = await startSignIn(browser, providerId, options);
	const callback = await authorize(start.url);
	const res = await browser.get(callback.href);
	return { start, callback, res };
}

/** Location of a redirect. */
export function locationOf(res: Response): string {
	const value = res.headers.get('location');
	expect(value, `status ${res.status} without Location`).not.toBeNull();
	return value as string;
}

/** Non-empty session cookies (whole or chunks) a response sets. */
export function sessionCookiesSet(res: Response, name = SESSION_COOKIE): SetCookie[] {
	return setCookies(res).filter((c) => (c.name === name || c.name.startsWith(`${name}.`)) && !isDeletion(c) && c.value !== '');
}

/** Names of the cookies a response deletes. */
export function deletedCookies(res: Response): string[] {
	return setCookies(res)
		.filter((c) => isDeletion(c))
		.map((c) => c.name);
}

/** Asserts the answer to a refused callback: a redirect to `expected`, and no session anywhere. */
export async function expectRefused(browser: TestClient, res: Response, expected: string): Promise<void> {
	expect(res.status).toBe(302);
	expect(res.headers.get('location')).toBe(expected);
	expect(sessionCookiesSet(res)).toEqual([]);
	expect(sessionCookiesSet(res, `__Secure-${SESSION_COOKIE}`)).toEqual([]);
	expect(sessionCookiesSet(res, `__Host-${SESSION_COOKIE}`)).toEqual([]);
	expect(await browser.session()).toBeNull();
}

/** The sign-in page with an error, as kitauth redirects to it. */
export function signInPageError(error: string, origin = APP_ORIGIN): string {
	return `${origin}/auth/signin?error=${error}`;
}

/** The error page with an error. */
export function errorPageError(error: string, origin = APP_ORIGIN): string {
	return `${origin}/auth/error?error=${error}`;
}

/** The claims of the browser's JWT session cookie (null when there is none or it does not open). */
export async function sessionClaims(browser: TestClient, name = SESSION_COOKIE, secret = OAUTH_SECRET): Promise<JWT | null> {
	const token = browser.cookie(name);
	return token ? decode({ token, secret, salt: name }) : null;
}

/** Races a promise against a deadline so a hang fails the test with a message, not a timeout. */
export async function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const deadline = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error(`${what} did not resolve within ${ms} ms`)), ms);
	});
	try {
		return await Promise.race([promise, deadline]);
	} finally {
		clearTimeout(timer);
	}
}

/** The logged errors as one line each (message ← cause ← …), for assertion messages. */
export function explain(errors: readonly Error[]): string {
	return errors
		.map((error) => {
			const parts: string[] = [];
			let current: unknown = error;
			for (let depth = 0; current && depth < 5; depth++) {
				if (current instanceof Error) {
					parts.push(`${current.name}: ${current.message}`);
					const cause: unknown = current.cause;
					current = cause && typeof cause === 'object' && !(cause instanceof Error) && 'err' in cause ? cause.err : cause;
				} else {
					parts.push(String(current));
					break;
				}
			}
			return parts.join(' ← ');
		})
		.join('\n');
}
