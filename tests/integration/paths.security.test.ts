/**
 * Path and method attacks: traversal, malformed escapes, extra segments, overlong or odd provider
 * ids, unsupported methods. Each is answered (400, or the Configuration redirect for an unknown
 * provider), never with a 500, never with a session.
 */
import { describe, expect, test } from 'vitest';
import { ALICE_LOGIN, ORIGIN, expectNoSessionGranted, location, setup, signedIn } from './fixtures.js';

async function request(path: string, init: RequestInit = {}): Promise<Response> {
	const s = setup();
	return s.handler(new Request(`${ORIGIN}${path}`, init));
}

describe('paths', () => {
	test.each([
		'/auth',
		'/auth/',
		'/authsession',
		'/auth2/session',
		'/other/session',
		'/',
		'/auth/nope',
		'/auth/signin/a/b/c',
		'/auth/callback/credentials/extra',
		'/auth/session/extra',
		'/auth/csrf/credentials',
		'/auth/providers/x',
		'/auth/error/x',
		'/auth/signout/credentials',
		'/auth/callback/%ZZ',
		'/auth/signin/%E0%A4%A',
		'/auth/%73ession',
		'/auth/session%00',
		'/auth/SESSION',
		'/auth/__proto__',
		'/auth/constructor',
		'/auth/hasOwnProperty',
		'/auth/toString/x'
	])('GET %s → 400', async (path) => {
		const res = await request(path);
		expect(res.status).toBe(400);
		expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
		await expectNoSessionGranted(res);
	});

	test.each(['/auth/../auth/session', '/auth/./session', '/x/../auth/session', '/auth//session//', '/auth/%2e%2e/auth/session'])(
		'GET %s is normalised to the session endpoint: 200 null',
		async (path) => {
			const res = await request(path);
			expect(res.status).toBe(200);
			expect(await res.json()).toBeNull();
		}
	);

	test('/auth/../secret/session leaves the base path: 400', async () => {
		expect((await request('/auth/../secret/session')).status).toBe(400);
	});

	test.each([
		['an overlong id', 'a'.repeat(10_000)],
		['an id with an encoded slash', 'credentials%2F..%2F..%2Fsession'],
		['__proto__', '__proto__'],
		['constructor', 'constructor'],
		['an encoded NUL', 'credentials%00'],
		['a different case', 'Credentials'],
		['markup', '%3Cscript%3Ealert(1)%3C%2Fscript%3E']
	])('POST callback/<%s> with a valid CSRF token: 4xx, id not echoed', async (_name, id) => {
		const client = setup().client();
		const res = await client.postForm(`callback/${id}`, { ...ALICE_LOGIN });
		expect([400, 404]).toContain(res.status);
		expect(await res.clone().text()).not.toMatch(/script|aaaa|Credentials|credentials%00/);
		await expectNoSessionGranted(res);
	});

	test.each([
		['an overlong id', 'a'.repeat(10_000)],
		['markup', '%3Cscript%3Ealert(1)%3C%2Fscript%3E'],
		['credentials', 'credentials']
	])('GET signin/<%s>: back to the sign-in page, id not echoed', async (_name, id) => {
		const res = await setup().client().get(`signin/${id}`);
		expect(res.status).toBe(302);
		const url = location(res);
		expect(url.origin + url.pathname).toBe(`${ORIGIN}/auth/signin`);
		expect(res.headers.get('location')).not.toContain('script');
		expect(res.headers.get('location')!.length).toBeLessThan(200);
	});

	test('GET callback without a provider, or with an unknown one: 4xx, not a 500 error page', async () => {
		const client = setup().client();
		expect((await client.get('callback')).status).toBe(400);
		const unknown = await client.get('callback/nope?code=x&state=y');
		expect(unknown.status).toBe(404);
		expect(await unknown.text()).toBe('Bad request: no such provider');
	});

	test('a 64 KB path answers 400', async () => {
		const res = await request(`/auth/${'x'.repeat(64 * 1024)}`);
		expect(res.status).toBe(400);
	});

	test('a hostile query string on every GET action is harmless', async () => {
		const query = `?${'a'.repeat(5000)}=%ZZ&callbackUrl=%&error=%&&&=&__proto__=1&constructor=2`;
		for (const action of ['csrf', 'providers', 'session', 'signin', 'signout', 'error', 'verify-request']) {
			const res = await request(`/auth/${action}${query}`);
			expect(res.status, action).toBeLessThan(500);
			await expectNoSessionGranted(res);
		}
	});
});

describe('methods', () => {
	// HEAD is answered on the pages as their GET (hostile-input.security.test.ts), refused elsewhere.
	test.each(['PUT', 'DELETE', 'OPTIONS', 'PATCH', 'PROPFIND'])('%s on every action → 400', async (method) => {
		for (const action of ['session', 'signin', 'signout', 'csrf', 'callback/credentials', 'providers']) {
			const res = await request(`/auth/${action}`, { method });
			expect(res.status, `${method} ${action}`).toBe(400);
			await expectNoSessionGranted(res);
		}
	});

	test('a lower-case "get" is normalised by fetch to GET and served', async () => {
		const res = await request('/auth/session', { method: 'get' });
		expect(res.status).toBe(200);
		expect(await res.json()).toBeNull();
	});

	test('a signed-in user hitting DELETE /session keeps the session (no state change)', async () => {
		const s = setup();
		const client = await signedIn(s);
		const res = await client.request('session', { method: 'DELETE' });
		expect(res.status).toBe(400);
		expect(await client.session()).not.toBeNull();
	});
});
