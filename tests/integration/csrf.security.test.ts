/**
 * The double-submit CSRF token on every state-changing POST: sign-in, sign-out, session update and
 * the credentials callback. A missing or wrong token is `MissingCSRF` (302 to the sign-in page),
 * or 400 `null` for the session update, and changes nothing.
 */
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import type { Session } from '../../src/lib/core/types.js';
import type { TestClient } from '../support/client.js';
import {
	ALICE,
	ALICE_LOGIN,
	CSRF_COOKIE,
	ORIGIN,
	SECRET,
	expectNoSessionGranted,
	passwordProvider,
	sessionCookiesCleared,
	setup,
	signedIn
} from './fixtures.js';

const ACTIONS = ['signin', 'signout', 'session', 'callback/credentials'] as const;
type Action = (typeof ACTIONS)[number];

function signed(token: string, secret = SECRET): string {
	return `${token}|${createHash('sha256').update(token + secret).digest('hex')}`;
}

function send(client: TestClient, action: Action, csrfToken: unknown): Promise<Response> {
	if (action === 'session') return client.post('session', { json: { csrfToken, data: { name: 'Mallory' } } });
	const form: Record<string, string> = { ...ALICE_LOGIN, callbackUrl: '/x' };
	if (typeof csrfToken === 'string') form.csrfToken = csrfToken;
	return client.post(action, { form });
}

async function expectRefused(res: Response, action: Action): Promise<void> {
	if (action === 'session') {
		expect(res.status).toBe(400);
		expect(await res.json()).toBeNull();
		return;
	}
	expect(res.status).toBe(302);
	expect(res.headers.get('location')).toBe(`${ORIGIN}/auth/signin?error=MissingCSRF`);
	await expectNoSessionGranted(res);
	expect(sessionCookiesCleared(res)).toEqual([]);
}

/** Each case: prepare the client's CSRF cookie, return the token the attacker posts. */
const CASES: [string, (client: TestClient) => Promise<unknown>][] = [
	['no token in the body', async (c) => (await c.csrfToken(), undefined)],
	['an empty token', async (c) => (await c.csrfToken(), '')],
	['a random token', async (c) => (await c.csrfToken(), randomBytes(32).toString('hex'))],
	['the token with trailing whitespace', async (c) => `${await c.csrfToken()} `],
	['the token upper-cased', async (c) => (await c.csrfToken()).toUpperCase()],
	['the whole cookie value as token', async (c) => (await c.csrfToken(), c.cookie(CSRF_COOKIE))],
	['the hash half as token', async (c) => (await c.csrfToken(), c.cookie(CSRF_COOKIE)?.split('|')[1])],
	[
		"another visitor's token",
		async (c) => {
			await c.csrfToken();
			return setup().client().csrfToken();
		}
	],
	[
		'a valid token but no cookie',
		async (c) => {
			const token = await c.csrfToken();
			c.jar.clear();
			return token;
		}
	],
	[
		'a cookie hashed with another secret',
		async (c) => {
			const token = randomBytes(32).toString('hex');
			c.setCookie(CSRF_COOKIE, signed(token, 'attacker-secret'));
			return token;
		}
	],
	[
		'a cookie without its hash',
		async (c) => {
			const token = randomBytes(32).toString('hex');
			c.setCookie(CSRF_COOKIE, `${token}|`);
			return token;
		}
	],
	[
		'a bare token as cookie',
		async (c) => {
			const token = randomBytes(32).toString('hex');
			c.setCookie(CSRF_COOKIE, token);
			return token;
		}
	],
	[
		'a cookie from a deployment with another secret',
		async (c) => {
			const other = setup({ secret: 'another-deployment-secret-ffffffffffffffffff' }).client();
			const token = await other.csrfToken();
			c.jar.set(CSRF_COOKIE, other.jar.get(CSRF_COOKIE)!);
			return token;
		}
	]
];

describe.each(ACTIONS)('POST %s', (action) => {
	test.each(CASES)('%s → refused', async (_name, prepare) => {
		const client = setup().client();
		const token = await prepare(client);
		await expectRefused(await send(client, action, token), action);
	});

	test('the right token and cookie are accepted (control)', async () => {
		const s = setup();
		const client = await signedIn(s);
		const res = await send(client, action, await client.csrfToken());
		if (action === 'session') {
			expect(res.status).toBe(200);
			expect(await res.json()).toMatchObject({ user: { email: ALICE.email } });
		} else {
			expect(res.status).toBe(302);
			expect(res.headers.get('location')).not.toContain('error=');
		}
	});
});

describe('what a refused request must not do', () => {
	test('sign-out without a token leaves the session intact', async () => {
		const client = await signedIn(setup());
		const res = await client.post('signout', { form: {} });
		expect(res.headers.get('location')).toBe(`${ORIGIN}/auth/signin?error=MissingCSRF`);
		expect(sessionCookiesCleared(res)).toEqual([]);
		expect(((await client.session()) as Session).user?.email).toBe(ALICE.email);
	});

	test('the credentials callback without a token never calls authorize()', async () => {
		let calls = 0;
		const s = setup({ providers: [passwordProvider({ authorize: () => (calls++, { ...ALICE }) })] });
		const client = s.client();
		await client.post('callback/credentials', { form: { ...ALICE_LOGIN } });
		expect(calls).toBe(0);
		expect(await client.session()).toBeNull();
	});

	test('a session update without a token never reaches the jwt callback', async () => {
		const triggers: unknown[] = [];
		const s = setup({ callbacks: { jwt: ({ token, trigger }) => (triggers.push(trigger), token) } });
		const client = await signedIn(s);
		triggers.length = 0;
		await client.post('session', { json: { data: { name: 'Mallory' } } });
		expect(triggers).toEqual([]);
		expect(((await client.session()) as Session).user?.name).toBe(ALICE.name);
	});

	test('on https a non-prefixed (tossed) CSRF cookie is not the __Host- one', async () => {
		const client = setup().client('https://app.example');
		const token = randomBytes(32).toString('hex');
		client.setCookie(CSRF_COOKIE, signed(token));
		const res = await client.post('callback/credentials', { form: { csrfToken: token, ...ALICE_LOGIN } });
		expect(res.headers.get('location')).toBe('https://app.example/auth/signin?error=MissingCSRF');
		await expectNoSessionGranted(res);
	});
});
