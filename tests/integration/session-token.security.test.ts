/**
 * Tampered, foreign, expired and misplaced session tokens: `GET /session` answers `null` and
 * clears the cookie; no other action treats them as a session.
 */
import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { encode as authjsEncode } from '@auth/core/jwt';
import { describe, expect, test, vi, afterEach } from 'vitest';
import { encode } from '../../src/lib/jwt.js';
import type { Session } from '../../src/lib/core/types.js';
import {
	ALICE,
	SECRET,
	SESSION_COOKIE,
	expectNoSessionGranted,
	sessionCookiesCleared,
	setup,
	signedIn
} from './fixtures.js';

const CLAIMS = { name: ALICE.name, email: ALICE.email, sub: ALICE.id };
const FOREIGN = 'foreign-secret-gggggggggggggggggggggggggggggg';

afterEach(() => {
	vi.useRealTimers();
});

async function realToken(): Promise<string> {
	const client = await signedIn(setup());
	return client.cookie(SESSION_COOKIE)!;
}

/** Flips one bit of the base64url part `index` of a compact JWE. */
function flip(token: string, index: number, at = 5): string {
	const parts = token.split('.');
	const bytes = Buffer.from(parts[index]!, 'base64url');
	bytes[at % bytes.length]! ^= 0x01;
	parts[index] = bytes.toString('base64url');
	return parts.join('.');
}

async function expectRejected(token: string, origin?: string, name = SESSION_COOKIE): Promise<void> {
	const client = setup().client(origin);
	client.setCookie(name, token);
	const res = await client.get('session');
	expect(res.status).toBe(200);
	expect(JSON.parse(await expectNoSessionGranted(res))).toBeNull();
	expect(sessionCookiesCleared(res, name)).toEqual([name]);
	expect(client.jar.has(name)).toBe(false);
}

/** An A256GCM JWE made by hand with a key derived from `secret` (the reference accepts GCM). */
function gcmToken(secret: string, claims: object, kid?: string): string {
	const key = Buffer.from(hkdfSync('sha256', secret, SESSION_COOKIE, `Auth.js Generated Encryption Key (${SESSION_COOKIE})`, 32));
	const header = Buffer.from(JSON.stringify({ alg: 'dir', enc: 'A256GCM', ...(kid ? { kid } : {}) })).toString('base64url');
	const iv = randomBytes(12);
	const cipher = createCipheriv('aes-256-gcm', key, iv);
	cipher.setAAD(Buffer.from(header, 'ascii'));
	const ct = Buffer.concat([cipher.update(JSON.stringify(claims), 'utf8'), cipher.final()]);
	return [header, '', iv.toString('base64url'), ct.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

describe('tampered tokens', () => {
	test.each([
		['the protected header', 0],
		['the IV', 2],
		['the ciphertext', 3],
		['the authentication tag', 4]
	])('one flipped bit in %s: null, cookie cleared', async (_name, index) => {
		await expectRejected(flip(await realToken(), index));
	});

	test('a non-empty encrypted-key part: null', async () => {
		const parts = (await realToken()).split('.');
		parts[1] = 'AAAA';
		await expectRejected(parts.join('.'));
	});

	test('swapping ciphertexts between two real tokens: null', async () => {
		const a = (await realToken()).split('.');
		const b = (await realToken()).split('.');
		await expectRejected([a[0], a[1], a[2], b[3], a[4]].join('.'));
	});

	test('a kid replaced by another key id: null', async () => {
		const token = await realToken();
		const [, ...rest] = token.split('.');
		const header = Buffer.from(JSON.stringify({ alg: 'dir', enc: 'A256CBC-HS512', kid: 'attacker-kid' })).toString('base64url');
		await expectRejected([header, ...rest].join('.'));
	});

	test('extra or missing parts: null', async () => {
		const token = await realToken();
		await expectRejected(`${token}.extra`);
		await expectRejected(token.split('.').slice(0, 4).join('.'));
		await expectRejected(token.replace(/\./g, '..'));
	});

	test('a real token with appended garbage or whitespace inside: null', async () => {
		const token = await realToken();
		await expectRejected(`${token}AAAA`);
		await expectRejected(token.replace('.', '. '));
	});
});

describe('foreign tokens', () => {
	test('kitauth token from another secret: null, cookie cleared', async () => {
		await expectRejected(await encode({ token: CLAIMS, secret: FOREIGN, salt: SESSION_COOKIE }));
	});

	test('@auth/core token from another secret: null', async () => {
		await expectRejected(await authjsEncode({ token: CLAIMS, secret: FOREIGN, salt: SESSION_COOKIE }));
	});

	test('an A256GCM token from another secret (with and without kid): null', async () => {
		await expectRejected(gcmToken(FOREIGN, { ...CLAIMS, exp: Math.floor(Date.now() / 1000) + 3600 }));
		await expectRejected(gcmToken(FOREIGN, CLAIMS, 'some-kid'));
	});

	test('control: an A256GCM token from our secret is read (Auth.js accepts both encodings)', async () => {
		const client = setup().client();
		client.setCookie(SESSION_COOKIE, gcmToken(SECRET, { ...CLAIMS, iat: Math.floor(Date.now() / 1000) }));
		expect(((await client.session()) as Session).user?.email).toBe(ALICE.email);
	});

	test('an http-mode token on https (and the reverse) is not a session: the salt is the cookie name', async () => {
		const http = await encode({ token: CLAIMS, secret: SECRET, salt: SESSION_COOKIE });
		await expectRejected(http, 'https://app.example', `__Secure-${SESSION_COOKIE}`);
		const https = await encode({ token: CLAIMS, secret: SECRET, salt: `__Secure-${SESSION_COOKIE}` });
		await expectRejected(https);
	});
});

describe('expired and not-yet-valid tokens', () => {
	test('a token past its exp (beyond the 15 s tolerance): null', async () => {
		await expectRejected(await encode({ token: CLAIMS, secret: SECRET, salt: SESSION_COOKIE, maxAge: -60 }));
	});

	test('a token sealed in the future (nbf) is not yet valid', async () => {
		const future = Math.floor(Date.now() / 1000) + 3600;
		await expectRejected(gcmToken(SECRET, { ...CLAIMS, nbf: future, exp: future + 3600 }));
	});

	test('a token with a non-numeric exp: null', async () => {
		await expectRejected(gcmToken(SECRET, { ...CLAIMS, exp: 'never' }));
	});

	test('a token whose payload is not an object: null', async () => {
		await expectRejected(gcmToken(SECRET, ['not', 'an', 'object']));
	});
});

describe('other actions with a tampered token', () => {
	test('POST session (valid CSRF) answers null and clears the cookie', async () => {
		const client = setup().client();
		const csrfToken = await client.csrfToken();
		client.setCookie(SESSION_COOKIE, flip(await realToken(), 3));
		const res = await client.post('session', { json: { csrfToken, data: { name: 'Mallory' } } });
		expect(res.status).toBe(200);
		expect(await res.json()).toBeNull();
		expect(sessionCookiesCleared(res)).toEqual([SESSION_COOKIE]);
	});

	test('POST signout: the signOut event sees no token', async () => {
		const tokens: unknown[] = [];
		const s = setup({ events: { signOut: (message) => void tokens.push('token' in message ? message.token : 'none') } });
		const client = s.client();
		client.setCookie(SESSION_COOKIE, flip(await realToken(), 3));
		const res = await client.postForm('signout');
		expect(res.status).toBe(302);
		expect(sessionCookiesCleared(res)).toEqual([SESSION_COOKIE]);
		expect(tokens).toEqual([null]);
	});

	test('an Authorization: Bearer header is not a session for the REST endpoint, and a malformed one does not crash', async () => {
		const token = await realToken();
		for (const value of [`Bearer ${token}`, 'Bearer %', 'Bearer %E0%A4%A', `Bearer ${'x'.repeat(10_000)}`]) {
			const res = await setup().client().get('session', { headers: { authorization: value } });
			expect(res.status).toBe(200);
			expect(await res.json()).toBeNull();
		}
	});
});
