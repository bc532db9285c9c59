/**
 * Hostile cookies: garbage, oversized, malformed and foreign tokens. Every request must be
 * answered (no hang), never with a 500, and never with a session.
 */
import { describe, expect, test } from 'vitest';
import { encode as authjsEncode } from '@auth/core/jwt';
import { encode } from '../../src/lib/jwt.js';
import { setCookies } from '../support/client.js';
import {
	ALICE,
	CSRF_COOKIE,
	SECRET,
	SESSION_COOKIE,
	expectNoSessionGranted,
	sessionCookiesCleared,
	setup,
	signedIn
} from './fixtures.js';

const CLAIMS = { name: ALICE.name, email: ALICE.email, sub: ALICE.id };

/** A deterministic PRNG (mulberry32), so a failure can be replayed. */
function prng(seed: number): () => number {
	let a = seed;
	return () => {
		a = (a + 0x6d2b79f5) | 0;
		let t = Math.imul(a ^ (a >>> 15), 1 | a);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** Random header-legal bytes (0x01–0xFF except CR and LF), as a latin1 string. */
function randomBytesString(random: () => number, length: number): string {
	let out = '';
	while (out.length < length) {
		const code = 1 + Math.floor(random() * 255);
		if (code !== 0x0a && code !== 0x0d) out += String.fromCharCode(code);
	}
	return out.trim();
}

function b64u(value: unknown): string {
	return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
}

async function validToken(): Promise<string> {
	return encode({ token: CLAIMS, secret: SECRET, salt: SESSION_COOKIE });
}

/** GET /session with exactly this Cookie header: must be 200 null and grant nothing. */
async function expectNullSession(cookieHeader: string): Promise<Response> {
	const res = await setup().client().get('session', { headers: { cookie: cookieHeader } });
	expect(res.status).toBe(200);
	const text = await expectNoSessionGranted(res);
	expect(JSON.parse(text)).toBeNull();
	return res;
}

describe('random bytes', () => {
	test('100 random Cookie headers and random session values: never a 500, never a session', async () => {
		const random = prng(0xc00c1e);
		for (let i = 0; i < 100; i++) {
			const length = 1 + Math.floor(random() * 3000);
			const garbage = randomBytesString(random, length);
			const header = i % 2 === 0 ? garbage : `${SESSION_COOKIE}=${garbage}; ${CSRF_COOKIE}=${garbage}`;
			if (!header) continue;
			await expectNullSession(header);
			for (const path of ['signin', 'csrf', 'signout']) {
				const res = await setup().client().get(path, { headers: { cookie: header } });
				expect(res.status).toBeLessThan(500);
				await expectNoSessionGranted(res);
			}
			const post = await setup()
				.client()
				.post('callback/credentials', { headers: { cookie: header }, form: { csrfToken: garbage.slice(0, 64), username: 'alice', password: 'wonderland' } });
			expect(post.status).toBe(302);
			await expectNoSessionGranted(post);
		}
	});
});

describe('oversized cookies', () => {
	test('a 10 KB session value: null, cookie cleared', async () => {
		const res = await expectNullSession(`${SESSION_COOKIE}=${'A'.repeat(10 * 1024)}`);
		expect(sessionCookiesCleared(res)).toEqual([SESSION_COOKIE]);
	});

	test('a 10 KB JWE-shaped value with a valid header: null', async () => {
		const header = b64u({ alg: 'dir', enc: 'A256CBC-HS512' });
		await expectNullSession(`${SESSION_COOKIE}=${header}..${'A'.repeat(22)}.${'B'.repeat(10 * 1024)}.${'C'.repeat(43)}`);
	});

	test('a 100 KB session value: null', async () => {
		await expectNullSession(`${SESSION_COOKIE}=${'x'.repeat(100 * 1024)}`);
	});

	test('200 chunks of garbage: null, the chunks it read cleared', async () => {
		const chunks = Array.from({ length: 200 }, (_, i) => `${SESSION_COOKIE}.${i}=${'z'.repeat(100)}`).join('; ');
		const res = await expectNullSession(chunks);
		expect(sessionCookiesCleared(res).length).toBeGreaterThan(0);
	});

	test('200 full-size chunks (~800 KB of Cookie header): answered, null', async () => {
		const chunks = Array.from({ length: 200 }, (_, i) => `${SESSION_COOKIE}.${i}=${'q'.repeat(3936)}`).join('; ');
		await expectNullSession(chunks);
	});

	test('a valid token split into chunks with garbage chunks after it: null', async () => {
		const token = await validToken();
		const header = [
			`${SESSION_COOKIE}.0=${token.slice(0, 100)}`,
			`${SESSION_COOKIE}.1=${token.slice(100)}`,
			`${SESSION_COOKIE}.2=garbage`
		].join('; ');
		await expectNullSession(header);
	});

	test('a 10 KB CSRF cookie is replaced by a fresh one', async () => {
		const res = await setup().client().get('csrf', { headers: { cookie: `${CSRF_COOKIE}=${'f'.repeat(10 * 1024)}` } });
		expect(res.status).toBe(200);
		const { csrfToken } = (await res.json()) as { csrfToken: string };
		expect(csrfToken).toMatch(/^[0-9a-f]{64}$/);
		expect(setCookies(res).find((c) => c.name === CSRF_COOKIE)?.value).toMatch(new RegExp(`^${csrfToken}%7C[0-9a-f]{64}$`));
	});
});

describe('malformed encodings', () => {
	test.each(['%', '%E0%A4%A', '%ZZ', '%00', '%FF%FE', '%u0041', '"', '""', '"%"', ';;;', '=', '==='])(
		'session cookie %s: null',
		async (value) => {
			await expectNullSession(`${SESSION_COOKIE}=${value}`);
		}
	);

	test.each(['%', '%ZZ|%', '|', 'a|b', `${'0'.repeat(64)}|${'0'.repeat(64)}`, '%7C%7C%7C'])(
		'CSRF cookie %s: GET csrf mints a new valid token',
		async (value) => {
			const res = await setup().client().get('csrf', { headers: { cookie: `${CSRF_COOKIE}=${value}` } });
			expect(res.status).toBe(200);
			expect(setCookies(res).map((c) => c.name)).toContain(CSRF_COOKIE);
		}
	);

	test('malformed cookie pairs and names around a valid session do not break parsing', async () => {
		const s = setup();
		const client = await signedIn(s);
		const header = `=novalue; ;; bad name=1; ${client.cookieHeader()}; x=%ZZ; trailing`;
		const res = await s.client().get('session', { headers: { cookie: header } });
		expect(res.status).toBe(200);
		expect(await res.json()).toMatchObject({ user: { email: ALICE.email } });
	});
});

describe('foreign and forged tokens', () => {
	test('a JWE sealed with another secret: null, cookie cleared', async () => {
		const token = await encode({ token: CLAIMS, secret: 'attacker-secret-eeeeeeeeeeeeeeeeeeeeeeeeeeee', salt: SESSION_COOKIE });
		const res = await expectNullSession(`${SESSION_COOKIE}=${token}`);
		expect(sessionCookiesCleared(res)).toEqual([SESSION_COOKIE]);
	});

	test('a real token whose header is rewritten to alg "none": null', async () => {
		const [, ...rest] = (await validToken()).split('.');
		await expectNullSession(`${SESSION_COOKIE}=${[b64u({ alg: 'none', enc: 'A256CBC-HS512' }), ...rest].join('.')}`);
	});

	test('an unsecured JWT (alg "none", no encryption) carrying a user: null', async () => {
		await expectNullSession(`${SESSION_COOKIE}=${b64u({ alg: 'none', typ: 'JWT' })}.${b64u(CLAIMS)}.`);
	});

	test('an HS256-style JWS (three parts) carrying a user: null', async () => {
		await expectNullSession(`${SESSION_COOKIE}=${b64u({ alg: 'HS256', typ: 'JWT' })}.${b64u(CLAIMS)}.${b64u('sig')}`);
	});

	test.each([1, 10, 43, 100])('a token truncated by %i characters: null', async (cut) => {
		const token = await validToken();
		await expectNullSession(`${SESSION_COOKIE}=${token.slice(0, token.length - cut)}`);
	});

	test.each([
		'authjs.pkce.code_verifier',
		'authjs.state',
		'authjs.nonce',
		'authjs.challenge',
		'authjs.callback-url',
		'authjs.csrf-token',
		'encodedState',
		'encodedWebauthnChallenge',
		`__Secure-${SESSION_COOKIE}`
	])('GHSA-v64w-49xw-qq89: a check-cookie-style token sealed with salt %s is not a session', async (salt) => {
		const payload = { value: 'verifier-or-state', provider: 'credentials', ...CLAIMS };
		const ours = await encode({ token: payload, secret: SECRET, salt, maxAge: 900 });
		const res = await expectNullSession(`${SESSION_COOKIE}=${ours}`);
		expect(sessionCookiesCleared(res)).toEqual([SESSION_COOKIE]);
		const theirs = await authjsEncode({ token: payload, secret: SECRET, salt, maxAge: 900 });
		await expectNullSession(`${SESSION_COOKIE}=${theirs}`);
	});

	test('a valid session token replayed in another cookie slot grants nothing', async () => {
		const token = await validToken();
		await expectNullSession(`${CSRF_COOKIE}=${token}; authjs.callback-url=${token}; authjs.state=${token}`);
	});
});
