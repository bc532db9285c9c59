/**
 * callbackUrl attacks (GHSA-f9wg-5f46-cjmw open redirect, CVE-2022-31093 malformed-URL DoS): from
 * the body, the query or the callback-url cookie, every redirect stays on our origin, nothing
 * answers 500, and a hostile value left in the cookie does not break later requests.
 */
import { describe, expect, test } from 'vitest';
import { setCookies } from '../support/client.js';
import type { TestClient } from '../support/client.js';
import { ALICE_LOGIN, CALLBACK_COOKIE, ORIGIN, expectNoSessionGranted, location, setup } from './fixtures.js';

const HOSTILE = [
	'https://evil.example',
	'https://evil.example/path?next=/',
	'HTTPS://EVIL.EXAMPLE',
	'//evil.example',
	'///evil.example',
	'/\\evil.example',
	'\\\\evil.example',
	'\\/evil.example',
	'/\t/evil.example',
	' //evil.example',
	'https:/\\evil.example',
	'http:evil.example',
	'http://localhost:3000@evil.example/',
	'http://localhost:3000.evil.example/',
	'https://localhost:3000/',
	'http://localhost:3001/',
	'javascript:alert(1)',
	'JaVaScRiPt:alert(1)',
	'data:text/html,<script>alert(1)</script>',
	'ftp://evil.example/',
	'http://[',
	'http://[::1',
	'https://',
	'\u0000',
	'%',
	'x'.repeat(10 * 1024),
	`/${'a'.repeat(10 * 1024)}`,
	`https://evil.example/${'a'.repeat(10 * 1024)}`
];

const label = (value: string) => JSON.stringify(value.length > 60 ? `${value.slice(0, 40)}…(${value.length})` : value);

/** Every absolute URL a response points to must be on our origin. */
function expectOnOrigin(url: string | URL): void {
	const parsed = new URL(url);
	expect(parsed.origin).toBe(ORIGIN);
	const inner = parsed.searchParams.get('callbackUrl');
	if (inner !== null) expect(new URL(inner).origin).toBe(ORIGIN);
}

function expectCallbackCookieOnOrigin(res: Response): void {
	for (const cookie of setCookies(res).filter((c) => c.name === CALLBACK_COOKIE)) {
		if (cookie.value) expect(new URL(decodeURIComponent(cookie.value)).origin).toBe(ORIGIN);
	}
}

type Where = 'body' | 'query' | 'cookie';

async function attack(client: TestClient, where: Where, value: string, path: string, form: Record<string, string> = {}) {
	if (where === 'cookie') client.setCookie(CALLBACK_COOKIE, value);
	const csrfToken = await client.csrfToken();
	return client.post(path, {
		form: { csrfToken, ...form, ...(where === 'body' ? { callbackUrl: value } : {}) },
		query: where === 'query' ? { callbackUrl: value } : undefined
	});
}

describe.each(['body', 'query', 'cookie'] as const)('callbackUrl in the %s', (where) => {
	test.each(HOSTILE.map((value) => [label(value), value]))('%s stays on our origin everywhere', async (_label, value) => {
		const s = setup();

		const signin = await attack(s.client(), where, value, 'signin');
		expect(signin.status).toBe(302);
		expectOnOrigin(location(signin));
		expectCallbackCookieOnOrigin(signin);

		const signout = await attack(s.client(), where, value, 'signout');
		expect(signout.status).toBe(302);
		expectOnOrigin(location(signout));
		expectCallbackCookieOnOrigin(signout);

		const client = s.client();
		const credentials = await attack(client, where, value, 'callback/credentials', { ...ALICE_LOGIN });
		expect(credentials.status).toBe(302);
		expectOnOrigin(location(credentials));
		expectCallbackCookieOnOrigin(credentials);

		const refused = await attack(s.client(), where, value, 'callback/credentials', { username: 'x', password: 'y' });
		expect(refused.status).toBe(302);
		expectOnOrigin(location(refused));

		// The same client keeps working afterwards.
		expect((await client.get('session')).status).toBe(200);
		expect((await client.get('signin')).status).toBe(200);
	});
});

describe('GET signin with a hostile callbackUrl', () => {
	test.each(HOSTILE.map((value) => [label(value), value]))('%s: the page carries our origin only', async (_label, value) => {
		const client = setup().client();
		const res = await client.get('signin', { query: { callbackUrl: value } });
		expect(res.status).toBe(200);
		const html = await res.text();
		const carried = /name="callbackUrl" value="([^"]*)"/.exec(html)?.[1];
		expect(carried).toBeDefined();
		expectOnOrigin(carried!);
		expect(html).not.toContain('evil.example');
		expect(html).not.toContain('alert(1)');
		expectCallbackCookieOnOrigin(res);
	});

	test.each(HOSTILE.map((value) => [label(value), value]))('%s with pages.signIn: the redirect stays on our origin', async (_label, value) => {
		const res = await setup({ pages: { signIn: '/login' } }).client().get('signin', { query: { callbackUrl: value } });
		expect(res.status).toBe(302);
		expectOnOrigin(location(res));
	});
});

describe('X-Auth-Return-Redirect with a hostile callbackUrl', () => {
	test.each(HOSTILE.map((value) => [label(value), value]))('%s: {url} stays on our origin', async (_label, value) => {
		const client = setup().client();
		const csrfToken = await client.csrfToken();
		const res = await client.post('callback/credentials', {
			form: { csrfToken, ...ALICE_LOGIN, callbackUrl: value },
			headers: { 'X-Auth-Return-Redirect': '1' }
		});
		expect(res.status).toBe(200);
		const { url } = (await res.json()) as { url: string };
		expectOnOrigin(url);
	});
});

describe('a hostile value sitting in the callback-url cookie (the reference answers 500 here)', () => {
	const RAW = ['http://[', 'http%3A%2F%2F%5B', '%', 'javascript:alert(1)', '//evil.example', 'x'.repeat(10 * 1024)];

	test.each(RAW.map((value) => [label(value), value]))('raw cookie %s: every later request still answers', async (_label, value) => {
		const s = setup();
		const cookie = `${CALLBACK_COOKIE}=${value}`;
		for (const path of ['session', 'csrf', 'providers', 'signin', 'signout', 'error', 'verify-request']) {
			const res = await s.client().get(path, { headers: { cookie } });
			expect(res.status, path).toBeLessThan(500);
			await expectNoSessionGranted(res);
		}
		const res = await s.client().post('signin', { form: {}, headers: { cookie } });
		expect(res.status).toBe(302);
		expectOnOrigin(location(res));
	});

	test('the server replaces the hostile cookie with our origin on the next sign-in step', async () => {
		const client = setup().client();
		client.setCookie(CALLBACK_COOKIE, 'http://[');
		const res = await client.get('signin');
		expect(res.status).toBe(200);
		expect(client.cookie(CALLBACK_COOKIE)).toBe(ORIGIN);
	});
});

describe('the signOut page echoes a callbackUrl only escaped', () => {
	test('markup in callbackUrl is not injected', async () => {
		const value = '"><script>alert(1)</script><input value="';
		const res = await setup().client().get('signout', { query: { callbackUrl: value } });
		expect(res.status).toBe(200);
		const html = await res.text();
		expect(html).not.toContain('<script>alert(1)</script>');
		expect(html).toContain('&lt;script>alert(1)&lt;/script>');
	});
});
