import { describe, expect, test } from 'vitest';
import { CallbackRouteError, CredentialsSignin } from '../../src/lib/core/index.js';
import { decode } from '../../src/lib/jwt.js';
import type { Session } from '../../src/lib/core/types.js';
import { setCookies } from '../support/client.js';
import {
	ALICE,
	ALICE_LOGIN,
	CALLBACK_COOKIE,
	ORIGIN,
	SECRET,
	SESSION_COOKIE,
	location,
	passwordProvider,
	sessionCookiesCleared,
	sessionCookiesSet,
	setup
} from './fixtures.js';

class InvalidOtp extends CredentialsSignin {
	override code = 'invalid_otp';
}

class HostileCode extends CredentialsSignin {
	override code = '"><script>alert(1)</script>';
}

describe('POST callback/<credentials-id>', () => {
	test('success: a session cookie (a 5-part JWE) and a 302 to callbackUrl', async () => {
		const client = setup().client();
		const res = await client.signInWithCredentials('credentials', { ...ALICE_LOGIN, callbackUrl: '/dashboard' });
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(`${ORIGIN}/dashboard`);
		expect(sessionCookiesSet(res)).toEqual([SESSION_COOKIE]);
		const token = client.cookie(SESSION_COOKIE)!;
		expect(token.split('.')).toHaveLength(5);
		const claims = await decode({ token, secret: SECRET, salt: SESSION_COOKIE });
		expect(claims).toMatchObject({ sub: ALICE.id, name: ALICE.name, email: ALICE.email });
		expect(typeof claims?.jti).toBe('string');
		expect(claims!.exp! - claims!.iat!).toBe(30 * 24 * 3600);
		const session = (await client.session()) as Session;
		expect(session.user).toEqual({ name: ALICE.name, email: ALICE.email });
	});

	test('without callbackUrl: 302 to the origin', async () => {
		const res = await setup().client().signInWithCredentials('credentials', { ...ALICE_LOGIN });
		expect(res.headers.get('location')).toBe(ORIGIN);
	});

	test('callbackUrl from the query, then from the callback-url cookie', async () => {
		const s = setup();
		const byQuery = await s.client().signInWithCredentials('credentials', { ...ALICE_LOGIN }, { query: { callbackUrl: '/q' } });
		expect(byQuery.headers.get('location')).toBe(`${ORIGIN}/q`);
		const client = s.client();
		client.setCookie(CALLBACK_COOKIE, `${ORIGIN}/from-cookie`);
		const byCookie = await client.signInWithCredentials('credentials', { ...ALICE_LOGIN });
		expect(byCookie.headers.get('location')).toBe(`${ORIGIN}/from-cookie`);
	});

	test('chunk-aware: stale chunks of an older cookie are deleted when a single cookie is written', async () => {
		const client = setup().client();
		client.setCookie(`${SESSION_COOKIE}.0`, 'stale-chunk-0');
		client.setCookie(`${SESSION_COOKIE}.1`, 'stale-chunk-1');
		const res = await client.signInWithCredentials('credentials', { ...ALICE_LOGIN });
		expect(res.status).toBe(302);
		expect(sessionCookiesCleared(res).sort()).toEqual([`${SESSION_COOKIE}.0`, `${SESSION_COOKIE}.1`]);
		expect(sessionCookiesSet(res)).toEqual([SESSION_COOKIE]);
		expect([...client.jar.keys()].filter((n) => n.startsWith(SESSION_COOKIE))).toEqual([SESSION_COOKIE]);
		expect(((await client.session()) as Session).user?.name).toBe(ALICE.name);
	});

	test('authorize() gets the submitted fields (without the CSRF token) and a JSON Request', async () => {
		const seen: { credentials?: Record<string, unknown>; method?: string; body?: unknown; url?: string } = {};
		const s = setup({
			providers: [
				passwordProvider({
					authorize: async (credentials, request) => {
						seen.credentials = { ...credentials };
						seen.method = request.method;
						seen.url = request.url;
						seen.body = await request.json();
						return { ...ALICE };
					}
				})
			]
		});
		const res = await s.client().signInWithCredentials('credentials', { ...ALICE_LOGIN, callbackUrl: '/x' });
		expect(res.status).toBe(302);
		expect(seen.credentials).toEqual({ ...ALICE_LOGIN, callbackUrl: '/x' });
		expect(seen.method).toBe('POST');
		expect(seen.url).toBe(`${ORIGIN}/auth/callback/credentials`);
		expect(seen.body).toEqual({ ...ALICE_LOGIN, callbackUrl: '/x' });
	});

	test('a user without an id gets a random UUID as sub', async () => {
		const s = setup({ providers: [passwordProvider({ authorize: () => ({ name: 'No Id' }) })] });
		const client = s.client();
		await client.signInWithCredentials('credentials', {});
		const claims = await decode({ token: client.cookie(SESSION_COOKIE), secret: SECRET, salt: SESSION_COOKIE });
		expect(claims?.sub).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
	});

	test('authorize() returning null: 302 to signin?error=CredentialsSignin&code=credentials, no session', async () => {
		const client = setup().client();
		const res = await client.signInWithCredentials('credentials', { username: 'alice', password: 'wrong' });
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(`${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`);
		expect(sessionCookiesSet(res)).toEqual([]);
		expect(await client.session()).toBeNull();
	});

	test('with pages.signIn the refusal lands there', async () => {
		const res = await setup({ pages: { signIn: '/login' } })
			.client()
			.signInWithCredentials('credentials', { username: 'alice', password: 'wrong' });
		expect(res.headers.get('location')).toBe(`${ORIGIN}/login?error=CredentialsSignin&code=credentials`);
	});

	test('a thrown CredentialsSignin subclass puts its own code in the URL', async () => {
		const s = setup({
			providers: [
				passwordProvider({
					authorize: () => {
						throw new InvalidOtp();
					}
				})
			]
		});
		const res = await s.client().signInWithCredentials('credentials', { ...ALICE_LOGIN });
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(`${ORIGIN}/auth/signin?error=CredentialsSignin&code=invalid_otp`);
		expect(sessionCookiesSet(res)).toEqual([]);
	});

	test('a code that is unsafe in a URL falls back to "credentials"', async () => {
		const s = setup({
			providers: [
				passwordProvider({
					authorize: () => {
						throw new HostileCode();
					}
				})
			]
		});
		const res = await s.client().signInWithCredentials('credentials', { ...ALICE_LOGIN });
		expect(location(res).searchParams.get('code')).toBe('credentials');
	});

	test('a plain Error thrown by authorize(): error=Configuration, logged with its cause, no session', async () => {
		const s = setup({
			providers: [
				passwordProvider({
					authorize: () => {
						throw new Error('database is down');
					}
				})
			]
		});
		const res = await s.client().signInWithCredentials('credentials', { ...ALICE_LOGIN });
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(`${ORIGIN}/auth/error?error=Configuration`);
		expect(sessionCookiesSet(res)).toEqual([]);
		const logged = s.errors.find((e) => e instanceof CallbackRouteError) as CallbackRouteError | undefined;
		expect(logged?.cause?.err?.message).toBe('database is down');
		expect(res.headers.get('location')).not.toContain('database');
	});

	test('GET on a credentials callback: 400, no session', async () => {
		const client = setup().client();
		const res = await client.get('callback/credentials', { query: { ...ALICE_LOGIN } });
		expect(res.status).toBe(400);
		expect(await res.text()).toBe('Bad request: callbacks of "credentials" must be POST requests');
		expect(sessionCookiesSet(res)).toEqual([]);
		expect(await client.session()).toBeNull();
	});

	test('an unknown provider id: 404, no session', async () => {
		const res = await setup().client().signInWithCredentials('nope', { ...ALICE_LOGIN });
		expect(res.status).toBe(404);
		expect(await res.text()).toBe('Bad request: no such provider');
		expect(sessionCookiesSet(res)).toEqual([]);
	});

	test('a provider with a custom id is reached by that id', async () => {
		const s = setup({ providers: [passwordProvider({ id: 'password', name: 'Password' })] });
		const res = await s.client().signInWithCredentials('password', { ...ALICE_LOGIN });
		expect(res.status).toBe(302);
		expect(sessionCookiesSet(res)).toEqual([SESSION_COOKIE]);
		expect(setCookies(res).some((c) => c.name === SESSION_COOKIE)).toBe(true);
	});

	test('a new sign-in replaces a planted session cookie with a fresh token', async () => {
		const s = setup();
		const first = s.client();
		await first.signInWithCredentials('credentials', { ...ALICE_LOGIN });
		const planted = first.cookie(SESSION_COOKIE)!;
		const victim = s.client();
		victim.setCookie(SESSION_COOKIE, planted);
		await victim.signInWithCredentials('credentials', { ...ALICE_LOGIN });
		const fresh = victim.cookie(SESSION_COOKIE)!;
		expect(fresh).not.toBe(planted);
		const a = await decode({ token: planted, secret: SECRET, salt: SESSION_COOKIE });
		const b = await decode({ token: fresh, secret: SECRET, salt: SESSION_COOKIE });
		expect(b?.jti).not.toBe(a?.jti);
	});
});
