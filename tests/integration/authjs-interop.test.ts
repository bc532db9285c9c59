/**
 * Drop-in compatibility with Auth.js v5 (@auth/core 0.41.3, a test-only dependency): the same
 * secret reads the same session cookies in both directions, whole or chunked, on http and https.
 * On https kitauth's own cookie is `__Host-authjs.session-token` (Auth.js's `__Secure-` one is
 * read and moved to it); for Auth.js to read kitauth's cookies there (a rollback), an app names
 * the cookie as Auth.js does (`cookies.sessionToken.name`).
 */
import { Auth as AuthJs, type AuthConfig as AuthJsConfig } from '@auth/core';
import { decode as authjsDecode, encode as authjsEncode } from '@auth/core/jwt';
import { CredentialsSignin as AuthJsCredentialsSignin } from '@auth/core/errors';
import AuthJsCredentials from '@auth/core/providers/credentials';
import { describe, expect, test } from 'vitest';
import { decode as kitDecode } from '../../src/lib/jwt.js';
import type { Session } from '../../src/lib/core/types.js';
import { TestClient } from '../support/client.js';
import { ALICE, ALICE_LOGIN, SECRET, SESSION_COOKIE, passwordProvider, sessionCookiesSet, setup } from './fixtures.js';

const ORIGINS = [
	{ origin: 'http://localhost:3000', cookie: SESSION_COOKIE, ours: SESSION_COOKIE },
	{ origin: 'https://app.example', cookie: `__Secure-${SESSION_COOKIE}`, ours: `__Host-${SESSION_COOKIE}` }
];

/** kitauth configured to keep Auth.js's cookie name (what a rollback to Auth.js needs on https). */
const authjsNamed = (cookie: string) => ({ cookies: { sessionToken: { name: cookie } } });

/** @auth/core's own Auth with its own Credentials provider (alice/wonderland → Alice). */
function authjs(options: { big?: boolean } = {}): (request: Request) => Promise<Response> {
	const config: AuthJsConfig = {
		secret: SECRET,
		trustHost: true,
		basePath: '/auth',
		providers: [
			AuthJsCredentials({
				credentials: { username: {}, password: {} },
				authorize: (credentials) =>
					credentials.username === ALICE_LOGIN.username && credentials.password === ALICE_LOGIN.password
						? { ...ALICE }
						: null
			})
		],
		callbacks: {
			jwt: ({ token, trigger }) => (options.big && trigger === 'signIn' ? { ...token, blob: 'a'.repeat(6000) } : token),
			session: ({ session, token }) => ({ ...session, blobLength: typeof token.blob === 'string' ? token.blob.length : 0 })
		},
		logger: { error: () => {}, warn: () => {}, debug: () => {} }
	};
	return (request) => AuthJs(request, config);
}

/** kitauth with the matching configuration. */
function kitauth(options: { big?: boolean; cookie?: string } = {}) {
	return setup({
		...(options.cookie ? authjsNamed(options.cookie) : {}),
		callbacks: {
			jwt: ({ token, trigger }) => (options.big && trigger === 'signIn' ? { ...token, blob: 'k'.repeat(6000) } : token),
			session: ({ session, token }) => ({ ...session, blobLength: typeof token?.blob === 'string' ? token.blob.length : 0 })
		}
	});
}

/** Copies the session cookie (whole or chunks) from one jar to another. */
function copySession(from: TestClient, to: TestClient, name: string): number {
	let copied = 0;
	for (const [cookie, value] of from.jar) {
		if (cookie === name || cookie.startsWith(`${name}.`)) {
			to.jar.set(cookie, value);
			copied++;
		}
	}
	return copied;
}

describe.each(ORIGINS)('Auth.js interop on $origin', ({ origin, cookie, ours: ourCookie }) => {
	test('a token from @auth/core/jwt encode() is a kitauth session', async () => {
		const token = await authjsEncode({
			token: { name: ALICE.name, email: ALICE.email, picture: 'https://img.example/a.png', sub: ALICE.id },
			secret: SECRET,
			salt: cookie
		});
		const client = setup().client(origin);
		client.setCookie(cookie, token);
		const session = (await client.session()) as Session;
		expect(session.user).toEqual({ name: ALICE.name, email: ALICE.email, image: 'https://img.example/a.png' });
	});

	test('a kitauth sign-in cookie decodes with @auth/core/jwt decode()', async () => {
		const client = setup().client(origin);
		await client.signInWithCredentials('credentials', { ...ALICE_LOGIN });
		const token = client.cookie(ourCookie);
		expect(token).toBeDefined();
		const claims = await authjsDecode({ token, secret: SECRET, salt: ourCookie });
		expect(claims).toMatchObject({ name: ALICE.name, email: ALICE.email, sub: ALICE.id });
		expect(typeof claims?.jti).toBe('string');
		expect(typeof claims?.exp).toBe('number');
	});

	test("@auth/core's Auth signs in; kitauth reads that cookie", async () => {
		const theirs = new TestClient(authjs(), { origin });
		const res = await theirs.signInWithCredentials('credentials', { ...ALICE_LOGIN });
		expect(res.status).toBe(302);
		expect(theirs.jar.has(cookie)).toBe(true);
		const theirSession = (await theirs.session()) as Session;

		const ours = setup().client(origin);
		copySession(theirs, ours, cookie);
		const session = (await ours.session()) as Session;
		expect(session.user).toEqual({ name: ALICE.name, email: ALICE.email });
		expect(session.user).toEqual(theirSession.user);
		// Moved to kitauth's own cookie on the way (https): Auth.js's is gone, ours reads the same.
		expect(ours.jar.has(ourCookie)).toBe(true);
		if (ourCookie !== cookie) expect(ours.jar.has(cookie)).toBe(false);
		expect(((await ours.session()) as Session).user).toEqual(theirSession.user);
	});

	test("kitauth signs in; @auth/core's Auth reads that cookie (on https with Auth.js's cookie name)", async () => {
		const ours = setup(authjsNamed(cookie)).client(origin);
		await ours.signInWithCredentials('credentials', { ...ALICE_LOGIN });
		const ourSession = (await ours.session()) as Session;

		const theirs = new TestClient(authjs(), { origin });
		expect(copySession(ours, theirs, cookie)).toBe(1);
		const session = (await theirs.session()) as Session;
		expect(session.user).toEqual({ name: ALICE.name, email: ALICE.email });
		expect(session.user).toEqual(ourSession.user);
	});

	test('chunked cookies cross over in both directions', async () => {
		const theirs = new TestClient(authjs({ big: true }), { origin });
		await theirs.signInWithCredentials('credentials', { ...ALICE_LOGIN });
		const ours = kitauth({ big: true }).client(origin);
		expect(copySession(theirs, ours, cookie)).toBeGreaterThanOrEqual(2);
		expect(((await ours.session()) as Session).blobLength).toBe(6000);

		const ours2 = kitauth({ big: true, cookie }).client(origin);
		const res = await ours2.signInWithCredentials('credentials', { ...ALICE_LOGIN });
		expect(sessionCookiesSet(res, cookie).length).toBeGreaterThanOrEqual(2);
		const theirs2 = new TestClient(authjs({ big: true }), { origin });
		copySession(ours2, theirs2, cookie);
		const session = (await theirs2.session()) as Session;
		expect(session.blobLength).toBe(6000);
		expect(session.user?.email).toBe(ALICE.email);
	});

	test("@auth/core's CSRF cookie and token are accepted by kitauth", async () => {
		const theirs = new TestClient(authjs(), { origin });
		const csrfToken = await theirs.csrfToken();
		const ours = setup().client(origin);
		for (const [name, value] of theirs.jar) if (name.includes('csrf-token')) ours.jar.set(name, value);
		const res = await ours.post('callback/credentials', { form: { csrfToken, ...ALICE_LOGIN } });
		expect(res.status).toBe(302);
		expect(sessionCookiesSet(res, ourCookie)).toEqual([ourCookie]);
	});
});

describe('Auth.js interop: authorize() written for Auth.js', () => {
	// An app's own refusal, as Auth.js's docs write it: a subclass of @auth/core's CredentialsSignin.
	class InvalidLoginError extends AuthJsCredentialsSignin {
		override code = 'invalid_login';
	}

	test("a thrown CredentialsSignin of @auth/core's (subclass and code) is a refusal, as in Auth.js", async () => {
		const refuse = () => {
			throw new InvalidLoginError();
		};
		const theirs = new TestClient(
			(request) =>
				AuthJs(request, {
					secret: SECRET,
					trustHost: true,
					providers: [AuthJsCredentials({ credentials: { username: {}, password: {} }, authorize: refuse })],
					logger: { error: () => {}, warn: () => {}, debug: () => {} }
				}),
			{}
		);
		const ours = setup({ providers: [passwordProvider({ authorize: refuse })] });
		for (const client of [theirs, ours.client()]) {
			const res = await client.signInWithCredentials('credentials', { ...ALICE_LOGIN });
			expect(res.status).toBe(302);
			expect(res.headers.get('location')).toBe('http://localhost:3000/auth/signin?error=CredentialsSignin&code=invalid_login');
			expect(sessionCookiesSet(res, SESSION_COOKIE)).toEqual([]);
		}
	});
});

describe('Auth.js interop: what must not cross', () => {
	test('a token sealed for the http cookie name is not a session on https (the salt differs)', async () => {
		const token = await authjsEncode({ token: { sub: ALICE.id }, secret: SECRET, salt: SESSION_COOKIE });
		const client = setup().client('https://app.example');
		client.setCookie(`__Secure-${SESSION_COOKIE}`, token);
		expect(await client.session()).toBeNull();
	});

	test('an @auth/core token from another secret is not a session', async () => {
		const token = await authjsEncode({ token: { sub: ALICE.id }, secret: 'another-secret-cccccccccccccccccccccccccccc', salt: SESSION_COOKIE });
		const client = setup().client();
		client.setCookie(SESSION_COOKIE, token);
		expect(await client.session()).toBeNull();
		expect(await kitDecode({ token, secret: SECRET, salt: SESSION_COOKIE })).toBeNull();
	});

	test('kitauth public encode/decode agree with @auth/core for a rotated secret list', async () => {
		const OLD = 'old-secret-dddddddddddddddddddddddddddddddd';
		const token = await authjsEncode({ token: { sub: ALICE.id }, secret: OLD, salt: SESSION_COOKIE });
		expect(await kitDecode({ token, secret: [SECRET, OLD], salt: SESSION_COOKIE })).toMatchObject({ sub: ALICE.id });
		const s = setup({ secret: [SECRET, OLD], providers: [passwordProvider()] });
		const client = s.client();
		client.setCookie(SESSION_COOKIE, token);
		expect(await client.session()).not.toBeNull();
	});
});
