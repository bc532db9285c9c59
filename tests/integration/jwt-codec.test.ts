import { createHash } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { decode } from '../../src/lib/jwt.js';
import type { JWT, JWTDecodeParams, JWTEncodeParams, Session } from '../../src/lib/core/types.js';
import { setCookies } from '../support/client.js';
import { ALICE, ALICE_LOGIN, SECRET, SESSION_COOKIE, sessionCookiesCleared, setup, signedIn } from './fixtures.js';

/**
 * The `jwt.encode`/`jwt.decode`/`jwt.maxAge` overrides, through `Auth()`: an app's own codec (here a
 * signed, not encrypted, HS256 JWT) must seal the session cookie and read it back, and `jwt.maxAge`
 * must decide the cookie's expiry.
 */

const T0 = Date.parse('2031-03-01T12:00:00Z');

afterEach(() => {
	vi.useRealTimers();
});

/** The HMAC key of the app's codec: separated per cookie name (the salt), as the built-in one is. */
function keyFor(secret: string | string[], salt: string): Uint8Array {
	const first = Array.isArray(secret) ? secret[0]! : secret;
	return createHash('sha256').update(`${first}|${salt}`).digest();
}

function signedJwtCodec() {
	const encoded: JWTEncodeParams[] = [];
	const decoded: JWTDecodeParams[] = [];
	return {
		encoded,
		decoded,
		jwt: {
			encode: async (params: JWTEncodeParams) => {
				encoded.push(params);
				return new SignJWT({ ...params.token })
					.setProtectedHeader({ alg: 'HS256' })
					.setIssuedAt()
					.setExpirationTime(`${params.maxAge ?? 60}s`)
					.sign(keyFor(params.secret, params.salt));
			},
			decode: async (params: JWTDecodeParams): Promise<JWT | null> => {
				decoded.push(params);
				if (!params.token) return null;
				const { payload } = await jwtVerify(params.token, keyFor(params.secret, params.salt), { algorithms: ['HS256'] });
				return payload;
			}
		}
	};
}

describe('a custom jwt.encode/jwt.decode', () => {
	test('seals the session cookie at sign-in and reads it back on every session read', async () => {
		const codec = signedJwtCodec();
		const client = await signedIn(setup({ jwt: codec.jwt }));

		expect(codec.encoded).toHaveLength(1);
		expect(codec.encoded[0]).toMatchObject({
			salt: SESSION_COOKIE,
			maxAge: 30 * 24 * 60 * 60,
			token: { name: ALICE.name, email: ALICE.email, sub: ALICE.id }
		});
		expect([codec.encoded[0]!.secret].flat()).toEqual([SECRET]);

		// The cookie is the app's format (a 3-part JWS), which the built-in codec cannot open.
		const cookie = decodeURIComponent(client.cookie(SESSION_COOKIE)!);
		expect(cookie.split('.')).toHaveLength(3);
		const { payload } = await jwtVerify(cookie, keyFor(SECRET, SESSION_COOKIE));
		expect(payload).toMatchObject({ sub: ALICE.id, email: ALICE.email });
		expect(await decode({ token: cookie, secret: SECRET, salt: SESSION_COOKIE })).toBeNull();

		const session = (await client.session()) as Session;
		expect(session.user).toEqual({ name: ALICE.name, email: ALICE.email });
		expect(codec.decoded.map((params) => params.token)).toEqual([cookie]);
	});

	test('a cookie its decode refuses (tampered) reads as no session and is cleared', async () => {
		const codec = signedJwtCodec();
		const client = await signedIn(setup({ jwt: codec.jwt }));
		const [header, body] = decodeURIComponent(client.cookie(SESSION_COOKIE)!).split('.');
		client.setCookie(SESSION_COOKIE, `${header}.${body}.${'A'.repeat(43)}`);
		const res = await client.get('session');
		expect(await res.json()).toBeNull();
		expect(sessionCookiesCleared(res)).toEqual([SESSION_COOKIE]);
	});
});

describe('jwt.maxAge', () => {
	test('sets the session cookie expiry and the token lifetime, over session.maxAge', async () => {
		vi.setSystemTime(T0);
		const s = setup({ session: { maxAge: 7 * 24 * 3600 }, jwt: { maxAge: 600 } });
		const res = await s.client().signInWithCredentials('credentials', { ...ALICE_LOGIN });
		const cookie = setCookies(res).find((c) => c.name === SESSION_COOKIE)!;
		expect(Date.parse(cookie.attributes.expires as string)).toBe(T0 + 600_000);
		const claims = await decode({ token: decodeURIComponent(cookie.value), secret: SECRET, salt: SESSION_COOKIE });
		expect(claims).toMatchObject({ iat: T0 / 1000, exp: T0 / 1000 + 600 });
	});

	test('is what a custom encode is given, and the cookie expires with it', async () => {
		vi.setSystemTime(T0);
		const codec = signedJwtCodec();
		const s = setup({ jwt: { ...codec.jwt, maxAge: 900 } });
		const client = s.client();
		const res = await client.signInWithCredentials('credentials', { ...ALICE_LOGIN });
		expect(codec.encoded[0]?.maxAge).toBe(900);
		const cookie = setCookies(res).find((c) => c.name === SESSION_COOKIE)!;
		expect(Date.parse(cookie.attributes.expires as string)).toBe(T0 + 900_000);
		expect(((await client.session()) as Session).expires).toBe(new Date(T0 + 900_000).toISOString());
	});
});
