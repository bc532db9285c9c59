/**
 * Input never makes a 5xx (or a session): the error page answers 403 or 200 for any `?error=`
 * value (a crafted link is not a server error — Auth.js answers 500 for `Configuration`, kitauth
 * 200); hostile `X-Forwarded-Proto`, `X-Forwarded-Host`, `Host` and `Forwarded` headers; and `HEAD`
 * on every page, answered as its GET without a body (Auth.js answers 400).
 */
import { describe, expect, test } from 'vitest';
import { createActionURL } from '../../src/lib/core/index.js';
import { InvalidRequest } from '../../src/lib/core/errors.js';
import { ERROR_PAGES, SIGNIN_MESSAGES } from '../../src/lib/shared/messages.js';
import { ROUTES } from '../../src/lib/core/router.js';
import { setCookies } from '../support/client.js';
import { expectNoSessionGranted, ORIGIN, setup, signedIn } from './fixtures.js';

const HOSTILE_ERRORS = [
	...Object.keys(ERROR_PAGES),
	...Object.keys(SIGNIN_MESSAGES),
	'OAuthSignin',
	'Unavailable',
	'',
	'constructor',
	'__proto__',
	'toString',
	'<script>alert(1)</script>',
	'%00',
	'x'.repeat(10_000)
];

describe('the error page never answers a 5xx for its ?error= value', () => {
	test.each(HOSTILE_ERRORS.map((e) => [e.slice(0, 40), e]))('?error=%s', async (_label, error) => {
		const s = setup();
		const res = await s.client().get('error', { query: { error } });
		expect([200, 403]).toContain(res.status);
		expect(res.headers.get('content-type')).toContain('text/html');
		await expectNoSessionGranted(res);
	});

	test('Configuration and OAuthSignin are 200, AccessDenied and Verification 403 (documented choice)', async () => {
		const s = setup();
		const status = async (error: string) => (await s.client().get('error', { query: { error } })).status;
		expect(await status('Configuration')).toBe(200);
		expect(await status('OAuthSignin')).toBe(200);
		expect(await status('AccessDenied')).toBe(403);
		expect(await status('Verification')).toBe(403);
	});

	test('with a signed-in browser too: no 5xx, and the session is untouched', async () => {
		const s = setup();
		const client = await signedIn(s);
		for (const error of ['Configuration', 'OAuthSignin']) {
			const res = await client.get('error', { query: { error } });
			expect(res.status).toBe(200);
			expect(setCookies(res).filter((c) => c.name.includes('session-token'))).toEqual([]);
		}
		expect(await client.session()).toMatchObject({ user: { email: 'alice@example.com' } });
	});
});

/** Page and JSON actions a hostile header could reach, with the methods they take. */
const REQUESTS: [string, string][] = [
	['GET', 'signin'],
	['GET', 'signout'],
	['GET', 'error?error=Configuration'],
	['GET', 'verify-request'],
	['GET', 'session'],
	['GET', 'csrf'],
	['GET', 'providers'],
	['POST', 'signin/credentials'],
	['POST', 'callback/credentials']
];

const HOSTILE_HEADERS: Record<string, string>[] = [
	{ 'x-forwarded-proto': 'javascript' },
	{ 'x-forwarded-proto': 'https, http, %%%' },
	{ 'x-forwarded-proto': '' },
	{ 'x-forwarded-host': 'evil.example/path?x' },
	{ 'x-forwarded-host': '[::1' },
	{ 'x-forwarded-host': 'a'.repeat(5000) },
	{ 'x-forwarded-host': 'evil.example, app.example' },
	{ host: 'bad host name' },
	{ host: '[zz]:99999' },
	{ forwarded: 'for="[::1"; proto=javascript; host=evil' },
	{ forwarded: 'for=' + 'x,'.repeat(2000) },
	{ forwarded: '\u0000' },
	{ 'x-forwarded-for': '999.999.999.999, ::ffff:zz' }
];

describe('hostile forwarded headers: an answer below 500, never a session', () => {
	test.each(HOSTILE_HEADERS.map((h) => [JSON.stringify(h).slice(0, 60), h]))('%s', async (_label, headers) => {
		// The limiter on, reading forwarded headers as declared: the attacker's favourite parser.
		for (const clientAddress of [undefined, { header: 'x-forwarded-for' }, { header: 'forwarded', depth: 2 }]) {
			const s = setup({ rateLimit: { enabled: true, ...(clientAddress ? { clientAddress } : {}) } });
			const client = s.client();
			for (const [method, path] of REQUESTS) {
				let res: Response;
				try {
					res = method === 'POST'
						? await client.postForm(path, { username: 'alice', password: 'wrong' }, { headers })
						: await client.get(path, { headers });
				} catch (error) {
					// Header values the platform's own Headers refuse never reach a server.
					expect(error, `${method} ${path}`).toBeInstanceOf(TypeError);
					continue;
				}
				expect(res.status, `${method} ${path}`).toBeLessThan(500);
				await expectNoSessionGranted(res);
			}
			expect(s.errors.filter((e) => !['CredentialsSignin'].includes(e.name))).toEqual([]);
		}
	});

	test('createActionURL(): a hostile forwarded protocol or host falls back to the next source, never throws a TypeError', () => {
		const env = {};
		const url = (headers: Record<string, string>, protocol = 'http') =>
			createActionURL('signin', protocol, new Headers(headers), env, {}).href;
		expect(url({ host: 'app.example', 'x-forwarded-proto': 'javascript' })).toBe('http://app.example/auth/signin');
		expect(url({ host: 'app.example', 'x-forwarded-proto': 'HTTPS, http' })).toBe('https://app.example/auth/signin');
		expect(url({ host: 'app.example:8443', 'x-forwarded-host': 'evil.example/x?y' })).toBe('http://app.example:8443/auth/signin');
		expect(url({ host: 'app.example', 'x-forwarded-host': 'edge.example, proxy.internal' })).toBe('http://edge.example/auth/signin');
		expect(url({ host: '[::1]:3000' }, 'gopher')).toBe('https://[::1]:3000/auth/signin');
		expect(() => url({ host: 'bad host' })).toThrow(InvalidRequest);
		expect(() => url({})).toThrow(InvalidRequest);
		// AUTH_URL wins over every header.
		const configured = createActionURL('signin', 'http', new Headers({ host: 'evil', 'x-forwarded-host': 'evil' }), { AUTH_URL: 'https://app.example' }, {});
		expect(configured.href).toBe('https://app.example/auth/signin');
	});
});

describe('HEAD on every page action answers like GET, without a body', () => {
	const pages = Object.entries(ROUTES)
		.filter(([key, route]) => key.startsWith('GET ') && route.errors === 'page')
		.map(([key]) => key.slice(4));

	test('the route table marks every GET page (and nothing else) as answering HEAD', () => {
		expect(pages.sort()).toEqual(['callback', 'confirm-email', 'error', 'forgot-password', 'reset-password', 'signin', 'signout', 'signup', 'two-factor', 'verify-email', 'verify-request']);
		for (const [key, route] of Object.entries(ROUTES)) expect(route.head === true, key).toBe(pages.includes(key.slice(4)) && key.startsWith('GET '));
	});

	test.each([
		['signin', 200],
		['signout', 200],
		['error?error=Configuration', 200],
		['error?error=AccessDenied', 403],
		['verify-request', 200],
		['callback/credentials', 400],
		['callback/nope', 404],
		['reset-password/credentials', 404],
		['verify-email/credentials', 404],
		['confirm-email/credentials', 404],
		['signup/credentials', 404],
		['forgot-password/credentials', 404]
	])('HEAD %s → %i, the GET headers, no body', async (path, status) => {
		const s = setup();
		const get = await s.client().get(path);
		const head = await s.client().request(path, { method: 'HEAD' });
		expect(get.status).toBe(status);
		expect(head.status).toBe(get.status);
		expect(await head.text()).toBe('');
		for (const name of ['content-type', 'cache-control', 'content-security-policy', 'x-frame-options', 'location']) {
			expect(head.headers.get(name), name).toBe(get.headers.get(name));
		}
	});

	test('HEAD on a JSON action is refused as before (400), no body', async () => {
		const s = setup();
		for (const path of ['session', 'csrf', 'providers']) {
			const res = await s.client().request(path, { method: 'HEAD' });
			expect(res.status, path).toBe(400);
			expect(await res.text()).toBe('');
		}
	});

	test('with a custom sign-in page, HEAD /signin redirects like GET', async () => {
		const s = setup({ pages: { signIn: '/login' } });
		const res = await s.client().request('signin', { method: 'HEAD' });
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(`${ORIGIN}/login?callbackUrl=${encodeURIComponent(ORIGIN)}`);
	});
});
