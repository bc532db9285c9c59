/**
 * OAuth/OIDC callbacks kitauth must refuse, with no session: missing, forged, other-provider and
 * other-browser check cookies (GHSA-7r7x-4c4q-c4qf, GHSA-x445-f3h2-j279, ASVS 10.1.2/10.2.1),
 * check cookies replayed as a session (GHSA-v64w-49xw-qq89), mix-up (RFC 9207 `iss`), flawed ID
 * tokens (OpenID RP conformance), a userinfo `sub` mismatch, a lying discovery document, a denied
 * consent, an unreachable or slow IdP, single-use and expired check cookies, and an off-site `callbackUrl`
 * cookie after OAuth (CVE-2022-29214).
 *
 * Where the checks fail before the code exchange, the IdP's token endpoint must see nothing.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import type { OAuthConfig } from '../../src/lib/core/types.js';
import { startTestIdp, type TestIdp } from '../support/oidc-provider.js';
import { rogueOidc, roguePlainOAuth, startRogueIdp, type IdTokenFlaw, type RogueIdp } from '../support/rogue-idp.js';
import {
	APP_ORIGIN,
	callbackUri,
	CHECK_COOKIES,
	deletedCookies,
	errorPageError,
	expectRefused,
	explain,
	localProvider,
	NONCE_COOKIE,
	oauthApp,
	oauthSignIn,
	PKCE_COOKIE,
	SESSION_COOKIE,
	sessionCookiesSet,
	signInPageError,
	startSignIn,
	STATE_COOKIE,
	within
} from '../support/oauth-app.js';

const IDS = ['local', 'other', 'stateful', 'rogue', 'rogue-state', 'rogue-userinfo', 'rogue-plain', 'flaky'];
const CALLBACK_ERROR = signInPageError('OAuthCallbackError');
/** A bound for "never hangs": far above the 300 ms provider timeouts used here, far below the test timeout. */
const HANG_GUARD_MS = 15_000;

let idp: TestIdp;
let rogue: RogueIdp;

beforeAll(async () => {
	const redirectUris = IDS.map((id) => callbackUri(id));
	idp = await startTestIdp({ redirectUris });
	rogue = await startRogueIdp({ redirectUris });
});
afterAll(async () => {
	await idp.close();
	await rogue.close();
});
beforeEach(() => {
	idp.resetCounts();
	rogue.reset();
	rogue.resetCounts();
});

const asAlice = (url: URL) => idp.completeInteraction(url, { login: 'alice' });
const viaRogue = (url: URL) => rogue.completeInteraction(url);

const rogueProvider = (overrides: Partial<OAuthConfig> = {}): OAuthConfig => rogueOidc(rogue.issuer, overrides);

/** One app with every provider of this suite (JWT sessions, no adapter). */
function app() {
	return oauthApp([
		localProvider(idp),
		localProvider(idp, { id: 'other', name: 'Other' }),
		localProvider(idp, { id: 'stateful', name: 'Stateful', checks: ['pkce', 'state'] }),
		rogueProvider(),
		rogueProvider({ id: 'rogue-state', checks: ['pkce', 'state'] }),
		rogueProvider({ id: 'rogue-userinfo', idToken: false })
	]);
}

/** Starts a flow and lets the IdP send the browser back; the callback is not requested yet. */
async function authorized(providerId: string, authorize: (url: URL) => Promise<URL>) {
	const a = app();
	const browser = a.browser();
	const start = await startSignIn(browser, providerId);
	const callback = await authorize(start.url);
	expect(callback.searchParams.has('code')).toBe(true);
	return { app: a, browser, start, callback };
}

describe('check cookies (no token exchange)', () => {
	test('state cookie missing', async () => {
		const { browser, callback } = await authorized('stateful', asAlice);
		browser.jar.delete(STATE_COOKIE);
		const res = await browser.get(callback.href);
		await expectRefused(browser, res, CALLBACK_ERROR);
		expect(idp.counts().token).toBe(0);
		expect(deletedCookies(res)).toEqual(expect.arrayContaining([PKCE_COOKIE, NONCE_COOKIE]));
	});

	test('state parameter tampered with, or removed from the callback', async () => {
		for (const edit of [(u: URL) => u.searchParams.set('state', 'forged-state-value'), (u: URL) => u.searchParams.delete('state')]) {
			const { browser, callback } = await authorized('stateful', asAlice);
			edit(callback);
			const res = await browser.get(callback.href);
			await expectRefused(browser, res, CALLBACK_ERROR);
		}
		expect(idp.counts().token).toBe(0);
	});

	test('the OP drops or replaces state in its redirect', async () => {
		for (const state of [null, 'state-from-elsewhere']) {
			rogue.behaviour.responseState = state;
			const { browser, callback } = await authorized('rogue-state', viaRogue);
			const res = await browser.get(callback.href);
			await expectRefused(browser, res, CALLBACK_ERROR);
		}
		expect(rogue.counts().token).toBe(0);
	});

	test('default checks (state not listed): state is still sent, and a dropped or replaced one is refused', async () => {
		for (const state of [null, 'state-from-elsewhere']) {
			rogue.behaviour.responseState = state;
			const { browser, start, callback } = await authorized('rogue', viaRogue);
			expect(start.url.searchParams.get('state')).toEqual(expect.any(String));
			const res = await browser.get(callback.href);
			await expectRefused(browser, res, CALLBACK_ERROR);
		}
		expect(rogue.counts().token).toBe(0);
	});

	test('PKCE verifier cookie missing', async () => {
		const { browser, callback } = await authorized('local', asAlice);
		browser.jar.delete(PKCE_COOKIE);
		const res = await browser.get(callback.href);
		await expectRefused(browser, res, CALLBACK_ERROR);
		expect(idp.counts().token).toBe(0);
	});

	test('nonce cookie missing', async () => {
		const { browser, callback } = await authorized('local', asAlice);
		browser.jar.delete(NONCE_COOKIE);
		const res = await browser.get(callback.href);
		await expectRefused(browser, res, CALLBACK_ERROR);
		expect(idp.counts().token).toBe(0);
	});

	test('no check cookies at all (stripped, GHSA-7r7x-4c4q-c4qf), or unreadable ones', async () => {
		for (const edit of [
			(jar: Map<string, string>) => CHECK_COOKIES.forEach((name) => jar.delete(name)),
			(jar: Map<string, string>) => CHECK_COOKIES.forEach((name) => jar.has(name) && jar.set(name, 'eyJhbGciOiJkaXIifQ..garbage.garbage.garbage'))
		]) {
			const { browser, callback } = await authorized('stateful', asAlice);
			edit(browser.jar);
			const res = await browser.get(callback.href);
			await expectRefused(browser, res, CALLBACK_ERROR);
		}
		expect(idp.counts().token).toBe(0);
	});

	test('check cookies minted for provider A replayed on /callback/B (GHSA-x445-f3h2-j279)', async () => {
		// Same OP and client, two provider ids: only the binding of the cookies to "local" stops it.
		const { browser, callback } = await authorized('local', asAlice);
		const replay = new URL(callback);
		replay.pathname = '/auth/callback/other';
		const res = await browser.get(replay.href);
		await expectRefused(browser, res, CALLBACK_ERROR);
		expect(idp.counts().token).toBe(0);
	});

	test('A’s check cookies with B’s callback, across OPs (mix-up): refused before any exchange', async () => {
		const { browser, callback } = await authorized('local', asAlice);
		const replay = new URL(callback);
		replay.pathname = '/auth/callback/rogue';
		const res = await browser.get(replay.href);
		await expectRefused(browser, res, CALLBACK_ERROR);
		expect(idp.counts().token).toBe(0);
		expect(rogue.counts().token).toBe(0);
	});

	test('the OP’s iss parameter is wrong or missing (RFC 9207 mix-up defence)', async () => {
		for (const iss of ['https://another-op.example', null]) {
			rogue.behaviour.responseIss = iss;
			const { browser, callback } = await authorized('rogue', viaRogue);
			const res = await browser.get(callback.href);
			await expectRefused(browser, res, CALLBACK_ERROR);
		}
		expect(rogue.counts().token).toBe(0);
	});
});

describe('check cookies live 15 minutes (sealed expiry, whatever the browser keeps)', () => {
	afterEach(() => {
		vi.useRealTimers();
	});

	/** Steps the (Date-only) clock forward; the IdP runs in this process and sees the same clock. */
	function minutesLater(minutes: number): void {
		vi.useFakeTimers({ toFake: ['Date'] });
		vi.setSystemTime(Date.now() + minutes * 60_000);
	}

	test('a callback 15 minutes and 30 s after the start is refused before the exchange', async () => {
		const { browser, callback } = await authorized('rogue', viaRogue);
		minutesLater(15.5);
		const res = await browser.get(callback.href);
		await expectRefused(browser, res, CALLBACK_ERROR);
		expect(rogue.counts().token).toBe(0);
	});

	test('control: 14 minutes after the start, the same flow signs in', async () => {
		const { app: a, browser, callback } = await authorized('rogue', viaRogue);
		minutesLater(14);
		const res = await browser.get(callback.href);
		expect(res.headers.get('location'), explain(a.errors)).toBe(`${APP_ORIGIN}/`);
		expect(rogue.counts().token).toBe(1);
	});
});

describe("one browser's check cookies with another browser's code (login CSRF)", () => {
	test('with state: refused before the exchange', async () => {
		const victim = await authorized('stateful', asAlice);
		const attacker = await authorized('stateful', (url) => idp.completeInteraction(url, { login: 'bob' }));
		idp.resetCounts();
		const res = await victim.browser.get(attacker.callback.href);
		await expectRefused(victim.browser, res, CALLBACK_ERROR);
		expect(idp.counts().token).toBe(0);
	});

	test('default checks (state not listed): refused before the exchange too, since state is always on', async () => {
		const victim = await authorized('local', asAlice);
		const attacker = await authorized('local', (url) => idp.completeInteraction(url, { login: 'bob' }));
		idp.resetCounts();
		const res = await victim.browser.get(attacker.callback.href);
		await expectRefused(victim.browser, res, CALLBACK_ERROR);
		expect(idp.counts().token).toBe(0);
	});
});

describe('a check cookie is never a session (GHSA-v64w-49xw-qq89)', () => {
	test.each([PKCE_COOKIE, STATE_COOKIE, NONCE_COOKIE])('%s as the session token → GET /session is null', async (name) => {
		const a = app();
		const browser = a.browser();
		const { cookies } = await startSignIn(browser, 'stateful');
		const sealed = cookies.find((c) => c.name === name)?.value;
		expect(sealed, name).toBeDefined();
		const fresh = a.browser();
		fresh.jar.set(SESSION_COOKIE, sealed!);
		const res = await fresh.get('session');
		expect(res.status).toBe(200);
		expect(await res.json()).toBeNull();
		expect(sessionCookiesSet(res)).toEqual([]);
		expect(fresh.jar.has(SESSION_COOKIE)).toBe(false);
	});
});

describe('flawed ID tokens (rogue OP): refused, no session, no userinfo call', () => {
	const FLAWS: IdTokenFlaw[] = [
		'bad-signature',
		'alg-none',
		'wrong-iss',
		'wrong-aud',
		'extra-aud-no-azp',
		'expired',
		'unknown-kid',
		'missing-sub',
		'missing-iat',
		'wrong-nonce'
	];
	test.each(FLAWS)('%s', async (flaw) => {
		const { app: a, browser, callback } = await authorized('rogue', viaRogue);
		rogue.nextTokenResponse(flaw);
		const res = await browser.get(callback.href);
		await expectRefused(browser, res, CALLBACK_ERROR);
		expect(rogue.counts()).toMatchObject({ token: 1, userinfo: 0 });
		expect(deletedCookies(res)).toEqual(expect.arrayContaining([PKCE_COOKIE, NONCE_COOKIE]));
		expect(a.errors.length).toBeGreaterThan(0);
	});

	test('control: the same flow with a good ID token signs in', async () => {
		const { app: a, browser, callback } = await authorized('rogue', viaRogue);
		const res = await browser.get(callback.href);
		expect(res.headers.get('location'), explain(a.errors)).toBe(`${APP_ORIGIN}/`);
		expect(await browser.session()).toMatchObject({ user: { email: 'alice@example.test' } });
	});
});

test("plain OAuth 2 with checks: ['nonce']: an ID token with another nonce → refused, no userinfo call", async () => {
	const plain = roguePlainOAuth(rogue.issuer, { id: 'rogue-plain', name: 'Rogue plain', checks: ['pkce', 'nonce'] });
	const a = oauthApp([plain]);
	const control = await oauthSignIn(a.browser(), 'rogue-plain', viaRogue);
	expect(control.res.headers.get('location'), explain(a.errors)).toBe(`${APP_ORIGIN}/`);

	rogue.resetCounts();
	rogue.nextTokenResponse('wrong-nonce');
	const browser = a.browser();
	const { res } = await oauthSignIn(browser, 'rogue-plain', viaRogue);
	await expectRefused(browser, res, CALLBACK_ERROR);
	expect(rogue.counts()).toMatchObject({ token: 1, userinfo: 0 });
});

test('userinfo with another sub than the ID token → refused', async () => {
	rogue.behaviour.userinfoSub = 'sub-of-someone-else';
	const { browser, callback } = await authorized('rogue-userinfo', viaRogue);
	const res = await browser.get(callback.href);
	await expectRefused(browser, res, CALLBACK_ERROR);
	expect(rogue.counts()).toMatchObject({ token: 1, userinfo: 1 });
});

test('the OP refuses the code (invalid_grant) → OAuthCallbackError', async () => {
	const { browser, callback } = await authorized('rogue', viaRogue);
	rogue.nextTokenResponse('error');
	const res = await browser.get(callback.href);
	await expectRefused(browser, res, CALLBACK_ERROR);
});

test('a discovery document naming another issuer → OAuthSignin on the error page, at sign-in', async () => {
	rogue.behaviour.discoveryIssuer = 'https://impostor.example';
	const a = app();
	const browser = a.browser();
	const res = await browser.postForm('signin/rogue');
	expect(res.status).toBe(302);
	expect(res.headers.get('location')).toBe(errorPageError('OAuthSignin'));
	expect(deletedCookies(res)).toEqual([]);
	for (const name of CHECK_COOKIES) expect(browser.jar.has(name), name).toBe(false);
	expect(rogue.counts()).toMatchObject({ discovery: 1, authorization: 0, token: 0 });
});

test('access_denied from the OP (user cancels) → the sign-in page with OAuthCallbackError', async () => {
	const a = app();
	const browser = a.browser();
	const { res } = await oauthSignIn(browser, 'local', (url) => idp.deny(url));
	await expectRefused(browser, res, CALLBACK_ERROR);
	expect(idp.counts().token).toBe(0);
	expect(deletedCookies(res)).toEqual(expect.arrayContaining([PKCE_COOKIE, NONCE_COOKIE]));
});

describe('an unreachable or slow IdP: a prompt answer, never a hang', () => {
	/** A throw-away IdP, since these tests stop it. */
	async function flaky() {
		const server = await startTestIdp({ redirectUris: [callbackUri('flaky')] });
		const a = oauthApp([localProvider(server, { id: 'flaky', timeout: 300 })]);
		return { server, app: a, browser: a.browser() };
	}

	test('closed at sign-in → OAuthSignin on the error page', async () => {
		const { server, browser } = await flaky();
		await server.close();
		const res = await within(HANG_GUARD_MS, browser.postForm('signin/flaky'), 'sign-in against a closed IdP');
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(errorPageError('OAuthSignin'));
		for (const name of CHECK_COOKIES) expect(browser.jar.has(name), name).toBe(false);
	});

	test('slower than the provider timeout at sign-in → OAuthSignin on the error page', async () => {
		const { server, browser } = await flaky();
		try {
			server.pause(10_000);
			const res = await within(HANG_GUARD_MS, browser.postForm('signin/flaky'), 'sign-in against a paused IdP');
			expect(res.status).toBe(302);
			expect(res.headers.get('location')).toBe(errorPageError('OAuthSignin'));
			expect(server.counts().discovery).toBe(1);
		} finally {
			await server.close();
		}
	});

	test('closed before the callback → OAuthCallbackError, no session', async () => {
		const { server, browser } = await flaky();
		const { url } = await startSignIn(browser, 'flaky');
		const callback = await server.completeInteraction(url);
		await server.close();
		const res = await within(HANG_GUARD_MS, browser.get(callback.href), 'callback against a closed IdP');
		await expectRefused(browser, res, CALLBACK_ERROR);
	});

	test('slower than the provider timeout at the callback → OAuthCallbackError, no session', async () => {
		const { server, browser } = await flaky();
		try {
			const { url } = await startSignIn(browser, 'flaky');
			const callback = await server.completeInteraction(url);
			server.pause(10_000);
			const res = await within(HANG_GUARD_MS, browser.get(callback.href), 'callback against a paused IdP');
			await expectRefused(browser, res, CALLBACK_ERROR);
			expect(server.counts().token).toBe(1);
		} finally {
			await server.close();
		}
	});
});

describe('check cookies are single use', () => {
	test('a successful callback deletes them; the same callback again fails, with or without the old cookies', async () => {
		const { app: a, browser, callback } = await authorized('stateful', asAlice);
		const captured = new Map([...browser.jar].filter(([name]) => (CHECK_COOKIES as readonly string[]).includes(name)));
		expect([...captured.keys()].sort()).toEqual([...CHECK_COOKIES].sort());

		const ok = await browser.get(callback.href);
		expect(ok.headers.get('location'), explain(a.errors)).toBe(`${APP_ORIGIN}/`);
		expect(deletedCookies(ok).sort()).toEqual([...CHECK_COOKIES].sort());
		expect(idp.counts().token).toBe(1);

		// The same browser (cookies gone): refused before the exchange.
		const again = a.browser();
		const replay = await again.get(callback.href);
		await expectRefused(again, replay, CALLBACK_ERROR);
		expect(idp.counts().token).toBe(1);

		// Someone who kept the cookies: the code is spent at the OP.
		const thief = a.browser();
		for (const [name, value] of captured) thief.jar.set(name, value);
		const stolen = await thief.get(callback.href);
		await expectRefused(thief, stolen, CALLBACK_ERROR);
	});

	test('a failed callback deletes them too: retrying with the genuine parameters fails', async () => {
		const { browser, callback } = await authorized('stateful', asAlice);
		const forged = new URL(callback);
		forged.searchParams.set('state', 'forged');
		const first = await browser.get(forged.href);
		await expectRefused(browser, first, CALLBACK_ERROR);
		expect(deletedCookies(first).sort()).toEqual([...CHECK_COOKIES].sort());
		for (const name of CHECK_COOKIES) expect(browser.jar.has(name), name).toBe(false);

		const retry = await browser.get(callback.href);
		await expectRefused(browser, retry, CALLBACK_ERROR);
		expect(idp.counts().token).toBe(0);
	});
});

describe('callbackUrl after OAuth stays on this site (CVE-2022-29214)', () => {
	const HOSTILE = [
		'https://evil.example/steal',
		'//evil.example/steal',
		'/\\evil.example/steal',
		'http://app.test.evil.example/',
		'javascript:alert(1)'
	];

	test.each(HOSTILE)('callback-url cookie tampered to %s', async (hostile) => {
		const a = app();
		const browser = a.browser();
		const start = await startSignIn(browser, 'local', { form: { callbackUrl: '/dashboard' } });
		const callback = await asAlice(start.url);
		browser.setCookie('authjs.callback-url', hostile);
		const res = await browser.get(callback.href);
		expect(res.status).toBe(302);
		const target = new URL(res.headers.get('location') ?? '', APP_ORIGIN);
		expect(target.origin).toBe(APP_ORIGIN);
		expect(sessionCookiesSet(res)).toHaveLength(1);
	});

	test.each(HOSTILE)('callbackUrl=%s in the callback query', async (hostile) => {
		const a = app();
		const browser = a.browser();
		const start = await startSignIn(browser, 'local');
		const callback = await asAlice(start.url);
		callback.searchParams.set('callbackUrl', hostile);
		const res = await browser.get(callback.href);
		expect(res.status).toBe(302);
		expect(new URL(res.headers.get('location') ?? '', APP_ORIGIN).origin).toBe(APP_ORIGIN);
	});
});
