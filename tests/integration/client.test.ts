/**
 * `kitauth/client` (signIn/signOut in the browser) against the real `Auth()`: `window` is a
 * stand-in holding the page's location, and `fetch` resolves URLs against it and goes through a
 * cookie jar to the handler, as a browser's would. (The demo's /client page runs it in Chromium:
 * tests/e2e/client.e2e.ts.)
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { signIn, signOut } from '../../src/lib/client/index.js';
import type { OAuthConfig } from '../../src/lib/core/types.js';
import { ALICE_LOGIN, ORIGIN, SESSION_COOKIE, type Setup, setup, signedIn } from './fixtures.js';
import type { TestClient } from '../support/client.js';

const PAGE = `${ORIGIN}/somewhere?tab=2`;

const idp: OAuthConfig = {
	id: 'idp',
	name: 'IdP',
	type: 'oauth',
	authorization: 'https://idp.example/authorize',
	token: 'https://idp.example/token',
	userinfo: 'https://idp.example/userinfo',
	clientId: 'client-1',
	clientSecret: 'secret-1'
};

interface Browser {
	location: { href: string; reloads: number; reload(): void };
	/** `METHOD /path` of every request the client made. */
	requests: string[];
}

/** Puts a browser stand-in on `client` (its jar, its handler) at `page`. */
function browserAt(client: TestClient, page = PAGE): Browser {
	const location = {
		href: page,
		reloads: 0,
		reload() {
			this.reloads++;
		}
	};
	const requests: string[] = [];
	vi.stubGlobal('window', { location });
	vi.stubGlobal('fetch', (input: string | URL, init: RequestInit = {}) => {
		const url = new URL(String(input), location.href);
		const method = init.method ?? 'GET';
		requests.push(`${method} ${url.pathname}`);
		return client.request(url.href, { method, headers: Object.fromEntries(new Headers(init.headers)), body: init.body ?? undefined });
	});
	return { location, requests };
}

function app(overrides: Parameters<typeof setup>[0] = {}): Setup {
	const s = setup(overrides);
	s.config.providers.push(idp);
	return s;
}

afterEach(() => {
	vi.unstubAllGlobals();
});

describe('signIn', () => {
	test('credentials with redirect: false: signed in, told where to go, and the page stays', async () => {
		const client = app().client();
		const browser = browserAt(client);
		const result = await signIn('credentials', { ...ALICE_LOGIN, redirectTo: '/after', redirect: false });
		expect(result).toEqual({ ok: true, url: `${ORIGIN}/after`, error: null, code: null });
		expect(client.jar.has(SESSION_COOKIE)).toBe(true);
		expect(browser.location.href).toBe(PAGE);
		expect(browser.requests).toEqual(['GET /auth/providers', 'GET /auth/csrf', 'POST /auth/callback/credentials']);
	});

	test('a refused password: ok false with the error and its code, no session', async () => {
		const client = app().client();
		browserAt(client);
		const result = await signIn('credentials', { username: 'alice', password: 'wrong', redirect: false });
		expect(result).toMatchObject({ ok: false, error: 'CredentialsSignin', code: 'credentials' });
		expect(client.jar.has(SESSION_COOKIE)).toBe(false);
	});

	test('by default the browser goes where the server says (the page itself by default)', async () => {
		const browser = browserAt(app().client());
		const result = await signIn('credentials', { ...ALICE_LOGIN });
		expect(result.url).toBe(PAGE);
		expect(browser.location.href).toBe(PAGE);
	});

	test('a landing URL with a fragment also reloads (setting only a fragment would not load the page)', async () => {
		const browser = browserAt(app().client());
		await signIn('credentials', { ...ALICE_LOGIN, redirectTo: '/after#top' });
		expect(browser.location.href).toBe(`${ORIGIN}/after#top`);
		expect(browser.location.reloads).toBe(1);
	});

	test('OAuth: posts to signin/<id> and goes to the provider, authorizationParams included', async () => {
		const client = app().client();
		const browser = browserAt(client);
		await signIn('idp', { redirectTo: '/after' }, { prompt: 'login' });
		const target = new URL(browser.location.href);
		expect(`${target.origin}${target.pathname}`).toBe('https://idp.example/authorize');
		expect(target.searchParams.get('client_id')).toBe('client-1');
		expect(target.searchParams.get('prompt')).toBe('login');
		expect(target.searchParams.get('state')).toBeTruthy();
		expect(browser.requests.at(-1)).toBe('POST /auth/signin/idp');
	});

	test.each([['no provider', undefined], ['an unknown provider', 'nope'], ['an inherited name', 'toString']])(
		'%s: the sign-in page, with this page to come back to, and nothing posted',
		async (_name, provider) => {
			const browser = browserAt(app().client());
			const result = await signIn(provider, { username: 'alice' });
			expect(result.ok).toBe(false);
			expect(browser.location.href).toBe(`/auth/signin?${new URLSearchParams({ callbackUrl: PAGE })}`);
			expect(browser.requests.filter((request) => request.startsWith('POST'))).toEqual([]);
		}
	);

	test('basePath finds endpoints the server moved', async () => {
		const client = app({ basePath: '/api/auth' }).client();
		const browser = browserAt(client);
		const result = await signIn('credentials', { ...ALICE_LOGIN, basePath: '/api/auth', redirect: false });
		expect(result.ok).toBe(true);
		expect(browser.requests).toContain('POST /api/auth/callback/credentials');
	});

	test('an endpoint that fails: the promise rejects, saying which', async () => {
		browserAt(app().client());
		await expect(signIn('credentials', { ...ALICE_LOGIN, basePath: '/not-auth' })).rejects.toThrow(/GET providers answered 404|answered 4\d\d/);
	});
});

describe('signOut', () => {
	test('ends the session and goes to redirectTo', async () => {
		const s = app();
		const client = await signedIn(s);
		const browser = browserAt(client);
		const { url } = await signOut({ redirectTo: '/bye' });
		expect(url).toBe(`${ORIGIN}/bye`);
		expect(browser.location.href).toBe(url);
		expect(client.jar.has(SESSION_COOKIE)).toBe(false);
		expect(await client.session()).toBeNull();
	});

	test('with redirect: false the page stays', async () => {
		const client = await signedIn(app());
		const browser = browserAt(client);
		await signOut({ redirect: false });
		expect(browser.location.href).toBe(PAGE);
		expect(client.jar.has(SESSION_COOKIE)).toBe(false);
	});
});
