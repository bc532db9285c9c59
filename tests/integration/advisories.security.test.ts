/**
 * One named regression test per published advisory of Auth.js (`research/authjs-wire.md` §5) and
 * better-auth (`research/peer-advisories.md`) whose bug class applies to kitauth, each driven
 * through the real core (real test IdP, real SMTP server, real libSQL). Many classes have deeper
 * suites of their own (`*.security.test.ts`); these tests pin the advisory itself.
 *
 * Advisories whose class does not apply, and why (no test for them):
 * - CVE-2026-45337 / GHSA-cq3f-vc6p-68fh (better-auth device authorization: any session claims a
 *   pending device code): kitauth has no device-authorization grant.
 * - Convex GHSA-4qvm-r4pr-v3wg (a JWT issued before the second factor completes): kitauth has no
 *   second-factor step; a session is only issued at the very end of `completeSignIn`, after the
 *   `signIn` callback approved (callbacks-events.test.ts).
 * - The authorization-server halves of CVE-2026-67336 / GHSA-9h47-pqcx-hjr4 (an OIDC provider
 *   advertising `alg: none`, accepting PKCE `plain`), of CVE-2026-67333 (the `redirect_uri` an AS
 *   accepts) and of GHSA-pw9m-5jxm-xr6h / GHSA-392p-2q2v-4372 / GHSA-7w99-5wm4-3g79 (an AS's
 *   refresh-token rotation): kitauth is never an authorization server. Their relying-party halves
 *   are tested below.
 * - @better-auth/scim CVE-2026-67330 (SCIM provider ids colliding) and GHSA-fmh4-wcc4-5jm3
 *   (organization invitations): kitauth has neither SCIM nor organizations; the classes behind
 *   them (provider-id collisions, objects checked against their owner) are tested below.
 * - GHSA-5rr4-8452-hf4v / GHSA-gv74-j8m3-fg5f (better-auth SSO: providers registered at run time
 *   with unchecked URLs): kitauth's providers come from the configuration only; what remains of the
 *   class (no provider URL fetched over plain http off loopback) is tested below.
 * - Dependency advisories (SimpleWebAuthn GHSA-6hxq-p678-4hr2, x5c self-signed roots; nodemailer
 *   GHSA-mm7p-fcc7-pg87 / GHSA-vvjj-xcjg-gr5g): versions are pinned past the fixes
 *   (`@simplewebauthn/server` 14.0.3, attestation `none` requested; the address normalizer refuses
 *   what the nodemailer parser got wrong whatever its version — GHSA-5jpx-9hw9-2fx4 below).
 */
import { createClient } from '@libsql/client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { LibSQLAdapter, migrate } from '../../src/lib/adapters/libsql/index.js';
import { Auth, createAuthServer, customFetch, lazyAuthServer } from '../../src/lib/core/index.js';
import { getToken } from '../../src/lib/jwt.js';
import { InvalidEndpoints, InvalidProvider } from '../../src/lib/core/errors.js';
import { sealToken } from '../../src/lib/core/session/jwt.js';
import { createKeyring } from '../../src/lib/core/crypto/index.js';
import type { AuthConfig, OAuthConfig, Session } from '../../src/lib/core/types.js';
import Credentials from '../../src/lib/providers/credentials.js';
import Nodemailer from '../../src/lib/providers/nodemailer.js';
import { TestClient } from '../support/client.js';
import {
	APP_ORIGIN,
	callbackUri,
	CHECK_COOKIES,
	explain,
	oauthApp,
	sessionCookiesSet as oauthSessionCookiesSet,
	signInPageError,
	startSignIn,
	STATE_COOKIE,
	expectRefused
} from '../support/oauth-app.js';
import { rogueOidc, startRogueIdp, type RogueIdp } from '../support/rogue-idp.js';
import { openStore, type Store } from './database-fixtures.js';
import { emailSetup, followLink, FROM, lastMessageTo, openEmailWorld, requestLink, type EmailWorld } from './email-fixtures.js';
import {
	ALICE,
	ALICE_LOGIN,
	expectNoSessionGranted,
	location,
	ORIGIN,
	SECRET,
	SESSION_COOKIE,
	sessionCookiesSet,
	sessionWithUserId,
	setup,
	signedIn
} from './fixtures.js';

const CALLBACK_ERROR = signInPageError('OAuthCallbackError');
const EMAIL_SIGNIN = `${ORIGIN}/auth/signin?error=EmailSignin`;
const SITE = 'https://auth.example.org';

let rogue: RogueIdp;
const closers: (() => unknown)[] = [];

beforeAll(async () => {
	rogue = await startRogueIdp({ redirectUris: ['rogue', 'rogue-nopkce', 'rogue-b'].map((id) => callbackUri(id)) });
});
afterAll(async () => {
	await rogue.close();
});
beforeEach(() => {
	rogue.reset();
	rogue.resetCounts();
});
afterEach(async () => {
	vi.useRealTimers();
	while (closers.length) await closers.pop()!();
});

const rogueProvider = (overrides: Partial<OAuthConfig> = {}): OAuthConfig => rogueOidc(rogue.issuer, overrides);

/** A flow started in `browser`; the IdP's redirect back, not yet requested. */
async function authorized(browser: TestClient, providerId = 'rogue', login?: string) {
	const start = await startSignIn(browser, providerId);
	if (login) start.url.searchParams.set('login_hint', login);
	return { start, callback: await rogue.completeInteraction(start.url) };
}

async function emailWorld(): Promise<EmailWorld> {
	const world = await openEmailWorld();
	closers.push(() => world.close());
	return world;
}

async function store(): Promise<Store> {
	const opened = await openStore('memory');
	closers.push(() => opened.close());
	return opened;
}

describe('Auth.js advisories', () => {
	test('GHSA-pg53-56cg-4m8q (CVE-2021-21310): a link token used with another address signs nobody in', async () => {
		const w = await emailWorld();
		const s = emailSetup(w);
		await requestLink(s.client(), 'attacker@evil.example');
		const { link } = lastMessageTo(w, 'attacker@evil.example');
		link.searchParams.set('email', 'victim@corp.example');
		const { signIn } = await followLink(s.client(), link);
		await expectNoSessionGranted(signIn);
		expect(location(signIn).searchParams.get('error')).toBe('Verification');
	});

	test('GHSA-4rxr-27mm-mxq9 (CVE-2022-39263): the right address with a wrong token gets nothing, and the real link survives', async () => {
		const w = await emailWorld();
		const s = emailSetup(w);
		await requestLink(s.client(), 'victim@corp.example');
		const { link } = lastMessageTo(w, 'victim@corp.example');
		const forged = new URL(link);
		forged.searchParams.set('token', 'f'.repeat(64));
		const refused = await followLink(s.client(), forged);
		await expectNoSessionGranted(refused.signIn);
		const real = await followLink(s.client(), link);
		expect(sessionCookiesSet(real.signIn)).toEqual([SESSION_COOKIE]);
	});

	test('GHSA-f9wg-5f46-cjmw (CVE-2022-24858): a foreign callbackUrl in the body, the query or the cookie never leaves the site', async () => {
		const s = setup();
		const evil = 'https://evil.example/steal';
		const body = await s.client().signInWithCredentials('credentials', { ...ALICE_LOGIN, callbackUrl: evil });
		expect(location(body).origin).toBe(ORIGIN);
		const query = await s.client().postForm('signin', {}, { query: { callbackUrl: evil } });
		expect(location(query).href).not.toContain('evil.example/steal"');
		expect(new URL(location(query).searchParams.get('callbackUrl') ?? ORIGIN).origin).toBe(ORIGIN);
		const client = await signedIn(s);
		client.setCookie('authjs.callback-url', evil);
		const out = await client.postForm('signout');
		expect(location(out).origin).toBe(ORIGIN);
	});

	test('CVE-2022-29214: after an OAuth callback, a foreign callbackUrl cookie redirects on the site', async () => {
		const a = oauthApp([rogueProvider()]);
		const browser = a.browser();
		const { callback } = await authorized(browser);
		browser.setCookie('authjs.callback-url', 'https://evil.example/after');
		const res = await browser.get(callback.href);
		expect(new URL(res.headers.get('location') ?? '').origin, explain(a.errors)).toBe(APP_ORIGIN);
		expect(oauthSessionCookiesSet(res)).toHaveLength(1);
	});

	test('GHSA-g5fm-jp9v-2432 (CVE-2022-31093): a malformed callbackUrl (http://[) in the query, body or cookie is answered, never a 5xx', async () => {
		const s = setup();
		const client = s.client();
		client.setCookie('authjs.callback-url', 'http://[');
		for (const res of [
			await client.get('signin', { query: { callbackUrl: 'http://[' } }),
			await client.postForm('signin', { callbackUrl: 'http://[' }),
			await client.signInWithCredentials('credentials', { ...ALICE_LOGIN, callbackUrl: 'http://[' }),
			await client.get('session')
		]) {
			expect(res.status).toBeLessThan(500);
		}
		expect((await client.session()) as Session).toMatchObject({ user: { email: ALICE.email } });
	});

	test('GHSA-pgjx-7f9g-9463 (CVE-2022-31127): HTML in the email field is refused, nothing is sent', async () => {
		const w = await emailWorld();
		const s = emailSetup(w);
		const res = await requestLink(s.client(), 'victim@corp.example, <a href="https://evil.example">click</a>');
		expect(location(res).href).toBe(EMAIL_SIGNIN);
		expect(w.mailbox.connections).toBe(0);
	});

	test('GHSA-xv97-c62v-4587 (CVE-2022-35924): an address list gets no link, and the signIn callback never sees it', async () => {
		const w = await emailWorld();
		const seen: unknown[] = [];
		const s = emailSetup(w, {}, { callbacks: { signIn: ({ user }) => (seen.push(user.email), true) } });
		for (const list of ['attacker@evil.example,victim@corp.example', 'a@evil.example,@corp.example']) {
			expect(location(await requestLink(s.client(), list)).href).toBe(EMAIL_SIGNIN);
		}
		expect(seen).toEqual([]);
		expect(w.mailbox.connections).toBe(0);
		expect(await w.tokens()).toEqual([]);
	});

	test('GHSA-7r7x-4c4q-c4qf (CVE-2023-27490): a callback stripped of its check cookies is refused before any token exchange', async () => {
		const a = oauthApp([rogueProvider()]);
		const browser = a.browser();
		const { callback } = await authorized(browser);
		for (const name of CHECK_COOKIES) browser.jar.delete(name);
		await expectRefused(browser, await browser.get(callback.href), CALLBACK_ERROR);
		expect(rogue.counts().token).toBe(0);
	});

	test('GHSA-v64w-49xw-qq89 (CVE-2023-48309): a sealed check cookie is never a session', async () => {
		const a = oauthApp([rogueProvider()]);
		const browser = a.browser();
		const { cookies } = await startSignIn(browser, 'rogue');
		const fresh = a.browser();
		fresh.setCookie(SESSION_COOKIE, cookies.find((c) => c.name === STATE_COOKIE)!.value);
		expect(await fresh.session()).toBeNull();
	});

	test('GHSA-5jpx-9hw9-2fx4: a quoted local part ("e@attacker"@victim) is refused, nothing is sent', async () => {
		const w = await emailWorld();
		const s = emailSetup(w);
		expect(location(await requestLink(s.client(), '"e@attacker.example"@victim.example')).href).toBe(EMAIL_SIGNIN);
		expect(w.mailbox.connections).toBe(0);
	});

	test('GHSA-7rqj-j65f-68wh (CVE-2026-73420): a fullwidth ＠ is refused (canonicalized before it is checked), nothing is sent', async () => {
		const w = await emailWorld();
		const s = emailSetup(w);
		for (const address of ['attacker@evil.example\uff20victim.example', 'attacker@evil.example\ufe6bvictim.example']) {
			expect(location(await requestLink(s.client(), address)).href).toBe(EMAIL_SIGNIN);
		}
		expect(w.mailbox.connections).toBe(0);
	});

	test('GHSA-xmf8-cvqr-rfgj (CVE-2026-73418): getToken() with "Authorization: Bearer %" is null, and a malformed cookie is no 500', async () => {
		for (const header of ['Bearer %', 'Bearer %E0%A4%A', 'Bearer %%%']) {
			const req = new Request(`${ORIGIN}/api`, { headers: { authorization: header } });
			await expect(getToken({ req, secret: SECRET })).resolves.toBeNull();
		}
		const client = setup().client();
		client.jar.set(SESSION_COOKIE, '%E0%A4%A');
		const res = await client.get('session');
		expect(res.status).toBe(200);
		expect(await res.json()).toBeNull();
	});

	test("GHSA-x445-f3h2-j279 (CVE-2026-73419): provider A's check cookies on provider B's callback are refused", async () => {
		const a = oauthApp([rogueProvider(), rogueProvider({ id: 'rogue-b', name: 'Rogue B' })]);
		const browser = a.browser();
		const { callback } = await authorized(browser);
		callback.pathname = '/auth/callback/rogue-b';
		await expectRefused(browser, await browser.get(callback.href), CALLBACK_ERROR);
		expect(rogue.counts().token).toBe(0);
	});

	test('GHSA-8fpg-xm3f-6cx3 (CVE-2026-73421): a configuration error never reads as a session', async () => {
		const broken = { secret: SECRET, trustHost: true, providers: [{ id: 'broken', name: 'Broken', type: 'oidc', clientId: 'x' }] } as AuthConfig;
		expect(() => createAuthServer(broken)).toThrow(InvalidEndpoints);
		await expect(lazyAuthServer(() => broken)(undefined)).rejects.toThrow(InvalidEndpoints);
		const valid = await signedIn(setup());
		const res = await Auth(new Request(`${ORIGIN}/auth/session`, { headers: { cookie: valid.cookieHeader() } }), { ...broken, logger: { error: () => {} } });
		expect(res.status).toBe(500);
		const body = (await res.json()) as Record<string, unknown>;
		expect(body.user).toBeUndefined();
		expect(body.expires).toBeUndefined();
	});

	test('next-auth v4 fix of 2026-06-11: with AUTH_URL set, a forwarded Host never reaches a generated URL', async () => {
		const s = setup({}, 'http://evil.example', { AUTH_URL: SITE });
		const client = s.client();
		const headers = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' };
		const signin = await client.postForm('signin', { callbackUrl: '/next' }, { headers });
		expect(location(signin).origin).toBe(SITE);
		expect(location(signin).searchParams.get('callbackUrl')).toBe(`${SITE}/next`);
		const ok = await client.signInWithCredentials('credentials', { ...ALICE_LOGIN, callbackUrl: '/home' }, { headers });
		expect(location(ok).href).toBe(`${SITE}/home`);
	});
});

describe('better-auth advisories', () => {
	test('CVE-2026-121802: a state kitauth never issued signs nobody in (no token exchange)', async () => {
		const a = oauthApp([rogueProvider()]);
		const victim = a.browser();
		await startSignIn(victim, 'rogue');
		const attacker = await authorized(a.browser());
		for (const state of ['attacker-chosen-state', attacker.start.url.searchParams.get('state')!]) {
			const crafted = new URL(attacker.callback);
			crafted.searchParams.set('state', state);
			rogue.resetCounts();
			await expectRefused(victim, await victim.get(crafted.href), CALLBACK_ERROR);
			expect(rogue.counts().token).toBe(0);
			await startSignIn(victim, 'rogue');
		}
	});

	test("better-auth 1.7.16: an OAuth profile is bound to the ID token's subject (userinfo naming another sub is refused)", async () => {
		rogue.behaviour.userinfoSub = 'sub-of-someone-else';
		const a = oauthApp([rogueProvider({ idToken: false })]);
		const browser = a.browser();
		const { callback } = await authorized(browser);
		await expectRefused(browser, await browser.get(callback.href), CALLBACK_ERROR);
		expect(rogue.counts().userinfo).toBe(1);
	});

	test('CVE-2026-110862: an OAuth state is no magic-link token, and a magic-link token no OAuth state', async () => {
		const w = await emailWorld();
		const s = emailSetup(w, {}, { providers: [Nodemailer({ server: w.mailbox.url, from: FROM }), rogueProvider()] });
		rogue.allowRedirectUri(callbackUri('rogue', ORIGIN));
		const browser = s.client();
		const start = await startSignIn(browser, 'rogue');
		const state = start.url.searchParams.get('state')!;
		const asLink = new URL(`${ORIGIN}/auth/callback/nodemailer`);
		asLink.searchParams.set('token', state);
		asLink.searchParams.set('email', 'victim@corp.example');
		const link = await followLink(s.client(), asLink);
		await expectNoSessionGranted(link.signIn);
		expect(location(link.signIn).searchParams.get('error')).toBe('Verification');

		await requestLink(s.client(), 'ann@example.com');
		const token = lastMessageTo(w, 'ann@example.com').link.searchParams.get('token')!;
		const callback = await rogue.completeInteraction(start.url);
		callback.searchParams.set('state', token);
		const res = await browser.get(callback.href);
		await expectNoSessionGranted(res);
		expect(location(res).searchParams.get('error')).toBe('OAuthCallbackError');
	});

	test('CVE-2026-110864: no implicit linking by email, and a forged proxy state is never forwarded', async () => {
		const db = await store();
		await db.adapter.createUser({ id: 'victim', email: 'alice@example.test', emailVerified: new Date() });
		const a = oauthApp([rogueProvider()], { adapter: db.adapter });
		const browser = a.browser();
		const { callback } = await authorized(browser);
		const res = await browser.get(callback.href);
		expect(res.headers.get('location')).toBe(signInPageError('OAuthAccountNotLinked'));
		expect((await db.db.execute('SELECT count(*) AS n FROM account')).rows[0]!.n).toBe(0);

		// The stable deployment of a redirect proxy forwards only states it sealed itself.
		const proxy = oauthApp([rogueProvider()], { redirectProxyUrl: `${APP_ORIGIN}/auth` });
		const forged = await sealToken(createKeyring(['another-secret-0123456789abcdef0123456789']), 'kitauth.oauth-state', { origin: 'https://evil.example', random: 'x' }, 900);
		for (const state of [forged, Buffer.from(JSON.stringify({ origin: 'https://evil.example' })).toString('base64url')]) {
			const forward = await proxy.browser().get(`callback/rogue?code=stolen&state=${encodeURIComponent(state)}`);
			expect(forward.headers.get('location') ?? '').not.toContain('evil.example');
			await expectNoSessionGranted(forward);
		}
	});

	test('CVE-2026-53516 (GHSA-g38m-r43w-p2q7): an unverified pre-registered address never collects an OAuth account, even with dangerous email linking', async () => {
		const db = await store();
		// The attacker signed up first with the victim's address, never verified.
		await db.adapter.createUser({ id: 'attacker', email: 'alice@example.test', emailVerified: null });
		const a = oauthApp([rogueProvider({ allowDangerousEmailAccountLinking: true })], { adapter: db.adapter });
		const browser = a.browser();
		const { callback } = await authorized(browser);
		const res = await browser.get(callback.href);
		expect(res.headers.get('location')).toBe(signInPageError('OAuthAccountNotLinked'));
		expect(await browser.session()).toBeNull();
		expect((await db.db.execute("SELECT count(*) AS n FROM account WHERE userId = 'attacker'")).rows[0]!.n).toBe(0);
	});

	test('CVE-2026-67330 (the class: provider-id collisions): two providers with one id are refused at start-up', () => {
		const config = (ids: string[]) => ({ secret: SECRET, trustHost: true, providers: ids.map((id) => rogueProvider({ id })) }) as AuthConfig;
		expect(() => createAuthServer(config(['rogue', 'rogue']))).toThrow(InvalidProvider);
		expect(() => createAuthServer(config(['rogue', 'rogue-b']))).not.toThrow();
	});

	test('CVE-2026-45364: IPv6 addresses of one /64, and textual aliases of one address, count as one client', async () => {
		const s = setup({ rateLimit: { rules: { credentials: { address: { limit: 3, window: 600 }, account: false } } } });
		const server = createAuthServer(s.config);
		const attempt = async (clientAddress: string) => {
			const client = new TestClient((request) => server.handle(request, { clientAddress }), { origin: ORIGIN });
			return client.signInWithCredentials('credentials', { username: 'alice', password: 'wrong' });
		};
		const v6 = ['2001:db8:1:2::1', '2001:db8:1:2:ffff::99', '2001:0db8:0001:0002:0000:0000:0000:0003', '2001:DB8:1:2::abcd'];
		const statuses = [];
		for (const address of v6) statuses.push((await attempt(address)).status);
		expect(statuses).toEqual([302, 302, 302, 429]);
		const v4 = ['203.0.113.7', '::ffff:203.0.113.7', '::ffff:cb00:7107', '203.0.113.7'];
		const v4Statuses = [];
		for (const address of v4) v4Statuses.push((await attempt(address)).status);
		expect(v4Statuses).toEqual([302, 302, 302, 429]);
		// Another /64 is another client.
		expect((await attempt('2001:db8:1:3::1')).status).toBe(302);
	});

	test('GHSA-wxw3-q3m9-c3jr: a mismatched state is refused even when the provider uses no PKCE', async () => {
		rogue.behaviour.pkceOptional = true;
		const a = oauthApp([rogueProvider({ id: 'rogue-nopkce', checks: ['state'] })]);
		const control = a.browser();
		const ok = await authorized(control, 'rogue-nopkce');
		expect(ok.start.url.searchParams.has('code_challenge')).toBe(false);
		expect((await control.get(ok.callback.href)).headers.get('location'), explain(a.errors)).toBe(`${APP_ORIGIN}/`);

		rogue.resetCounts();
		const victim = a.browser();
		await startSignIn(victim, 'rogue-nopkce');
		const attacker = await authorized(a.browser(), 'rogue-nopkce');
		await expectRefused(victim, await victim.get(attacker.callback.href), CALLBACK_ERROR);
		expect(rogue.counts().token).toBe(0);
	});

	test('CVE-2026-67336 / GHSA-9h47-pqcx-hjr4 (relying-party side): PKCE is always S256, and an alg:none ID token is refused', async () => {
		const a = oauthApp([rogueProvider()]);
		const browser = a.browser();
		const { start, callback } = await authorized(browser);
		expect(start.url.searchParams.get('code_challenge_method')).toBe('S256');
		rogue.nextTokenResponse('alg-none');
		await expectRefused(browser, await browser.get(callback.href), CALLBACK_ERROR);
	});

	test('CVE-2026-67333 / GHSA-86j7-9j95-vpqj (relying-party side): a javascript: redirect target is never followed', async () => {
		const s = setup({ callbacks: { redirect: ({ url }) => (url.includes('callback') ? 'javascript:alert(document.cookie)' : url) } });
		const res = await s.client().signInWithCredentials('credentials', { ...ALICE_LOGIN, callbackUrl: 'javascript:alert(1)' });
		expect(location(res).origin).toBe(ORIGIN);
		const viaCallback = await setup({ callbacks: { redirect: () => 'javascript:alert(document.cookie)' } })
			.client()
			.signInWithCredentials('credentials', { ...ALICE_LOGIN, callbackUrl: '/callback' });
		expect(location(viaCallback).origin).toBe(ORIGIN);
		expect(location(viaCallback).protocol).toBe('http:');
	});

	test('GHSA-pw9m-5jxm-xr6h, GHSA-392p-2q2v-4372, GHSA-7w99-5wm4-3g79 (relying-party side): a replayed code callback gets no second session', async () => {
		rogue.behaviour.reuseCodes = true;
		const a = oauthApp([rogueProvider()]);
		const browser = a.browser();
		const { callback } = await authorized(browser);
		const cookies = new Map([...browser.jar].filter(([name]) => (CHECK_COOKIES as readonly string[]).includes(name)));
		expect(oauthSessionCookiesSet(await browser.get(callback.href))).toHaveLength(1);
		const thief = a.browser();
		for (const [name, value] of cookies) thief.jar.set(name, value);
		await expectRefused(thief, await thief.get(callback.href), CALLBACK_ERROR);
		expect(rogue.counts().token).toBe(1);
	});

	test('GHSA-5rr4-8452-hf4v / GHSA-gv74-j8m3-fg5f (the SSRF class): no provider URL is fetched over plain http off loopback', async () => {
		const fetched: string[] = [];
		const recording = ((input: string | URL | Request, init?: RequestInit) => {
			fetched.push(String(input));
			return fetch(input, init);
		}) as typeof fetch;
		for (const issuer of ['http://169.254.169.254/latest', 'http://10.0.0.1', 'http://metadata.internal']) {
			const a = oauthApp([rogueProvider({ issuer, [customFetch]: recording })]);
			const res = await a.browser().postForm('signin/rogue');
			expect(res.headers.get('location')).toBe(`${APP_ORIGIN}/auth/error?error=OAuthSignin`);
		}
		expect(fetched).toEqual([]);
	});

	test("GHSA-fmh4-wcc4-5jm3 (the class: objects checked against their owner): another user's session cannot be revoked, nor their account unlinked", async () => {
		const db = await store();
		const users: Record<string, { id: string; name: string; email: string }> = {
			alice: { ...ALICE },
			bob: { id: 'user-2', name: 'Bob', email: 'bob@example.com' }
		};
		const s = setup({
			adapter: db.adapter,
			callbacks: { session: sessionWithUserId },
			providers: [Credentials({ credentials: { username: {}, password: {} }, authorize: ({ username, password }) => (password === 'pw' && users[String(username)]) || null })]
		});
		const server = createAuthServer(s.config);
		const current = (client: TestClient) =>
			server.session({ url: new URL(`${ORIGIN}/account`), request: new Request(`${ORIGIN}/account`, { headers: { cookie: client.cookieHeader() } }) });
		const [alice, bob] = [s.client(), s.client()];
		await alice.signInWithCredentials('credentials', { username: 'alice', password: 'pw' });
		await bob.signInWithCredentials('credentials', { username: 'bob', password: 'pw' });
		await db.adapter.linkAccount({ userId: 'user-2', type: 'oauth', provider: 'rogue', providerAccountId: 'bob-sub' });
		const bobSession = (await (await current(bob)).listSessions())[0]!;
		expect(await (await current(alice)).revokeSession(bobSession.id)).toBe(false);
		expect(await (await current(alice)).unlinkAccount('rogue', { otherSignIn: true })).toEqual({ ok: false, reason: 'not-linked' });
		expect(((await bob.session()) as Session).user?.email).toBe('bob@example.com');
		expect((await db.db.execute('SELECT count(*) AS n FROM account')).rows[0]!.n).toBe(1);
	});

	test("GHSA-2vg6-77g8-24mp: a deleted user's sessions end (database: with the row; JWT: endSessionsOf before deleting)", async () => {
		const db = await store();
		const database = setup({ adapter: db.adapter });
		const signedInDb = await signedIn(database);
		await db.adapter.deleteUser!(ALICE.id);
		expect(await signedInDb.session()).toBeNull();

		const client = createClient({ url: ':memory:' });
		closers.push(() => client.close());
		await migrate(client);
		const adapter = LibSQLAdapter(client);
		const jwt = setup({ adapter, session: { strategy: 'jwt' } });
		const signedInJwt = await signedIn(jwt);
		vi.setSystemTime(Date.now() + 1500);
		await createAuthServer(jwt.config).endSessionsOf(ALICE.id);
		expect(await signedInJwt.session()).toBeNull();
	});

	test('Convex GHSA-j8qq-g9pm-v3c2 (the class: a session token delivered to another origin): never in a URL, never to a foreign callbackUrl', async () => {
		const s = setup();
		const client = s.client();
		const res = await client.signInWithCredentials('credentials', { ...ALICE_LOGIN, callbackUrl: 'https://attacker.example/collect?token=' });
		const token = client.cookie(SESSION_COOKIE)!;
		expect(location(res).origin).toBe(ORIGIN);
		expect(location(res).href).not.toContain(token);
		const json = await s.client().signInWithCredentials('credentials', { ...ALICE_LOGIN, callbackUrl: 'https://attacker.example/' }, { headers: { 'X-Auth-Return-Redirect': '1' } });
		const body = (await json.json()) as { url: string };
		expect(new URL(body.url).origin).toBe(ORIGIN);
		expect(JSON.stringify(body)).not.toMatch(/eyJ/);
	});

	test("Convex GHSA-pgx2-m66h-x29f: emailed links use AUTH_URL, never the request's Host", async () => {
		const w = await emailWorld();
		const s = setup({ adapter: w.store.adapter, trustHost: true, providers: [Nodemailer({ server: w.mailbox.url, from: FROM, timeout: 3000 })] }, 'http://evil.example', { AUTH_URL: SITE });
		const client = s.client();
		const res = await client.postForm('signin/nodemailer', { email: 'ann@example.com' }, { headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' } });
		expect(location(res).origin).toBe(SITE);
		const { link } = lastMessageTo(w, 'ann@example.com');
		expect(link.origin).toBe(SITE);
		expect(link.href).not.toContain('evil.example');

		// Without AUTH_URL and without trusting the Host header: no mail at all.
		const untrusted = setup({ adapter: w.store.adapter, trustHost: false, providers: [Nodemailer({ server: w.mailbox.url, from: FROM, timeout: 3000 })] }, 'http://evil.example');
		const refused = await untrusted.client().post('signin/nodemailer', { form: { email: 'bob@example.com' } });
		await expectNoSessionGranted(refused, { allow500: true });
		expect(w.mailbox.to('bob@example.com')).toHaveLength(0);
	});
});
