/**
 * Access-token refresh against real IdPs: JWT sessions without an adapter refresh on `GET /session`
 * (once, however many reads race), and mark the session with `RefreshTokenError` when the IdP
 * refuses, without retrying; with an adapter, `accessToken()` refreshes and stores the new tokens
 * in the account row, drops a refresh token the IdP refused, and backs off after other failures.
 *
 * Only `Date` is faked (`toFake: ['Date']`) to step past the access token's expiry: the sockets and
 * timers of the real HTTP exchanges with the IdPs keep running on real time. Both IdPs run in this
 * process, so they see the same clock.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { type AuthServer, createAuthServer } from '../../src/lib/core/index.js';
import { parseCookieHeader } from '../../src/lib/core/session/cookies.js';
import type { Adapter, AuthConfig, OAuthConfig } from '../../src/lib/core/types.js';
import type { TestClient } from '../support/client.js';
import { startTestIdp, type TestIdp } from '../support/oidc-provider.js';
import { rogueOidc, startRogueIdp, type RogueIdp, type TokenResponseVariant } from '../support/rogue-idp.js';
import {
	APP_ORIGIN,
	callbackUri,
	explain,
	localProvider,
	oauthApp,
	oauthSignIn,
	SESSION_COOKIE,
	sessionClaims,
	sessionCookiesSet,
	type OAuthApp
} from '../support/oauth-app.js';
import { openStore, type Store } from './database-fixtures.js';

/** The IdP's access-token lifetime; kitauth refreshes 30 s before expiry. */
const ACCESS_TTL = 60;
/** Far enough past expiry (and past the rogue OP's fixed 3600 s). */
const LATER_MS = 2 * 3600 * 1000;

interface OAuthClaims {
	provider: string;
	access_token?: string;
	refresh_token?: string;
	expires_at?: number;
}

let idp: TestIdp;
let rogue: RogueIdp;

beforeAll(async () => {
	const redirectUris = ['local', 'offline', 'rogue'].map((id) => callbackUri(id));
	idp = await startTestIdp({ redirectUris, refreshTokens: 'always', ttl: { accessToken: ACCESS_TTL } });
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
afterEach(() => {
	vi.useRealTimers();
});

const asAlice = (url: URL) => idp.completeInteraction(url, { login: 'alice' });
const viaRogue = (url: URL) => rogue.completeInteraction(url);
const rogueProvider = (): OAuthConfig => rogueOidc(rogue.issuer);

/** Steps the (Date-only) clock forward. */
function later(ms = LATER_MS): void {
	vi.useFakeTimers({ toFake: ['Date'] });
	vi.setSystemTime(Date.now() + ms);
}

async function tokens(browser: TestClient): Promise<OAuthClaims | undefined> {
	return (await sessionClaims(browser))?.oauth as OAuthClaims | undefined;
}

async function signedIn(app: OAuthApp, providerId = 'local', authorize = asAlice): Promise<TestClient> {
	const browser = app.browser();
	const { res } = await oauthSignIn(browser, providerId, authorize);
	expect(res.status, explain(app.errors)).toBe(302);
	expect(sessionCookiesSet(res)).toHaveLength(1);
	return browser;
}

describe('JWT sessions without an adapter', () => {
	test('the session keeps the refresh token; an expired access token is refreshed once on read, and the cookie re-issued', async () => {
		const app = oauthApp([localProvider(idp)]);
		const browser = await signedIn(app);
		const before = await tokens(browser);
		expect(before).toMatchObject({ provider: 'local', access_token: expect.any(String), refresh_token: expect.any(String), expires_at: expect.any(Number) });

		// Not yet due: no refresh.
		idp.resetCounts();
		expect(await browser.session()).toMatchObject({ user: { email: 'alice@example.test' } });
		expect(idp.counts().token).toBe(0);

		later();
		const res = await browser.get('session');
		expect(res.status).toBe(200);
		const session = (await res.json()) as Record<string, unknown>;
		expect(session).toMatchObject({ user: { email: 'alice@example.test' } });
		expect(session).not.toHaveProperty('error');
		expect(idp.counts().token).toBe(1);
		expect(sessionCookiesSet(res)).toHaveLength(1);

		const after = await tokens(browser);
		expect(after?.access_token).toEqual(expect.any(String));
		expect(after?.access_token).not.toBe(before?.access_token);
		// oidc-provider rotates refresh tokens.
		expect(after?.refresh_token).not.toBe(before?.refresh_token);
		expect(after?.expires_at).toBeGreaterThan(Date.now() / 1000 + 30);

		// Fresh again: later reads do not refresh.
		await browser.session();
		await browser.session();
		expect(idp.counts().token).toBe(1);
	});

	test('refresh tokens through authorizationParams (offline_access + prompt=consent)', async () => {
		const offline = await startTestIdp({ redirectUris: [callbackUri('offline')], ttl: { accessToken: ACCESS_TTL } });
		try {
			const app = oauthApp([localProvider(offline, { id: 'offline' })]);
			const browser = app.browser();
			const { start, res } = await oauthSignIn(browser, 'offline', (url) => offline.completeInteraction(url), {
				query: { scope: 'openid profile email offline_access', prompt: 'consent' }
			});
			expect(start.url.searchParams.get('scope')).toBe('openid profile email offline_access');
			expect(res.status).toBe(302);
			expect(await tokens(browser)).toMatchObject({ refresh_token: expect.any(String) });
			offline.resetCounts();
			later();
			expect(await browser.session()).not.toHaveProperty('error');
			expect(offline.counts().token).toBe(1);
		} finally {
			await offline.close();
		}
	});

	test('5 parallel reads of an expired session cause exactly one token request', async () => {
		const app = oauthApp([localProvider(idp)]);
		const browser = await signedIn(app);
		const cookie = browser.cookieHeader();
		idp.resetCounts();
		later();
		const responses = await Promise.all(
			Array.from({ length: 5 }, () => app.handler(new Request(`${APP_ORIGIN}/auth/session`, { headers: { cookie } })))
		);
		const sessions = await Promise.all(responses.map((r) => r.json() as Promise<Record<string, unknown> | null>));
		expect(idp.counts().token).toBe(1);
		for (const session of sessions) {
			expect(session).toMatchObject({ user: { email: 'alice@example.test' } });
			expect(session).not.toHaveProperty('error');
		}
		expect(explain(app.errors)).toBe('');
	});

	// A browser's requests are never perfectly simultaneous: one that left before the refreshed
	// cookie arrived still carries the old one. With rotating refresh tokens (oidc-provider's
	// default, and many IdPs'), spending the old refresh token again is refused, and oidc-provider
	// then revokes the whole grant; that late answer would also overwrite the good cookie.
	test('a read still carrying the pre-refresh cookie, just after the refresh, does not spend the rotated refresh token again', async () => {
		const app = oauthApp([localProvider(idp)]);
		const browser = await signedIn(app);
		const oldCookie = browser.cookieHeader();
		idp.resetCounts();
		later();
		expect(await browser.session()).not.toHaveProperty('error');
		expect(idp.counts().token).toBe(1);

		const late = await app.handler(new Request(`${APP_ORIGIN}/auth/session`, { headers: { cookie: oldCookie } }));
		const session = (await late.json()) as Record<string, unknown> | null;
		expect(session).toMatchObject({ user: { email: 'alice@example.test' } });
		expect(session).not.toHaveProperty('error');
		expect(idp.counts().token).toBe(1);
		// And the browser's own (refreshed) session is still good.
		expect(await browser.session()).not.toHaveProperty('error');
	});

	test('a refused refresh → session.error RefreshTokenError, and no further attempts on later reads', async () => {
		const app = oauthApp([rogueProvider()]);
		const browser = await signedIn(app, 'rogue', viaRogue);
		expect(await tokens(browser)).toMatchObject({ refresh_token: expect.any(String) });
		rogue.resetCounts();
		rogue.nextTokenResponse('error');
		later();

		const res = await browser.get('session');
		const session = (await res.json()) as Record<string, unknown>;
		expect(session).toMatchObject({ error: 'RefreshTokenError', user: { email: 'alice@example.test' } });
		expect(rogue.counts().token).toBe(1);
		// The error is kept in the re-issued cookie.
		expect(sessionCookiesSet(res)).toHaveLength(1);
		expect((await sessionClaims(browser))?.error).toBe('RefreshTokenError');

		for (let i = 0; i < 3; i++) expect(await browser.session()).toMatchObject({ error: 'RefreshTokenError' });
		expect(rogue.counts().token).toBe(1);
		expect(app.errors.length).toBeGreaterThan(0);
	});

	test('an unreachable IdP at refresh time → RefreshTokenError', async () => {
		const gone = await startTestIdp({ redirectUris: [callbackUri('offline')], refreshTokens: 'always', ttl: { accessToken: ACCESS_TTL } });
		try {
			const app = oauthApp([localProvider(gone, { id: 'offline', timeout: 300 })]);
			const browser = app.browser();
			const { res } = await oauthSignIn(browser, 'offline', (url) => gone.completeInteraction(url));
			expect(res.status).toBe(302);
			await gone.close();
			later();
			expect(await browser.session()).toMatchObject({ error: 'RefreshTokenError', user: { email: 'alice@example.test' } });
		} finally {
			await gone.close();
		}
	});

	test('control: a good refresh response from the rogue OP is accepted', async () => {
		const app = oauthApp([rogueProvider()]);
		const browser = await signedIn(app, 'rogue', viaRogue);
		const before = await tokens(browser);
		later();
		const session = await browser.session();
		expect(rogue.counts().token).toBe(2);
		expect(session).not.toHaveProperty('error');
		expect((await tokens(browser))?.access_token).not.toBe(before?.access_token);
	});

	// OpenID Connect Core §12.2 and the RP conformance refresh plan: an ID token in a refresh
	// response must be about the same subject, from the same issuer, for this client.
	test.each(['wrong-sub', 'wrong-iss', 'wrong-aud', 'bad-signature'] as TokenResponseVariant[])(
		'a refresh response whose ID token is flawed (%s) is refused → RefreshTokenError',
		async (variant) => {
			const app = oauthApp([rogueProvider()]);
			const browser = await signedIn(app, 'rogue', viaRogue);
			const before = await tokens(browser);
			rogue.nextTokenResponse(variant);
			later();
			const session = await browser.session();
			expect(rogue.counts().token).toBe(2);
			expect(session).toMatchObject({ error: 'RefreshTokenError' });
			expect((await tokens(browser))?.access_token).toBe(before?.access_token);
		}
	);
});

describe('with the LibSQL adapter: accessToken()', () => {
	let store: Store;
	beforeEach(async () => {
		store = await openStore('memory');
	});
	afterEach(() => store.close());

	interface AccountTokens {
		access_token: string | null;
		refresh_token: string | null;
		expires_at: number | null;
	}

	async function accountTokens(provider = 'local'): Promise<AccountTokens> {
		const result = await store.db.execute({
			sql: 'SELECT "access_token", "refresh_token", "expires_at" FROM "account" WHERE "provider" = ?',
			args: [provider]
		});
		expect(result.rows).toHaveLength(1);
		const row = result.rows[0]!;
		return {
			access_token: row['access_token'] === null ? null : String(row['access_token']),
			refresh_token: row['refresh_token'] === null ? null : String(row['refresh_token']),
			expires_at: row['expires_at'] === null ? null : Number(row['expires_at'])
		};
	}

	/** One server API per app (an instance): its runtime is what makes refreshes single-flight. */
	const servers = new WeakMap<AuthConfig, AuthServer>();

	/** What server code does: this browser's request's session, through the app's server API. */
	async function serverSide(app: OAuthApp, browser: TestClient) {
		let server = servers.get(app.config);
		if (!server) servers.set(app.config, (server = createAuthServer(app.config)));
		const url = `${APP_ORIGIN}/account`;
		return server.session({ url: new URL(url), request: new Request(url, { headers: { cookie: browser.cookieHeader() } }) });
	}

	/**
	 * Signed in through the rogue OP (tokens in the account row), the answer to the next token
	 * request queued, and the clock past the access token's expiry; the IdP's counts start at 0.
	 */
	async function expiredAtRogue(next: TokenResponseVariant) {
		const app = oauthApp([rogueProvider()], { adapter: store.adapter });
		const browser = await signedIn(app, 'rogue', viaRogue);
		const stored = await accountTokens('rogue');
		rogue.resetCounts();
		rogue.nextTokenResponse(next);
		later();
		return { app, browser, stored };
	}

	test('a fresh access token is returned as stored, without a refresh', async () => {
		const app = oauthApp([localProvider(idp)], { adapter: store.adapter });
		const browser = await signedIn(app);
		const stored = await accountTokens();
		idp.resetCounts();
		const current = await serverSide(app, browser);
		expect(current.session).not.toBeNull();
		expect(await current.accessToken('local')).toBe(stored.access_token);
		expect(idp.counts().token).toBe(0);
	});

	test('an expired one is refreshed and the new tokens are stored in the account row', async () => {
		const app = oauthApp([localProvider(idp)], { adapter: store.adapter });
		const browser = await signedIn(app);
		const stored = await accountTokens();
		expect(stored.refresh_token).toEqual(expect.any(String));
		idp.resetCounts();
		later();

		const current = await serverSide(app, browser);
		const token = await current.accessToken('local');
		expect(token, explain(app.errors)).toEqual(expect.any(String));
		expect(token).not.toBe(stored.access_token);
		expect(idp.counts().token).toBe(1);

		const updated = await accountTokens();
		expect(updated.access_token).toBe(token);
		expect(updated.refresh_token).toEqual(expect.any(String));
		expect(updated.refresh_token).not.toBe(stored.refresh_token);
		expect(updated.expires_at).toBeGreaterThan(Date.now() / 1000 + 30);
		expect(current.session?.error).toBeUndefined();

		// Stored and fresh: the next call uses it as is.
		const next = await serverSide(app, browser);
		expect(await next.accessToken('local')).toBe(token);
		expect(idp.counts().token).toBe(1);
	});

	test('parallel calls refresh once and all get the new token', async () => {
		const app = oauthApp([localProvider(idp)], { adapter: store.adapter });
		const browser = await signedIn(app);
		idp.resetCounts();
		later();
		const reads = await Promise.all(Array.from({ length: 5 }, () => serverSide(app, browser)));
		const results = await Promise.all(reads.map((current) => current.accessToken('local')));
		expect(idp.counts().token).toBe(1);
		expect(new Set(results).size).toBe(1);
		expect(results[0]).toEqual(expect.any(String));
		expect((await accountTokens()).access_token).toBe(results[0]);
	});

	test('a refused refresh (invalid_grant) → null and RefreshTokenError; the dead refresh token leaves the row, so no instance sends it again', async () => {
		const { app, browser, stored } = await expiredAtRogue('error');
		expect(stored.refresh_token).toEqual(expect.any(String));
		const first = await serverSide(app, browser);
		expect(await first.accessToken('rogue')).toBeNull();
		expect(first.session?.error).toBe('RefreshTokenError');
		expect(rogue.counts().token).toBe(1);
		expect(await accountTokens('rogue')).toEqual({ ...stored, refresh_token: null });

		// The next call, here on another instance (its own runtime, the same store): no request.
		const otherInstance = oauthApp([rogueProvider()], { adapter: store.adapter });
		const second = await serverSide(otherInstance, browser);
		expect(await second.accessToken('rogue')).toBeNull();
		expect(second.session?.error).toBe('RefreshTokenError');
		expect(rogue.counts().token).toBe(1);
	});

	test('invalid_grant because another instance just rotated the token: the row keeps its fresh tokens, which are the answer', async () => {
		const app = oauthApp([rogueProvider()], { adapter: store.adapter });
		const browser = await signedIn(app, 'rogue', viaRogue);
		later();
		const userId = (await serverSide(app, browser)).session?.user?.id ?? '';
		// What instance A read, just before instance B refreshed (and the IdP rotated the token).
		const readByA = await store.adapter.listAccountsByUserId!(userId);
		const b = await serverSide(app, browser);
		const fromB = await b.accessToken('rogue');
		expect(fromB, explain(app.errors)).toEqual(expect.any(String));
		const afterB = await accountTokens('rogue');

		let stale = true;
		// Without leases (as an Auth.js adapter): with one, A would wait for B's tokens instead of
		// spending the old refresh token (oauth-refresh-instances.test.ts).
		const viewOfA: Adapter = {
			...store.adapter,
			acquireLease: undefined,
			listAccountsByUserId: async (id) => (stale ? ((stale = false), readByA) : store.adapter.listAccountsByUserId!(id))
		};
		const instanceA = oauthApp([rogueProvider()], { adapter: viewOfA });
		rogue.resetCounts();
		const a = await serverSide(instanceA, browser);
		expect(await a.accessToken('rogue')).toBe(fromB);
		expect(a.session?.error).toBeUndefined();
		// A spent the old token and was refused; the row B wrote is untouched.
		expect(rogue.counts().token).toBe(1);
		expect(await accountTokens('rogue')).toEqual(afterB);
	});

	test('a transient failure (503) keeps the refresh token; calls within the 30 s backoff do not reach the provider; later, it is retried', async () => {
		const { app, browser, stored } = await expiredAtRogue('unavailable');
		const first = await serverSide(app, browser);
		expect(await first.accessToken('rogue')).toBeNull();
		expect(first.session?.error).toBe('RefreshTokenError');
		expect(rogue.counts().token).toBe(1);
		expect(await accountTokens('rogue')).toEqual(stored);

		later(10_000);
		const second = await serverSide(app, browser);
		expect(await second.accessToken('rogue')).toBeNull();
		expect(second.session?.error).toBe('RefreshTokenError');
		expect(rogue.counts().token).toBe(1);

		later(30_000);
		const third = await serverSide(app, browser);
		const token = await third.accessToken('rogue');
		expect(token, explain(app.errors)).toEqual(expect.any(String));
		expect(third.session?.error).toBeUndefined();
		expect(rogue.counts().token).toBe(2);
		expect((await accountTokens('rogue')).access_token).toBe(token);
	});

	test('a refresh whose ID token names another subject (OIDC Core §12.2) → null, and the row keeps the old tokens', async () => {
		const { app, browser, stored } = await expiredAtRogue('wrong-sub');
		const current = await serverSide(app, browser);
		const token = await current.accessToken('rogue');
		expect(rogue.counts().token).toBe(1);
		expect(token).toBeNull();
		expect(current.session?.error).toBe('RefreshTokenError');
		expect(await accountTokens('rogue')).toEqual(stored);
	});

	test('no account for that provider, or no session → null', async () => {
		const app = oauthApp([localProvider(idp), rogueProvider()], { adapter: store.adapter });
		const browser = await signedIn(app);
		expect(SESSION_COOKIE in parseCookieHeader(browser.cookieHeader())).toBe(true);
		const current = await serverSide(app, browser);
		expect(current.session).not.toBeNull();
		expect(await current.accessToken('local')).toEqual(expect.any(String));
		expect(await current.accessToken('rogue')).toBeNull();
		const anonymous = await serverSide(app, app.browser());
		expect(anonymous.session).toBeNull();
		expect(await anonymous.accessToken('local')).toBeNull();
	});
});
