/**
 * Cross-site POSTs carrying a *valid* CSRF token and cookie (the token can leak; the Origin cannot
 * be forged by a browser): a foreign or opaque Origin, or `Sec-Fetch-Site: cross-site`, is 403
 * on every state-changing action, whatever the content type, and changes nothing.
 */
import { describe, expect, test } from 'vitest';
import type { Session } from '../../src/lib/core/types.js';
import type { TestClient } from '../support/client.js';
import { ALICE, ALICE_LOGIN, ORIGIN, expectNoSessionGranted, sessionCookiesCleared, setup, signedIn } from './fixtures.js';

const ACTIONS = ['signin', 'signout', 'session', 'callback/credentials'] as const;
type Action = (typeof ACTIONS)[number];

/** A POST built by hand (so Origin can be absent), with the client's cookies. */
async function post(
	client: TestClient,
	action: Action,
	headers: Record<string, string>,
	kind: 'form' | 'json' | 'text'
): Promise<Response> {
	const csrfToken = await client.csrfToken();
	const fields = { csrfToken, ...ALICE_LOGIN, callbackUrl: '/x' };
	const data = action === 'session' ? { csrfToken, data: { name: 'Mallory' } } : fields;
	const body = kind === 'json' ? JSON.stringify(data) : new URLSearchParams(fields).toString();
	const type = { form: 'application/x-www-form-urlencoded', json: 'application/json', text: 'text/plain' }[kind];
	const res = await client.handler(
		new Request(client.url(action), {
			method: 'POST',
			headers: { cookie: client.cookieHeader(), 'content-type': type, ...headers },
			body
		})
	);
	client.store(res);
	return res;
}

const HOSTILE: [string, Record<string, string>][] = [
	['Origin: https://evil.example', { origin: 'https://evil.example' }],
	['Origin: null (sandboxed frame, data: URL)', { origin: 'null' }],
	['Origin on another port', { origin: 'http://localhost:3001' }],
	['Origin on another scheme', { origin: 'https://localhost:3000' }],
	['Origin with our host as a prefix', { origin: 'http://localhost:3000.evil.example' }],
	['Sec-Fetch-Site: cross-site without Origin', { 'sec-fetch-site': 'cross-site' }],
	['a foreign Origin claiming Sec-Fetch-Site: same-origin', { origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' }],
	['our Origin but Sec-Fetch-Site: cross-site', { origin: ORIGIN, 'sec-fetch-site': 'cross-site' }]
];

describe.each(ACTIONS)('POST %s', (action) => {
	describe.each(['form', 'json', 'text'] as const)('as %s', (kind) => {
		test.each(HOSTILE)('%s → 403, nothing changes', async (_name, headers) => {
			const client = await signedIn(setup());
			const before = client.cookieHeader();
			const res = await post(client, action, headers, kind);
			expect(res.status).toBe(403);
			expect(res.headers.get('location')).toBeNull();
			expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
			await expectNoSessionGranted(res);
			expect(sessionCookiesCleared(res)).toEqual([]);
			expect(client.cookieHeader()).toBe(before);
			const session = (await client.session()) as Session;
			expect(session.user).toEqual({ name: ALICE.name, email: ALICE.email });
		});
	});

	test('a cross-site login attempt by a signed-out visitor gets no session', async () => {
		const client = setup().client();
		const res = await post(client, action, { origin: 'https://evil.example' }, 'form');
		expect(res.status).toBe(403);
		await expectNoSessionGranted(res);
		expect(await client.session()).toBeNull();
	});
});

describe('same-site requests still work (controls)', () => {
	test.each([
		['our Origin', { origin: ORIGIN }],
		['no Origin, no Sec-Fetch-Site (a server-side client)', {}],
		['Sec-Fetch-Site: same-origin', { origin: ORIGIN, 'sec-fetch-site': 'same-origin' }],
		['Sec-Fetch-Site: none (typed by the user)', { 'sec-fetch-site': 'none' }]
	])('%s: the credentials sign-in succeeds', async (_name, headers) => {
		const client = setup().client();
		const res = await post(client, 'callback/credentials', headers, 'form');
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(`${ORIGIN}/x`);
		expect(((await client.session()) as Session).user?.email).toBe(ALICE.email);
	});

	test('with AUTH_URL set, both its origin and the request origin are same-site', async () => {
		const s = setup({}, undefined, { AUTH_URL: 'https://app.example' });
		for (const origin of ['https://app.example', ORIGIN]) {
			const client = s.client();
			const res = await post(client, 'callback/credentials', { origin }, 'form');
			expect(res.status).toBe(302);
			expect(res.headers.get('location')).toBe('https://app.example/x');
		}
	});
});
