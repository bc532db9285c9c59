import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { Auth, raw, skipCSRFCheck } from '../../src/lib/core/index.js';
import type { ResponseInternal, Session } from '../../src/lib/core/types.js';
import { parseSetCookie, setCookies } from '../support/client.js';
import {
	ALICE,
	ALICE_LOGIN,
	CALLBACK_COOKIE,
	CSRF_COOKIE,
	ORIGIN,
	SECRET,
	SESSION_COOKIE,
	location,
	sessionCookiesCleared,
	sessionCookiesSet,
	setup,
	signedIn
} from './fixtures.js';

const NO_CACHE = { 'cache-control': 'private, no-cache, no-store', expires: '0', pragma: 'no-cache' };

function expectNoCache(res: Response): void {
	for (const [name, value] of Object.entries(NO_CACHE)) expect(res.headers.get(name)).toBe(value);
}

function hiddenInput(html: string, name: string): string | undefined {
	const match = new RegExp(`<input[^>]*name="${name}"[^>]*value="([^"]*)"`).exec(html);
	return match?.[1];
}

describe('GET csrf', () => {
	test('returns a 64-hex token and sets the hash-signed, HttpOnly cookie, without caching', async () => {
		const client = setup().client();
		const res = await client.get('csrf');
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('application/json');
		expectNoCache(res);
		const { csrfToken } = (await res.json()) as { csrfToken: string };
		expect(csrfToken).toMatch(/^[0-9a-f]{64}$/);
		const cookie = setCookies(res).find((c) => c.name === CSRF_COOKIE);
		expect(cookie).toBeDefined();
		const hash = createHash('sha256').update(csrfToken + SECRET).digest('hex');
		expect(decodeURIComponent(cookie!.value)).toBe(`${csrfToken}|${hash}`);
		expect(cookie!.value).toContain('%7C');
		expect(cookie!.attributes).toMatchObject({ path: '/', httponly: true, samesite: 'Lax' });
		expect(cookie!.attributes.secure).toBeUndefined();
	});

	test('keeps a valid cookie: the same token, no new cookie', async () => {
		const client = setup().client();
		const first = await client.csrfToken();
		const res = await client.get('csrf');
		expect(((await res.json()) as { csrfToken: string }).csrfToken).toBe(first);
		expect(setCookies(res).map((c) => c.name)).not.toContain(CSRF_COOKIE);
	});

	test('on https the cookie is __Host- prefixed and Secure', async () => {
		const client = setup().client('https://app.example');
		const res = await client.get('csrf');
		const cookie = setCookies(res).find((c) => c.name === `__Host-${CSRF_COOKIE}`);
		expect(cookie?.attributes).toMatchObject({ secure: true, path: '/' });
		expect(cookie?.attributes.domain).toBeUndefined();
	});

	test('with skipCSRFCheck: 404, empty body, the CSRF cookie deleted, a csrf-disabled warning', async () => {
		const s = setup({ skipCSRFCheck });
		const client = s.client();
		client.setCookie(CSRF_COOKIE, 'stale|cookie');
		const res = await client.get('csrf');
		expect(res.status).toBe(404);
		expect(await res.text()).toBe('');
		const cookie = setCookies(res).find((c) => c.name === CSRF_COOKIE);
		expect(cookie).toMatchObject({ value: '', attributes: { 'max-age': '0' } });
		expect(client.jar.has(CSRF_COOKIE)).toBe(false);
		expect(s.warnings).toContain('csrf-disabled');
	});

	test('with skipCSRFCheck a credentials POST needs no token (the framework checked)', async () => {
		const client = setup({ skipCSRFCheck }).client();
		const res = await client.post('callback/credentials', { form: { ...ALICE_LOGIN } });
		expect(res.status).toBe(302);
		expect(sessionCookiesSet(res)).toEqual([SESSION_COOKIE]);
	});
});

describe('GET providers', () => {
	test('lists the client-safe view of each provider with absolute URLs', async () => {
		const res = await setup().client().get('providers');
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({
			credentials: {
				id: 'credentials',
				name: 'Credentials',
				type: 'credentials',
				signinUrl: `${ORIGIN}/auth/signin/credentials`,
				callbackUrl: `${ORIGIN}/auth/callback/credentials`
			}
		});
	});

	test('never exposes authorize() or field definitions', async () => {
		const text = await (await setup().client().get('providers')).text();
		expect(text).not.toContain('authorize');
		expect(text).not.toContain('password');
	});

	test('respects a custom basePath', async () => {
		const s = setup({ basePath: '/api/auth' });
		const client = s.client();
		const res = await client.get('/api/auth/providers');
		expect(res.status).toBe(200);
		const body = (await res.json()) as Record<string, { signinUrl: string }>;
		expect(body.credentials?.signinUrl).toBe(`${ORIGIN}/api/auth/signin/credentials`);
		expect((await client.get('/auth/providers')).status).toBe(400);
	});
});

describe('GET session', () => {
	test('without a cookie: 200 null, no-cache, a CSRF cookie minted, no session cookie', async () => {
		const res = await setup().client().get('session');
		expect(res.status).toBe(200);
		expectNoCache(res);
		expect(await res.json()).toBeNull();
		expect(setCookies(res).map((c) => c.name)).toEqual([CSRF_COOKIE]);
	});

	test('after sign-in: the default session (name, email, expires ~30 days)', async () => {
		const client = await signedIn(setup());
		const res = await client.get('session');
		expect(res.status).toBe(200);
		expectNoCache(res);
		const session = (await res.json()) as Session;
		expect(session.user).toEqual({ name: ALICE.name, email: ALICE.email });
		const expires = Date.parse(session.expires);
		expect(Math.abs(expires - (Date.now() + 30 * 24 * 3600 * 1000))).toBeLessThan(60_000);
		expect(Object.keys(session).sort()).toEqual(['expires', 'user']);
	});
});

describe('POST session (update)', () => {
	test('runs the jwt callback with trigger "update" and the data, answers and persists the new session', async () => {
		const calls: { trigger?: string; session?: unknown }[] = [];
		const s = setup({
			callbacks: {
				jwt: ({ token, trigger, session }) => {
					calls.push({ trigger, session });
					if (trigger === 'update' && session && typeof session === 'object' && 'name' in session) {
						return { ...token, name: String(session.name) };
					}
					return token;
				}
			}
		});
		const client = await signedIn(s);
		const csrfToken = await client.csrfToken();
		calls.length = 0;
		const res = await client.post('session', { json: { csrfToken, data: { name: 'Alicia' } } });
		expect(res.status).toBe(200);
		expect(calls).toEqual([{ trigger: 'update', session: { name: 'Alicia' } }]);
		const session = (await res.json()) as Session;
		expect(session.user).toEqual({ name: 'Alicia', email: ALICE.email });
		expect(sessionCookiesSet(res)).toEqual([SESSION_COOKIE]);
		expect(((await client.session()) as Session).user?.name).toBe('Alicia');
	});

	test('without a CSRF token: 400 null, the session untouched', async () => {
		const client = await signedIn(setup());
		const res = await client.post('session', { json: { data: { name: 'Mallory' } } });
		expect(res.status).toBe(400);
		expect(await res.json()).toBeNull();
		expect(sessionCookiesSet(res)).toEqual([]);
		expect(((await client.session()) as Session).user?.name).toBe(ALICE.name);
	});

	test('without a session: 200 null', async () => {
		const client = setup().client();
		const csrfToken = await client.csrfToken();
		const res = await client.post('session', { json: { csrfToken, data: {} } });
		expect(res.status).toBe(200);
		expect(await res.json()).toBeNull();
	});
});

describe('GET signin', () => {
	test('renders the built-in page: a CSRF-carrying form per credentials provider, anti-framing headers', async () => {
		const client = setup().client();
		const res = await client.get('signin');
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
		expect(res.headers.get('x-frame-options')).toBe('DENY');
		expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
		const html = await res.text();
		expect(html.startsWith('<!doctype html>')).toBe(true);
		expect(html).toContain(`action="${ORIGIN}/auth/callback/credentials"`);
		expect(html).toMatch(/<input[^>]*name="username"/);
		expect(html).toMatch(/<input[^>]*name="password"[^>]*type="password"|<input[^>]*type="password"[^>]*name="password"/);
		const token = hiddenInput(html, 'csrfToken');
		expect(token).toMatch(/^[0-9a-f]{64}$/);
		expect(client.cookie(CSRF_COOKIE)?.split('|')[0]).toBe(token);
		expect(hiddenInput(html, 'callbackUrl')).toBe(ORIGIN);
	});

	test('shows the message of a known error and carries a same-site callbackUrl', async () => {
		const res = await setup().client().get('signin', { query: { error: 'CredentialsSignin', callbackUrl: '/dashboard' } });
		const html = await res.text();
		expect(html).toContain('Sign in failed. Check the details you provided are correct.');
		expect(hiddenInput(html, 'callbackUrl')).toBe(`${ORIGIN}/dashboard`);
	});

	test('with pages.signIn: 302 there with callbackUrl, error and code', async () => {
		const res = await setup({ pages: { signIn: '/login' } })
			.client()
			.get('signin', { query: { callbackUrl: '/dashboard', error: 'CredentialsSignin', code: 'bad_otp' } });
		expect(res.status).toBe(302);
		const url = location(res);
		expect(url.origin + url.pathname).toBe(`${ORIGIN}/login`);
		expect(Object.fromEntries(url.searchParams)).toEqual({
			callbackUrl: `${ORIGIN}/dashboard`,
			error: 'CredentialsSignin',
			code: 'bad_otp'
		});
	});

	test('with pages.signIn and no error: only the callbackUrl', async () => {
		const res = await setup({ pages: { signIn: '/login' } }).client().get('signin');
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(`${ORIGIN}/login?callbackUrl=${encodeURIComponent(ORIGIN)}`);
	});
});

describe('POST signin', () => {
	test('without a provider: 302 to the sign-in page with the callbackUrl, callback-url cookie set', async () => {
		const client = setup().client();
		const res = await client.postForm('signin', { callbackUrl: '/after' });
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(`${ORIGIN}/auth/signin?callbackUrl=${encodeURIComponent(`${ORIGIN}/after`)}`);
		expect(client.cookie(CALLBACK_COOKIE)).toBe(`${ORIGIN}/after`);
	});

	test('for a credentials provider: 302 to the sign-in page (its form posts to the callback)', async () => {
		const res = await setup().client().postForm('signin/credentials');
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(`${ORIGIN}/auth/signin?callbackUrl=${encodeURIComponent(ORIGIN)}`);
		expect(sessionCookiesSet(res)).toEqual([]);
	});

	test('with pages.signIn: 302 to that page', async () => {
		const res = await setup({ pages: { signIn: '/login' } }).client().postForm('signin');
		expect(res.status).toBe(302);
		expect(location(res).pathname).toBe('/login');
	});

	test('without a CSRF token: 302 to signin?error=MissingCSRF', async () => {
		const res = await setup().client().post('signin', { form: { callbackUrl: '/x' } });
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(`${ORIGIN}/auth/signin?error=MissingCSRF`);
	});
});

describe('GET signout', () => {
	test('renders a confirmation page whose form posts the CSRF token to /signout', async () => {
		const client = setup().client();
		const res = await client.get('signout', { query: { callbackUrl: '/bye' } });
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
		const html = await res.text();
		expect(html).toMatch(new RegExp(`<form(?=[^>]*action="${ORIGIN}/auth/signout")(?=[^>]*method="post")`));
		expect(hiddenInput(html, 'csrfToken')).toBe(client.cookie(CSRF_COOKIE)?.split('|')[0]);
		expect(hiddenInput(html, 'callbackUrl')).toBe('/bye');
	});

	test('does not sign out (GET never changes state)', async () => {
		const client = await signedIn(setup());
		const res = await client.get('signout');
		expect(sessionCookiesCleared(res)).toEqual([]);
		expect(await client.session()).not.toBeNull();
	});

	test('with pages.signOut: 302 there', async () => {
		const res = await setup({ pages: { signOut: '/goodbye' } }).client().get('signout');
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(`${ORIGIN}/goodbye`);
	});
});

describe('POST signout', () => {
	test('clears the session cookie, redirects to callbackUrl, and the signOut event gets the token', async () => {
		const tokens: unknown[] = [];
		const s = setup({ events: { signOut: (message) => void tokens.push('token' in message ? message.token : 'no token') } });
		const client = await signedIn(s);
		const res = await client.postForm('signout', { callbackUrl: '/bye' });
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(`${ORIGIN}/bye`);
		const cleared = setCookies(res).find((c) => c.name === SESSION_COOKIE);
		expect(cleared).toMatchObject({ value: '', attributes: { 'max-age': '0', path: '/', httponly: true } });
		expect(client.jar.has(SESSION_COOKIE)).toBe(false);
		expect(await client.session()).toBeNull();
		expect(tokens).toHaveLength(1);
		expect(tokens[0]).toMatchObject({ sub: ALICE.id, name: ALICE.name, email: ALICE.email });
	});

	test('without a session: 302 to the origin, signOut event with a null token', async () => {
		const tokens: unknown[] = [];
		const s = setup({ events: { signOut: (message) => void tokens.push('token' in message ? message.token : 'no token') } });
		const res = await s.client().postForm('signout');
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(ORIGIN);
		expect(tokens).toEqual([null]);
	});
});

describe('GET error', () => {
	test.each([
		// 200, not Auth.js's 500: anyone can craft this link (hostile-input.security.test.ts).
		['Configuration', 200, 'Server error'],
		['AccessDenied', 403, 'Access denied'],
		['Verification', 403, 'Unable to sign in'],
		['CredentialsSignin', 200, 'Error'],
		['Default', 200, 'Error']
	])('error=%s answers %i', async (error, status, heading) => {
		const res = await setup().client().get('error', { query: { error } });
		expect(res.status).toBe(status);
		expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
		// (Svelte's hydration markers may surround the text.)
		expect(await res.text()).toMatch(new RegExp(`<h1[^>]*>(<!--[^>]*-->)*${heading}(<!--[^>]*-->)*</h1>`));
	});

	test('without an error parameter: 200', async () => {
		expect((await setup().client().get('error')).status).toBe(200);
	});

	test.each([
		'<script>alert(1)</script>',
		'"><img src=x onerror=alert(1)>',
		'Configuration<script>',
		'javascript:alert(1)',
		'x'.repeat(10_000)
	])('a hostile error value is never echoed: %s', async (error) => {
		const res = await setup().client().get('error', { query: { error } });
		expect(res.status).toBe(200);
		const html = await res.text();
		expect(html).not.toContain(error);
		expect(html).not.toContain('alert(1)');
		expect(html).not.toContain('onerror');
	});

	test('with pages.error: 302 there with an allow-listed error only', async () => {
		const s = setup({ pages: { error: '/oops' } });
		const ok = await s.client().get('error', { query: { error: 'AccessDenied' } });
		expect(ok.status).toBe(302);
		expect(ok.headers.get('location')).toBe(`${ORIGIN}/oops?error=AccessDenied`);
		const hostile = await s.client().get('error', { query: { error: '<script>' } });
		expect(hostile.status).toBe(302);
		expect(hostile.headers.get('location')).toBe(`${ORIGIN}/oops`);
	});
});

describe('GET verify-request', () => {
	test('renders the "check your email" page', async () => {
		const res = await setup().client().get('verify-request');
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
		const html = await res.text();
		expect(html).toContain('Check your email');
		expect(html).toContain('localhost:3000');
	});

	test('with pages.verifyRequest: 302 there with the query string', async () => {
		const res = await setup({ pages: { verifyRequest: '/check-email' } })
			.client()
			.get('verify-request', { query: { provider: 'email', type: 'email' } });
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(`${ORIGIN}/check-email?provider=email&type=email`);
	});
});

describe('unknown actions and methods', () => {
	test.each([
		['GET', 'nope'],
		['GET', 'webauthn'],
		['POST', 'csrf'],
		['POST', 'providers'],
		['POST', 'error'],
		['POST', 'verify-request'],
		['PUT', 'session'],
		['DELETE', 'session'],
		['PATCH', 'signin'],
		['OPTIONS', 'signin']
	])('%s %s → 400', async (method, action) => {
		const res = await setup().client().request(action, { method });
		expect(res.status).toBe(400);
		expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
		expect(await res.text()).toMatch(/^Bad request/);
	});
});

describe('X-Auth-Return-Redirect', () => {
	const header = { 'X-Auth-Return-Redirect': '1' };

	test('a redirect becomes 200 {url}, Set-Cookie preserved', async () => {
		const client = setup().client();
		const res = await client.postForm('signin', { callbackUrl: '/after' }, { headers: header });
		expect(res.status).toBe(200);
		expect(res.headers.get('location')).toBeNull();
		expect(res.headers.get('content-type')).toBe('application/json');
		expect(await res.json()).toEqual({ url: `${ORIGIN}/auth/signin?callbackUrl=${encodeURIComponent(`${ORIGIN}/after`)}` });
		expect(setCookies(res).map((c) => c.name)).toContain(CALLBACK_COOKIE);
	});

	test('a credentials sign-in answers {url: callbackUrl} and still sets the session cookie', async () => {
		const client = setup().client();
		const res = await client.signInWithCredentials('credentials', { ...ALICE_LOGIN, callbackUrl: '/home' }, { headers: header });
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({ url: `${ORIGIN}/home` });
		expect(sessionCookiesSet(res)).toEqual([SESSION_COOKIE]);
		expect(((await client.session()) as Session).user?.email).toBe(ALICE.email);
	});

	test('an error answers {url} of the sign-in page with the error', async () => {
		const res = await setup()
			.client()
			.signInWithCredentials('credentials', { username: 'alice', password: 'nope' }, { headers: header });
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({ url: `${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials` });
	});
});

describe('the raw marker', () => {
	test('Auth() returns the ResponseInternal of a JSON action', async () => {
		const s = setup();
		const res: ResponseInternal = await Auth(new Request(`${ORIGIN}/auth/providers`), { ...s.config, raw });
		expect(res).not.toBeInstanceOf(Response);
		expect(res.redirect).toBeUndefined();
		expect(res.body).toMatchObject({ credentials: { id: 'credentials', type: 'credentials' } });
	});

	test('Auth() returns redirect and cookies unserialized', async () => {
		const s = setup();
		const client = s.client();
		const csrfToken = await client.csrfToken();
		const request = new Request(`${ORIGIN}/auth/callback/credentials`, {
			method: 'POST',
			headers: { cookie: client.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ csrfToken, ...ALICE_LOGIN, callbackUrl: '/x' }).toString()
		});
		const res = await Auth(request, { ...s.config, raw });
		expect(res.redirect).toBe(`${ORIGIN}/x`);
		const session = res.cookies?.find((c) => c.name === SESSION_COOKIE);
		expect(session?.value.split('.')).toHaveLength(5);
		expect(session?.options).toMatchObject({ httpOnly: true, sameSite: 'lax', path: '/' });
	});

	test('errors are raw too', async () => {
		const res = await Auth(new Request(`${ORIGIN}/auth/nope`), { ...setup().config, raw });
		expect(res.status).toBe(400);
	});
});

describe('Set-Cookie attributes of the session cookie', () => {
	test('HttpOnly, SameSite=Lax, Path=/, Expires ~30 days, no Domain; Secure and __Host- on https', async () => {
		for (const origin of [ORIGIN, 'https://app.example']) {
			const secure = origin.startsWith('https:');
			const res = await setup().client(origin).signInWithCredentials('credentials', { ...ALICE_LOGIN });
			const header = res.headers.getSetCookie().find((h) => h.startsWith(`${secure ? '__Host-' : ''}${SESSION_COOKIE}=`));
			expect(header).toBeDefined();
			const cookie = parseSetCookie(header!);
			expect(cookie.attributes).toMatchObject({ path: '/', httponly: true, samesite: 'Lax' });
			expect(cookie.attributes.domain).toBeUndefined();
			expect(cookie.attributes.secure).toBe(secure ? true : undefined);
			const expires = Date.parse(cookie.attributes.expires as string);
			expect(Math.abs(expires - (Date.now() + 30 * 24 * 3600 * 1000))).toBeLessThan(60_000);
		}
	});
});
