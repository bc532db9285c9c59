/**
 * `getToken` (`kitauth/jwt`): a request's session token, read from the cookie (whole or chunked)
 * or an `Authorization: Bearer` header, decoded with the app's secret — for tokens kitauth issued
 * through a real sign-in and tokens @auth/core issued, and refused for anything else.
 */
import { encode as authjsEncode, getToken as authjsGetToken } from '@auth/core/jwt';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { MissingSecret } from '../../src/lib/core/errors.js';
import { CHUNK_SIZE } from '../../src/lib/core/session/cookies.js';
import { encode, getToken } from '../../src/lib/jwt.js';
import { ALICE, ORIGIN, SECRET, SESSION_COOKIE, setup, signedIn } from './fixtures.js';

const SECURE_COOKIE = `__Secure-${SESSION_COOKIE}`;
const HOST_COOKIE = `__Host-${SESSION_COOKIE}`;

/** Alice's session token, issued by a real credentials sign-in (JWT strategy). */
async function aliceToken(): Promise<string> {
	const client = await signedIn(setup());
	const token = client.cookie(SESSION_COOKIE);
	if (!token) throw new Error('no session cookie');
	return token;
}

function withCookie(cookie: string, url = `${ORIGIN}/api`): Request {
	return new Request(url, { headers: { cookie } });
}

afterEach(() => {
	vi.unstubAllEnvs();
});

describe('getToken', () => {
	test("reads the session cookie of a real sign-in: the token's claims", async () => {
		const token = await aliceToken();
		const jwt = await getToken({ req: withCookie(`other=1; ${SESSION_COOKIE}=${token}`), secret: SECRET });
		expect(jwt).toMatchObject({ email: ALICE.email, name: ALICE.name, sub: ALICE.id });
		expect(jwt?.exp).toBeGreaterThan(Date.now() / 1000);
	});

	test('raw: the token as sent, no secret needed', async () => {
		const token = await aliceToken();
		expect(await getToken({ req: withCookie(`${SESSION_COOKIE}=${token}`), raw: true })).toBe(token);
	});

	test('the secret defaults to the environment (AUTH_SECRET, rotated ones included)', async () => {
		const token = await aliceToken();
		vi.stubEnv('AUTH_SECRET', 'a-newer-secret-0123456789abcdef0123456789');
		vi.stubEnv('AUTH_SECRET_1', SECRET);
		expect(await getToken({ req: withCookie(`${SESSION_COOKIE}=${token}`) })).toMatchObject({ email: ALICE.email });
	});

	test('no secret anywhere: MissingSecret, saying how to fix it', async () => {
		for (const name of ['AUTH_SECRET', 'AUTH_SECRET_1', 'AUTH_SECRET_2', 'AUTH_SECRET_3', 'NEXTAUTH_SECRET']) vi.stubEnv(name, '');
		const token = await aliceToken();
		await expect(getToken({ req: withCookie(`${SESSION_COOKIE}=${token}`) })).rejects.toThrow(MissingSecret);
		await expect(getToken({ req: withCookie(`${SESSION_COOKIE}=${token}`) })).rejects.toThrow(/AUTH_SECRET/);
	});

	test('on https it reads only the __Host- cookie, or Auth.js\'s __Secure- one (a plain one could be planted over http)', async () => {
		const token = await aliceToken();
		const secure = await encode({ token: { sub: 'secure-user' }, secret: SECRET, salt: SECURE_COOKIE });
		const host = await encode({ token: { sub: 'host-user' }, secret: SECRET, salt: HOST_COOKIE });
		const https = `https://app.example/api`;
		expect(await getToken({ req: withCookie(`${SESSION_COOKIE}=${token}`, https), secret: SECRET })).toBeNull();
		expect(await getToken({ req: withCookie(`${SECURE_COOKIE}=${secure}`, https), secret: SECRET })).toMatchObject({ sub: 'secure-user' });
		expect(await getToken({ req: withCookie(`${HOST_COOKIE}=${host}`, https), secret: SECRET })).toMatchObject({ sub: 'host-user' });
		// kitauth's own cookie first when both are there.
		expect(await getToken({ req: withCookie(`${SECURE_COOKIE}=${secure}; ${HOST_COOKIE}=${host}`, https), secret: SECRET })).toMatchObject({ sub: 'host-user' });
		// Each sealed under its own name: swapped, neither opens.
		expect(await getToken({ req: withCookie(`${HOST_COOKIE}=${secure}`, https), secret: SECRET })).toBeNull();
		// Told explicitly, it looks where it is told.
		expect(await getToken({ req: withCookie(`${SESSION_COOKIE}=${token}`, https), secret: SECRET, secureCookie: false })).toMatchObject({
			sub: ALICE.id
		});
	});

	test('a chunked session cookie is put back together', async () => {
		const big = await encode({ token: { sub: 'big', padding: 'x'.repeat(CHUNK_SIZE * 1.5) }, secret: SECRET, salt: SESSION_COOKIE });
		const chunks = [big.slice(0, CHUNK_SIZE), big.slice(CHUNK_SIZE)];
		const cookie = chunks.map((chunk, index) => `${SESSION_COOKIE}.${index}=${chunk}`).join('; ');
		expect(await getToken({ req: withCookie(cookie), secret: SECRET })).toMatchObject({ sub: 'big' });
	});

	test('Authorization: Bearer is read when there is no cookie; the cookie wins when both are sent', async () => {
		const token = await aliceToken();
		const other = await encode({ token: { sub: 'bearer-user' }, secret: SECRET, salt: SESSION_COOKIE });
		const bearerOnly = new Request(`${ORIGIN}/api`, { headers: { authorization: `Bearer ${encodeURIComponent(other)}` } });
		expect(await getToken({ req: bearerOnly, secret: SECRET })).toMatchObject({ sub: 'bearer-user' });
		const both = new Request(`${ORIGIN}/api`, { headers: { cookie: `${SESSION_COOKIE}=${token}`, authorization: `Bearer ${other}` } });
		expect(await getToken({ req: both, secret: SECRET })).toMatchObject({ sub: ALICE.id });
		for (const authorization of ['Basic abc', 'Bearer', 'Bearer %E0%A4%A', `Bearer ${other} extra`]) {
			expect(await getToken({ req: { headers: { authorization } }, secret: SECRET }), authorization).toBeNull();
		}
	});

	test('raw: a Bearer value that does not percent-decode is no token (null, as @auth/core answers)', async () => {
		for (const authorization of ['Bearer %', 'Bearer %E0%A4%A', 'Bearer abc%zz']) {
			const req = { headers: { authorization } };
			const theirs = await authjsGetToken({ req, raw: true });
			expect(theirs, authorization).toBeNull();
			expect(await getToken({ req, raw: true }), authorization).toBe(theirs);
		}
		const token = await aliceToken();
		const req = { headers: { authorization: `Bearer ${encodeURIComponent(token)}` } };
		expect(await getToken({ req, raw: true })).toBe(token);
		expect(await getToken({ req, raw: true })).toBe(await authjsGetToken({ req, raw: true }));
	});

		test('a plain headers object will do, as in Auth.js', async () => {
		const token = await aliceToken();
		expect(await getToken({ req: { headers: { cookie: `${SESSION_COOKIE}=${token}` } }, secret: SECRET })).toMatchObject({ sub: ALICE.id });
	});

	test.each([
		['no cookie', ''],
		['garbage', `${SESSION_COOKIE}=not.a.token`],
		['an empty value', `${SESSION_COOKIE}=`],
		['five empty parts', `${SESSION_COOKIE}=....`]
	])('%s: null', async (_name, cookie) => {
		expect(await getToken({ req: withCookie(cookie), secret: SECRET })).toBeNull();
	});

	test("another secret's token, an expired one, and one sealed for another cookie name: null", async () => {
		const token = await aliceToken();
		expect(await getToken({ req: withCookie(`${SESSION_COOKIE}=${token}`), secret: 'another-secret-0123456789abcdef012345' })).toBeNull();
		const expired = await encode({ token: { sub: 'old' }, secret: SECRET, salt: SESSION_COOKIE, maxAge: -60 });
		expect(await getToken({ req: withCookie(`${SESSION_COOKIE}=${expired}`), secret: SECRET })).toBeNull();
		const foreignSalt = await encode({ token: { sub: 'x' }, secret: SECRET, salt: 'authjs.callback-url' });
		expect(await getToken({ req: withCookie(`${SESSION_COOKIE}=${foreignSalt}`), secret: SECRET })).toBeNull();
	});

	test('a renamed cookie: cookieName (and the salt follows it), or an explicit salt', async () => {
		const renamed = await encode({ token: { sub: 'renamed' }, secret: SECRET, salt: 'my-session' });
		expect(await getToken({ req: withCookie(`my-session=${renamed}`), secret: SECRET, cookieName: 'my-session' })).toMatchObject({ sub: 'renamed' });
		const salted = await encode({ token: { sub: 'salted' }, secret: SECRET, salt: 'other-salt' });
		expect(await getToken({ req: withCookie(`${SESSION_COOKIE}=${salted}`), secret: SECRET, salt: 'other-salt' })).toMatchObject({ sub: 'salted' });
	});

	test("the app's own decode is used, and a decode that throws reads as null", async () => {
		const req = withCookie(`${SESSION_COOKIE}=opaque-value`);
		const seen: unknown[] = [];
		const jwt = await getToken({ req, secret: SECRET, decode: (params) => (seen.push(params), { sub: 'custom' }) });
		expect(jwt).toEqual({ sub: 'custom' });
		expect(seen).toEqual([{ token: 'opaque-value', secret: SECRET, salt: SESSION_COOKIE }]);
		expect(await getToken({ req, secret: SECRET, decode: () => { throw new Error('bad'); } })).toBeNull();
	});

	test('Auth.js interop: @auth/core reads kitauth tokens and kitauth reads @auth/core tokens', async () => {
		const token = await aliceToken();
		expect(await authjsGetToken({ req: withCookie(`${SESSION_COOKIE}=${token}`), secret: SECRET, secureCookie: false })).toMatchObject({
			sub: ALICE.id
		});
		const theirs = await authjsEncode({ token: { sub: 'from-authjs' }, secret: SECRET, salt: SESSION_COOKIE });
		expect(await getToken({ req: withCookie(`${SESSION_COOKIE}=${theirs}`), secret: SECRET })).toMatchObject({ sub: 'from-authjs' });
	});
});
