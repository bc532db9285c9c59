/**
 * Replays kitauth must refuse whatever the other party does (OpenID RP negatives, ASVS 6.5.1,
 * W3C WebAuthn §13.4.3): an ID token issued in the future, and the same callback request sent
 * twice — an OAuth callback (same URL, same cookies) against an IdP that wrongly accepts a code
 * twice, an email link's sign-in POST, a passkey assertion. The second one never gets a session.
 *
 * The OAuth state is spent server-side (`options.once`, over the rate limiter's store): in this
 * process's memory without an adapter, in the adapter's counters with one (so two instances on one
 * database refuse each other's replays), or in `rateLimit.store`.
 */
import { createClient } from '@libsql/client';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { LibSQLAdapter, migrate } from '../../src/lib/adapters/libsql/index.js';
import { MemoryStore } from '../../src/lib/core/limit/memory.js';
import { decode } from '../../src/lib/core/session/jwt.js';
import type { AuthConfig, OAuthConfig } from '../../src/lib/core/types.js';
import { tempDatabase } from '../adapter/support.js';
import { TestClient } from '../support/client.js';
import {
	APP_ORIGIN,
	callbackUri,
	CHECK_COOKIES,
	expectRefused,
	explain,
	OAUTH_SECRET,
	oauthApp,
	PKCE_COOKIE,
	sessionCookiesSet,
	signInPageError,
	startSignIn
} from '../support/oauth-app.js';
import { ROGUE_CLIENT_ID, ROGUE_CLIENT_SECRET, rogueOidc, startRogueIdp, type RogueIdp } from '../support/rogue-idp.js';
import { emailSetup, followLink, hiddenFields, lastMessageTo, openEmailWorld, requestLink, type EmailWorld } from './email-fixtures.js';
import { expectNoSessionGranted, location, SESSION_COOKIE } from './fixtures.js';
import { authenticator, CHALLENGE_COOKIE, callback, options, passkeySetup, register, STRATEGIES } from './passkey-fixtures.js';

const CALLBACK_ERROR = signInPageError('OAuthCallbackError');

let rogue: RogueIdp;

beforeAll(async () => {
	rogue = await startRogueIdp({ redirectUris: [callbackUri('rogue')] });
});
afterAll(async () => {
	await rogue.close();
});
beforeEach(() => {
	rogue.reset();
	rogue.resetCounts();
});

const rogueProvider = (): OAuthConfig => rogueOidc(rogue.issuer);

/** The browser's check cookies and the IdP's redirect back, before the callback is requested. */
async function authorizedCallback(browser: TestClient) {
	const start = await startSignIn(browser, 'rogue');
	const callback = await rogue.completeInteraction(start.url);
	const cookies = new Map([...browser.jar].filter(([name]) => (CHECK_COOKIES as readonly string[]).includes(name)));
	expect([...cookies.keys()].sort()).toEqual([...CHECK_COOKIES].sort());
	return { callback, cookies };
}

/** A second browser carrying exactly the captured cookies: the replayed request. */
function replayer(handler: (request: Request) => Promise<Response>, cookies: Map<string, string>): TestClient {
	const browser = new TestClient(handler, { origin: APP_ORIGIN });
	for (const [name, value] of cookies) browser.jar.set(name, value);
	return browser;
}

describe('OpenID RP: ID token issued in the future', () => {
	test('rp-id_token-iat: an iat a year ahead is refused, no session, no userinfo call', async () => {
		const a = oauthApp([rogueProvider()]);
		const browser = a.browser();
		const { callback } = await authorizedCallback(browser);
		rogue.nextTokenResponse('future-iat');
		const res = await browser.get(callback.href);
		await expectRefused(browser, res, CALLBACK_ERROR);
		expect(rogue.counts()).toMatchObject({ token: 1, userinfo: 0 });
		expect(explain(a.errors)).toMatch(/issued in the future/);
	});

	test('control: an iat 20 s ahead is within the clock tolerance and signs in', async () => {
		const a = oauthApp([rogueProvider()]);
		const browser = a.browser();
		const { callback } = await authorizedCallback(browser);
		rogue.nextTokenResponse('near-future-iat');
		const res = await browser.get(callback.href);
		expect(res.headers.get('location'), explain(a.errors)).toBe(`${APP_ORIGIN}/`);
		expect(sessionCookiesSet(res)).toHaveLength(1);
	});
});

describe('a replayed OAuth callback (same URL, same cookies) gets no second session, even from an IdP that accepts a code twice', () => {
	beforeEach(() => {
		rogue.behaviour.reuseCodes = true;
	});

	test('control: this IdP really does accept the code again after kitauth redeemed it', async () => {
		const a = oauthApp([rogueProvider()]);
		const browser = a.browser();
		const { callback, cookies } = await authorizedCallback(browser);
		expect((await browser.get(callback.href)).headers.get('location'), explain(a.errors)).toBe(`${APP_ORIGIN}/`);
		const sealed = decodeURIComponent(cookies.get(PKCE_COOKIE)!);
		const verifier = (await decode({ token: sealed, secret: OAUTH_SECRET, salt: PKCE_COOKIE }))?.value;
		expect(typeof verifier).toBe('string');
		const res = await fetch(`${rogue.issuer}/token`, {
			method: 'POST',
			headers: {
				authorization: `Basic ${Buffer.from(`${ROGUE_CLIENT_ID}:${ROGUE_CLIENT_SECRET}`).toString('base64')}`,
				'content-type': 'application/x-www-form-urlencoded'
			},
			body: new URLSearchParams({
				grant_type: 'authorization_code',
				code: callback.searchParams.get('code')!,
				redirect_uri: callbackUri('rogue'),
				code_verifier: String(verifier)
			})
		});
		expect(res.status).toBe(200);
		expect(await res.json()).toHaveProperty('id_token');
	});

	test('JWT sessions, no adapter (the record lives in memory)', async () => {
		const a = oauthApp([rogueProvider()]);
		const browser = a.browser();
		const { callback, cookies } = await authorizedCallback(browser);
		const first = await browser.get(callback.href);
		expect(first.headers.get('location'), explain(a.errors)).toBe(`${APP_ORIGIN}/`);
		expect(sessionCookiesSet(first)).toHaveLength(1);

		const thief = replayer(a.handler, cookies);
		const replay = await thief.get(callback.href);
		await expectRefused(thief, replay, CALLBACK_ERROR);
		// Refused before the code went anywhere.
		expect(rogue.counts().token).toBe(1);
		expect(explain(a.errors)).toMatch(/replayed/);
	});

	test('database sessions on libSQL: the record is in the adapter, so another instance on the same database refuses it too', async () => {
		const temp = tempDatabase('kitauth-replay-');
		const [one, two] = [createClient({ url: temp.url }), createClient({ url: temp.url })];
		try {
			await migrate(one);
			const config = (db: typeof one): Partial<AuthConfig> => ({ adapter: LibSQLAdapter(db) });
			const first = oauthApp([rogueProvider()], config(one));
			const second = oauthApp([rogueProvider()], config(two));
			const browser = first.browser();
			const { callback, cookies } = await authorizedCallback(browser);
			const ok = await browser.get(callback.href);
			expect(ok.headers.get('location'), explain(first.errors)).toBe(`${APP_ORIGIN}/`);
			expect((await one.execute('SELECT count(*) AS n FROM session')).rows[0]!.n).toBe(1);

			for (const app of [second, first]) {
				const thief = replayer(app.handler, cookies);
				await expectRefused(thief, await thief.get(callback.href), CALLBACK_ERROR);
			}
			expect(rogue.counts().token).toBe(1);
			expect((await one.execute('SELECT count(*) AS n FROM session')).rows[0]!.n).toBe(1);
		} finally {
			one.close();
			two.close();
			temp.remove();
		}
	});

	test('rateLimit.store, shared by two instances (limiter off): the replay on the other instance is refused', async () => {
		const store = new MemoryStore();
		const shared: Partial<AuthConfig> = { rateLimit: { enabled: false, store } };
		const first = oauthApp([rogueProvider()], shared);
		const second = oauthApp([rogueProvider()], shared);
		const browser = first.browser();
		const { callback, cookies } = await authorizedCallback(browser);
		expect((await browser.get(callback.href)).headers.get('location'), explain(first.errors)).toBe(`${APP_ORIGIN}/`);
		const thief = replayer(second.handler, cookies);
		await expectRefused(thief, await thief.get(callback.href), CALLBACK_ERROR);
		expect(rogue.counts().token).toBe(1);
		expect(store.size).toBe(1);
	});

	test('a failing store falls back to memory: the replay is still refused in this process', async () => {
		const broken = { hit: () => Promise.reject(new Error('store down')), release: () => Promise.resolve(), reset: () => Promise.resolve(), sweep: () => Promise.resolve(0) };
		const a = oauthApp([rogueProvider()], { rateLimit: { enabled: false, store: broken } });
		const browser = a.browser();
		const { callback, cookies } = await authorizedCallback(browser);
		expect((await browser.get(callback.href)).headers.get('location'), explain(a.errors)).toBe(`${APP_ORIGIN}/`);
		const thief = replayer(a.handler, cookies);
		await expectRefused(thief, await thief.get(callback.href), CALLBACK_ERROR);
		expect(explain(a.errors)).toMatch(/store down/);
	});
});

describe('an email link: the same sign-in POST twice (same body, same cookies)', () => {
	let world: EmailWorld;
	afterAll(async () => {
		await world?.close();
	});

	test('the token is used up by the first: the second is Verification, no session', async () => {
		world = await openEmailWorld();
		const s = emailSetup(world);
		const browser = s.client();
		await requestLink(browser, 'ann@example.com');
		const { link } = lastMessageTo(world, 'ann@example.com');
		const page = await browser.get(link.href);
		const html = await page.text();
		const form = hiddenFields(html);
		const action = /<form[^>]*action="([^"]+)"/.exec(html)![1]!.replaceAll('&amp;', '&');
		const cookie = browser.cookieHeader();
		const send = () => s.handler(new Request(action, {
			method: 'POST',
			headers: { cookie, origin: browser.origin, 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams(form).toString()
		}));
		const first = await send();
		expect(first.status).toBe(302);
		expect(location(first).pathname).toBe('/');
		expect(sessionCookiesSet(first, SESSION_COOKIE)).toHaveLength(1);
		const replay = await send();
		await expectNoSessionGranted(replay);
		expect(location(replay).searchParams.get('error')).toBe('Verification');
		// And following the link again from a new browser: the same.
		const again = await followLink(s.client(), link);
		expect(location(again.signIn).searchParams.get('error')).toBe('Verification');
	});
});

describe.each(STRATEGIES)('a passkey assertion sent twice (%s sessions)', (strategy) => {
	test('the challenge is spent by the first: the same request again is refused, no session', async () => {
		const s = await passkeySetup(strategy);
		const browser = s.client();
		const auth = authenticator();
		expect((await register(browser, auth, { email: 'pat@example.com' })).status).toBe(302);
		await browser.postForm('signout');
		const { body } = await options(browser, { action: 'authenticate' });
		const challenge = browser.jar.get(CHALLENGE_COOKIE)!;
		// A counter of 0 each time (as synced passkeys send): only the single-use challenge stops it.
		const assertion = auth.get(body.options, { counter: 0 });
		const csrf = await browser.csrfToken();
		const cookie = browser.cookieHeader();
		const send = () => s.handler(new Request(`${browser.origin}/auth/callback/passkey`, {
			method: 'POST',
			headers: { cookie, origin: browser.origin, 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ csrfToken: csrf, action: 'authenticate', data: JSON.stringify(assertion), callbackUrl: `${browser.origin}/account` }).toString()
		}));
		expect(cookie).toContain(`${CHALLENGE_COOKIE}=${challenge}`);
		const first = await send();
		expect(first.status).toBe(302);
		expect(sessionCookiesSet(first, SESSION_COOKIE)).toHaveLength(1);
		const replay = await send();
		await expectNoSessionGranted(replay);
		expect(location(replay).searchParams.get('error')).toBe('WebAuthnVerificationError');
		// Not even with a fresh challenge cookie of the same ceremony: the assertion signed the old one.
		await options(browser, { action: 'authenticate' });
		const stale = await callback(browser, 'authenticate', assertion);
		await expectNoSessionGranted(stale);
	});
});
