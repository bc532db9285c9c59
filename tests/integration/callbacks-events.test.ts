import { describe, expect, test } from 'vitest';
import { AccessDenied, EventError } from '../../src/lib/core/index.js';
import type { EventCallbacks, JWTCallbackParams, Session, SignInCallbackParams } from '../../src/lib/core/types.js';
import {
	ALICE,
	ALICE_LOGIN,
	ORIGIN,
	SESSION_COOKIE,
	location,
	sessionCookiesCleared,
	sessionCookiesSet,
	setup,
	signedIn
} from './fixtures.js';

describe('signIn callback', () => {
	test('receives the user, the credentials account and the submitted fields; true continues', async () => {
		const calls: SignInCallbackParams[] = [];
		const s = setup({ callbacks: { signIn: (params) => (calls.push(params), true) } });
		const res = await s.client().signInWithCredentials('credentials', { ...ALICE_LOGIN });
		expect(res.status).toBe(302);
		expect(sessionCookiesSet(res)).toEqual([SESSION_COOKIE]);
		expect(calls).toHaveLength(1);
		expect(calls[0]!.user).toMatchObject(ALICE);
		expect(calls[0]!.account).toEqual({ type: 'credentials', provider: 'credentials', providerAccountId: ALICE.id });
		expect(calls[0]!.credentials).toMatchObject(ALICE_LOGIN);
		expect(calls[0]!.credentials).not.toHaveProperty('csrfToken');
	});

	test('false: 302 to the error page with AccessDenied (403 there), no session cookie', async () => {
		const s = setup({ callbacks: { signIn: () => false } });
		const client = s.client();
		const res = await client.signInWithCredentials('credentials', { ...ALICE_LOGIN, callbackUrl: '/x' });
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(`${ORIGIN}/auth/error?error=AccessDenied`);
		expect(sessionCookiesSet(res)).toEqual([]);
		expect(await client.session()).toBeNull();
		const page = await client.request(res.headers.get('location')!);
		expect(page.status).toBe(403);
	});

	test('a string: goes there through the redirect callback, no session cookie', async () => {
		const redirects: { url: string; baseUrl: string }[] = [];
		const s = setup({
			callbacks: {
				signIn: () => '/onboarding',
				redirect: (params) => (redirects.push(params), `${params.baseUrl}${params.url}?via=redirect`)
			}
		});
		const client = s.client();
		const res = await client.signInWithCredentials('credentials', { ...ALICE_LOGIN });
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(`${ORIGIN}/onboarding?via=redirect`);
		expect(redirects).toContainEqual({ url: '/onboarding', baseUrl: ORIGIN });
		expect(sessionCookiesSet(res)).toEqual([]);
		expect(await client.session()).toBeNull();
	});

	test('a foreign string is kept on our origin by the default redirect callback', async () => {
		const s = setup({ callbacks: { signIn: () => 'https://evil.example/phish' } });
		const res = await s.client().signInWithCredentials('credentials', { ...ALICE_LOGIN });
		expect(location(res).href).toBe(`${ORIGIN}/`);
		expect(sessionCookiesSet(res)).toEqual([]);
	});

	test('throwing: AccessDenied carrying the thrown message (logged, not in the URL), no session cookie', async () => {
		const thrown = new Error('banned');
		const s = setup({
			callbacks: {
				signIn: () => {
					throw thrown;
				}
			}
		});
		const res = await s.client().signInWithCredentials('credentials', { ...ALICE_LOGIN });
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(`${ORIGIN}/auth/error?error=AccessDenied`);
		expect(sessionCookiesSet(res)).toEqual([]);
		expect(res.headers.get('location')).not.toContain('banned');
		// The app learns why through its logger: the AccessDenied passed on holds the message and the error.
		expect(s.errors).toHaveLength(1);
		const [logged] = s.errors;
		expect(logged).toBeInstanceOf(AccessDenied);
		expect(logged).toMatchObject({ type: 'AccessDenied', message: 'banned' });
		expect((logged as AccessDenied).cause?.err).toBe(thrown);
	});
});

describe('redirect callback', () => {
	test('decides the callbackUrl of a sign-in: it may allow another origin the app trusts', async () => {
		const calls: { url: string; baseUrl: string }[] = [];
		const s = setup({
			callbacks: {
				redirect: ({ url, baseUrl }) => {
					calls.push({ url, baseUrl });
					return url.startsWith('https://docs.example/') ? url : baseUrl;
				}
			}
		});
		const res = await s.client().signInWithCredentials('credentials', { ...ALICE_LOGIN, callbackUrl: 'https://docs.example/page' });
		expect(res.headers.get('location')).toBe('https://docs.example/page');
		expect(calls).toContainEqual({ url: 'https://docs.example/page', baseUrl: ORIGIN });
		const other = await s.client().signInWithCredentials('credentials', { ...ALICE_LOGIN, callbackUrl: 'https://evil.example/' });
		expect(location(other).href).toBe(`${ORIGIN}/`);
	});

	test('a relative path it returns is made absolute on our origin', async () => {
		const s = setup({ callbacks: { redirect: () => '/welcome' } });
		const res = await s.client().postForm('signout', { callbackUrl: '/anything' });
		expect(res.headers.get('location')).toBe(`${ORIGIN}/welcome`);
	});

	test.each(['javascript:alert(1)', '//evil.example', '/\\evil.example', 'http://['])(
		'an unusable value it returns (%s) falls back to our origin',
		async (value) => {
			const s = setup({ callbacks: { redirect: () => value } });
			const res = await s.client().signInWithCredentials('credentials', { ...ALICE_LOGIN, callbackUrl: '/x' });
			expect(res.status).toBe(302);
			expect(location(res).href).toBe(`${ORIGIN}/`);
		}
	);
});

describe('jwt callback', () => {
	test('at sign-in: trigger "signIn" with user and account; custom claims persist across reads', async () => {
		const calls: JWTCallbackParams[] = [];
		const s = setup({
			callbacks: {
				jwt: (params) => {
					calls.push(params);
					return params.trigger === 'signIn' ? { ...params.token, role: 'admin' } : params.token;
				},
				session: ({ session, token }) => ({ ...session, role: token?.role })
			}
		});
		const client = await signedIn(s);
		expect(calls).toHaveLength(1);
		expect(calls[0]).toMatchObject({
			trigger: 'signIn',
			user: ALICE,
			account: { type: 'credentials', provider: 'credentials', providerAccountId: ALICE.id },
			token: { name: ALICE.name, email: ALICE.email, sub: ALICE.id }
		});
		const session = (await client.session()) as Session;
		expect(session.role).toBe('admin');
		expect(calls).toHaveLength(2);
		expect(calls[1]!.trigger).toBeUndefined();
		expect(calls[1]!.user).toBeUndefined();
		expect(calls[1]!.token).toMatchObject({ role: 'admin', sub: ALICE.id });
	});

	test('returning null at sign-in: no session cookie, no session', async () => {
		const s = setup({ callbacks: { jwt: ({ trigger, token }) => (trigger === 'signIn' ? null : token) } });
		const client = s.client();
		const res = await client.signInWithCredentials('credentials', { ...ALICE_LOGIN });
		expect(sessionCookiesSet(res)).toEqual([]);
		expect(await client.session()).toBeNull();
	});

	test('returning null on a read: session null and the cookie cleared', async () => {
		let revoke = false;
		const s = setup({ callbacks: { jwt: ({ token }) => (revoke ? null : token) } });
		const client = await signedIn(s);
		revoke = true;
		const res = await client.get('session');
		expect(await res.json()).toBeNull();
		expect(sessionCookiesCleared(res)).toEqual([SESSION_COOKIE]);
	});
});

describe('session callback', () => {
	test('custom fields are exposed by GET session', async () => {
		const s = setup({
			callbacks: {
				session: ({ session, token }) => ({
					...session,
					userId: token?.sub,
					user: { ...session.user, id: token?.sub }
				})
			}
		});
		const client = await signedIn(s);
		const session = (await client.session()) as Session;
		expect(session.userId).toBe(ALICE.id);
		expect(session.user).toEqual({ id: ALICE.id, name: ALICE.name, email: ALICE.email });
	});

	test('without a session callback, token claims never leak into the session', async () => {
		const s = setup({ callbacks: { jwt: ({ token }) => ({ ...token, secretClaim: 'internal' }) } });
		const client = await signedIn(s);
		const text = await (await client.get('session')).text();
		expect(text).not.toContain('internal');
		expect(text).not.toContain(ALICE.id);
	});
});

describe('events', () => {
	test('signIn, session and signOut fire with their payloads', async () => {
		const seen: { name: string; message: unknown }[] = [];
		const record =
			<K extends keyof EventCallbacks>(name: K) =>
			(message: Parameters<EventCallbacks[K]>[0]) =>
				void seen.push({ name, message });
		const s = setup({ events: { signIn: record('signIn'), session: record('session'), signOut: record('signOut') } });
		const client = await signedIn(s);
		expect(seen).toHaveLength(1);
		expect(seen[0]).toMatchObject({
			name: 'signIn',
			message: {
				user: ALICE,
				account: { type: 'credentials', provider: 'credentials', providerAccountId: ALICE.id },
				isNewUser: false
			}
		});

		const session = await client.session();
		expect(seen[1]).toEqual({
			name: 'session',
			message: { session, token: expect.objectContaining({ sub: ALICE.id, email: ALICE.email }) }
		});

		await client.postForm('signout');
		expect(seen.map((e) => e.name)).toEqual(['signIn', 'session', 'signOut']);
		expect(seen[2]!.message).toEqual({ token: expect.objectContaining({ sub: ALICE.id, name: ALICE.name }) });
	});

	test('no session event without a session', async () => {
		const names: string[] = [];
		const s = setup({ events: { session: () => void names.push('session') } });
		await s.client().session();
		expect(names).toEqual([]);
	});

	test('throwing handlers are logged as EventError and never break the flow', async () => {
		const boom = () => {
			throw new Error('audit log down');
		};
		const s = setup({ events: { signIn: boom, session: boom, signOut: boom } });
		const client = s.client();
		const signIn = await client.signInWithCredentials('credentials', { ...ALICE_LOGIN, callbackUrl: '/home' });
		expect(signIn.status).toBe(302);
		expect(signIn.headers.get('location')).toBe(`${ORIGIN}/home`);
		expect(sessionCookiesSet(signIn)).toEqual([SESSION_COOKIE]);

		expect(((await client.session()) as Session).user?.name).toBe(ALICE.name);

		const signOut = await client.postForm('signout');
		expect(signOut.status).toBe(302);
		expect(sessionCookiesCleared(signOut)).toEqual([SESSION_COOKIE]);
		expect(await client.session()).toBeNull();

		expect(s.errors.filter((e) => e instanceof EventError)).toHaveLength(3);
	});

	test('a rejecting async handler is caught too', async () => {
		const s = setup({ events: { signIn: async () => Promise.reject(new Error('async failure')) } });
		const res = await s.client().signInWithCredentials('credentials', { ...ALICE_LOGIN });
		expect(res.status).toBe(302);
		expect(sessionCookiesSet(res)).toEqual([SESSION_COOKIE]);
		expect(s.errors.some((e) => e instanceof EventError)).toBe(true);
	});
});
