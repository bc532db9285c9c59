/**
 * OAuth/OIDC sign-in with the LibSQL adapter (`:memory:`): users and accounts created and found,
 * the events and the `pages.newUser` redirect of a first sign-in, the `jwt` callback's triggers
 * (JWT strategy with an adapter), and Auth.js's account-linking rules — against a real OpenID
 * Provider (two clients on it) and, as a second identity provider, the rogue OP.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { Account, EventCallbacks, JWTCallbackParams, OAuthConfig, User } from '../../src/lib/core/types.js';
import { startTestIdp, type TestIdp } from '../support/oidc-provider.js';
import { rogueOidc, startRogueIdp, type RogueIdp } from '../support/rogue-idp.js';
import type { TestClient } from '../support/client.js';
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
	signInPageError,
	type OAuthApp
} from '../support/oauth-app.js';
import { openStore, type Store } from './database-fixtures.js';

const SECOND_CLIENT_ID = 'kitauth-test-second';
const SECOND_CLIENT_SECRET = 'second-secret-0123456789abcdef0123456789';
const HOME = `${APP_ORIGIN}/`;

interface AccountRow {
	userId: string;
	type: string;
	provider: string;
	providerAccountId: string;
	access_token: string | null;
	refresh_token: string | null;
	id_token: string | null;
	expires_at: number | null;
	token_type: string | null;
	scope: string | null;
}

let idp: TestIdp;
let rogue: RogueIdp;
let store: Store;

beforeAll(async () => {
	const redirectUris = ['local', 'second', 'rogue'].map((id) => callbackUri(id));
	idp = await startTestIdp({
		redirectUris,
		clients: [{ client_id: SECOND_CLIENT_ID, client_secret: SECOND_CLIENT_SECRET, redirect_uris: redirectUris }]
	});
	rogue = await startRogueIdp({ redirectUris });
});
afterAll(async () => {
	await idp.close();
	await rogue.close();
});
beforeEach(async () => {
	idp.resetCounts();
	rogue.reset();
	store = await openStore('memory');
});
afterEach(() => store.close());

async function accountRows(): Promise<AccountRow[]> {
	const result = await store.db.execute('SELECT * FROM "account" ORDER BY "provider", "providerAccountId"');
	return result.rows.map((row) => ({
		userId: String(row['userId']),
		type: String(row['type']),
		provider: String(row['provider']),
		providerAccountId: String(row['providerAccountId']),
		access_token: row['access_token'] === null ? null : String(row['access_token']),
		refresh_token: row['refresh_token'] === null ? null : String(row['refresh_token']),
		id_token: row['id_token'] === null ? null : String(row['id_token']),
		expires_at: row['expires_at'] === null ? null : Number(row['expires_at']),
		token_type: row['token_type'] === null ? null : String(row['token_type']),
		scope: row['scope'] === null ? null : String(row['scope'])
	}));
}

/** The same IdP through a second registered client, as a second provider. */
const secondProvider = (overrides: Partial<OAuthConfig> = {}): OAuthConfig =>
	localProvider(idp, { id: 'second', name: 'Second', clientId: SECOND_CLIENT_ID, clientSecret: SECOND_CLIENT_SECRET, ...overrides });

/** Another identity provider altogether. */
const rogueProvider = (): OAuthConfig => rogueOidc(rogue.issuer);

const as = (login: string) => (url: URL) => idp.completeInteraction(url, { login });
/** The rogue OP signs in the account named by `login_hint`. */
const rogueAs = (login: string) => (url: URL) => {
	url.searchParams.set('login_hint', login);
	return rogue.completeInteraction(url);
};

interface Recorded {
	createUser: User[];
	linkAccount: Array<{ user: User; account: Account }>;
	signIn: Array<{ user: User; account: Account | null; isNewUser?: boolean }>;
}

function recordEvents(): { events: Partial<EventCallbacks>; recorded: Recorded } {
	const recorded: Recorded = { createUser: [], linkAccount: [], signIn: [] };
	return {
		recorded,
		events: {
			createUser: ({ user }) => void recorded.createUser.push(user),
			linkAccount: ({ user, account }) => void recorded.linkAccount.push({ user, account }),
			signIn: ({ user, account, isNewUser }) => void recorded.signIn.push({ user, account, isNewUser })
		}
	};
}

function dbApp(providers: OAuthConfig[], extra: Parameters<typeof oauthApp>[1] = {}): OAuthApp {
	return oauthApp(providers, { adapter: store.adapter, ...extra });
}

async function sessionUserId(browser: TestClient): Promise<string | undefined> {
	const session = (await browser.session()) as { user?: { id?: string } } | null;
	return session?.user?.id;
}

describe('database sessions', () => {
	test('first sign-in: a user and an account are created, events fire, a session row is written', async () => {
		const { events, recorded } = recordEvents();
		const app = dbApp([localProvider(idp)], { events });
		const browser = app.browser();
		const before = Math.floor(Date.now() / 1000);
		const { res } = await oauthSignIn(browser, 'local', as('alice'), { form: { callbackUrl: '/dashboard' } });
		const after = Math.ceil(Date.now() / 1000);
		expect(res.headers.get('location'), explain(app.errors)).toBe(`${APP_ORIGIN}/dashboard`);
		expect(sessionCookiesSet(res).map((c) => c.name)).toEqual([SESSION_COOKIE]);

		const users = await store.users();
		expect(users).toHaveLength(1);
		const user = users[0]!;
		// The IdP says Alice's address is verified (email_verified), so the new user's is too.
		expect(user).toMatchObject({ name: 'Alice Liddell', email: 'alice@example.test', image: 'https://img.example.test/alice.png', emailVerified: expect.any(Number) });
		expect(user.id).not.toBe(idp.accounts.alice?.sub);

		const accounts = await accountRows();
		expect(accounts).toHaveLength(1);
		const account = accounts[0]!;
		expect(account).toMatchObject({
			userId: user.id,
			type: 'oidc',
			provider: 'local',
			providerAccountId: idp.accounts.alice?.sub,
			access_token: expect.any(String),
			id_token: expect.any(String),
			token_type: 'bearer',
			scope: expect.stringContaining('openid')
		});
		// expires_at = now + expires_in (the IdP's default access-token lifetime is 3600 s).
		expect(account.expires_at).toBeGreaterThanOrEqual(before + 3600 - 1);
		expect(account.expires_at).toBeLessThanOrEqual(after + 3600 + 1);

		expect(recorded.createUser).toEqual([expect.objectContaining({ id: user.id, email: 'alice@example.test' })]);
		expect(recorded.linkAccount).toEqual([
			{ user: expect.objectContaining({ id: user.id }), account: expect.objectContaining({ provider: 'local', providerAccountId: idp.accounts.alice?.sub, userId: user.id }) }
		]);
		expect(recorded.signIn).toEqual([
			{ user: expect.objectContaining({ id: user.id }), account: expect.objectContaining({ provider: 'local' }), isNewUser: true }
		]);

		expect(await store.sessions()).toEqual([expect.objectContaining({ userId: user.id })]);
		expect(await browser.session()).toMatchObject({ user: { id: user.id, email: 'alice@example.test', name: 'Alice Liddell' } });
	});

	test('a second sign-in finds the same user: nothing created, isNewUser false', async () => {
		const { events, recorded } = recordEvents();
		const app = dbApp([localProvider(idp)], { events });
		const first = app.browser();
		await oauthSignIn(first, 'local', as('alice'));
		const second = app.browser();
		const { res } = await oauthSignIn(second, 'local', as('alice'));
		expect(res.headers.get('location'), explain(app.errors)).toBe(HOME);

		expect(await store.users()).toHaveLength(1);
		expect(await accountRows()).toHaveLength(1);
		expect(recorded.createUser).toHaveLength(1);
		expect(recorded.linkAccount).toHaveLength(1);
		expect(recorded.signIn.map((e) => e.isNewUser)).toEqual([true, false]);
		const id = await sessionUserId(first);
		expect(id).toBeDefined();
		expect(await sessionUserId(second)).toBe(id);
		expect(await store.sessions()).toHaveLength(2);
	});

	test('pages.newUser: the first sign-in goes there (with the callbackUrl), later ones do not', async () => {
		const app = dbApp([localProvider(idp)], { pages: { newUser: '/welcome' } });
		const first = await oauthSignIn(app.browser(), 'local', as('alice'), { form: { callbackUrl: '/dashboard' } });
		expect(first.res.headers.get('location')).toBe(`${APP_ORIGIN}/welcome?callbackUrl=${encodeURIComponent(`${APP_ORIGIN}/dashboard`)}`);
		const second = await oauthSignIn(app.browser(), 'local', as('alice'), { form: { callbackUrl: '/dashboard' } });
		expect(second.res.headers.get('location')).toBe(`${APP_ORIGIN}/dashboard`);
	});
});

describe('JWT strategy with an adapter', () => {
	test("the jwt callback sees trigger 'signUp' on the first sign-in, then 'signIn'; the token's sub is the stored user", async () => {
		const calls: JWTCallbackParams[] = [];
		const app = dbApp([localProvider(idp)], {
			session: { strategy: 'jwt' },
			callbacks: { jwt: (params) => (params.trigger && calls.push(params), params.token) }
		});
		const first = app.browser();
		expect((await oauthSignIn(first, 'local', as('alice'))).res.status).toBe(302);
		const second = app.browser();
		expect((await oauthSignIn(second, 'local', as('alice'))).res.status).toBe(302);

		expect(calls.map((c) => c.trigger)).toEqual(['signUp', 'signIn']);
		expect(calls.map((c) => c.isNewUser)).toEqual([true, false]);
		expect(calls[0]?.account).toMatchObject({ provider: 'local', providerAccountId: idp.accounts.alice?.sub, access_token: expect.any(String) });
		expect(calls[0]?.profile).toMatchObject({ sub: idp.accounts.alice?.sub, email: 'alice@example.test' });

		const [user] = await store.users();
		expect((await sessionClaims(first))?.sub).toBe(user?.id);
		expect((await sessionClaims(second))?.sub).toBe(user?.id);
		expect(await store.sessions()).toEqual([]);
		expect(await accountRows()).toHaveLength(1);
		// An adapter keeps the provider tokens: the cookie does not.
		expect(await sessionClaims(first)).not.toHaveProperty('oauth');
	});
});

describe('account linking', () => {
	test.each([
		['a second client of the same IdP', 'second', () => secondProvider(), as('bob')],
		['another IdP', 'rogue', () => rogueProvider(), rogueAs('bob')]
	] as const)('signed in, a new account (%s) is linked to the current user', async (_label, id, provider, authorize) => {
		const { events, recorded } = recordEvents();
		const app = dbApp([localProvider(idp), provider()], { events });
		const browser = app.browser();
		expect((await oauthSignIn(browser, 'local', as('alice'))).res.status).toBe(302);
		const aliceId = await sessionUserId(browser);
		expect(aliceId).toBeDefined();

		// Signed in as Alice, she connects an account whose IdP identity is Bob's (another email).
		const { res } = await oauthSignIn(browser, id, authorize);
		expect(res.headers.get('location'), explain(app.errors)).toBe(HOME);
		expect(await store.users()).toHaveLength(1);
		const accounts = await accountRows();
		expect(accounts.map((a) => [a.provider, a.providerAccountId, a.userId])).toEqual(
			expect.arrayContaining([
				['local', idp.accounts.alice?.sub, aliceId],
				[id, idp.accounts.bob?.sub, aliceId]
			])
		);
		expect(accounts).toHaveLength(2);
		expect(recorded.linkAccount.map((e) => [e.account.provider, e.user.id])).toEqual([
			['local', aliceId],
			[id, aliceId]
		]);
		expect(recorded.signIn.map((e) => e.isNewUser)).toEqual([true, false]);
		expect(await sessionUserId(browser)).toBe(aliceId);
		expect(await browser.session()).toMatchObject({ user: { email: 'alice@example.test' } });
	});

	test('signed out, a new account with an email already taken → OAuthAccountNotLinked on the sign-in page', async () => {
		const app = dbApp([localProvider(idp), secondProvider()]);
		expect((await oauthSignIn(app.browser(), 'local', as('alice'))).res.status).toBe(302);

		const browser = app.browser();
		const { res } = await oauthSignIn(browser, 'second', as('alice'));
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(signInPageError('OAuthAccountNotLinked'));
		expect(sessionCookiesSet(res)).toEqual([]);
		expect(await browser.session()).toBeNull();
		expect(await store.users()).toHaveLength(1);
		expect((await accountRows()).map((a) => a.provider)).toEqual(['local']);
		expect(await store.sessions()).toHaveLength(1);
	});

	test('…unless the provider allows dangerous email account linking: then it joins that user', async () => {
		const { events, recorded } = recordEvents();
		const app = dbApp([localProvider(idp), secondProvider({ allowDangerousEmailAccountLinking: true })], { events });
		const first = app.browser();
		expect((await oauthSignIn(first, 'local', as('alice'))).res.status).toBe(302);
		const aliceId = await sessionUserId(first);

		const browser = app.browser();
		const { res } = await oauthSignIn(browser, 'second', as('alice'));
		expect(res.headers.get('location'), explain(app.errors)).toBe(HOME);
		expect(await sessionUserId(browser)).toBe(aliceId);
		expect(await store.users()).toHaveLength(1);
		expect((await accountRows()).map((a) => [a.provider, a.userId])).toEqual([
			['local', aliceId],
			['second', aliceId]
		]);
		expect(recorded.createUser).toHaveLength(1);
		expect(recorded.signIn.map((e) => e.isNewUser)).toEqual([true, false]);
	});

	test("signed in as one user, an account already linked to another user → OAuthAccountNotLinked, the session is kept", async () => {
		const app = dbApp([localProvider(idp)]);
		const bobBrowser = app.browser();
		expect((await oauthSignIn(bobBrowser, 'local', as('bob'))).res.status).toBe(302);
		const bobId = await sessionUserId(bobBrowser);

		const browser = app.browser();
		expect((await oauthSignIn(browser, 'local', as('alice'))).res.status).toBe(302);
		const aliceId = await sessionUserId(browser);
		expect(aliceId).not.toBe(bobId);
		const aliceCookie = browser.cookie(SESSION_COOKIE);

		const { res } = await oauthSignIn(browser, 'local', as('bob'));
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(signInPageError('OAuthAccountNotLinked'));
		expect(sessionCookiesSet(res)).toEqual([]);
		expect(browser.cookie(SESSION_COOKIE)).toBe(aliceCookie);
		expect(await sessionUserId(browser)).toBe(aliceId);
		expect((await accountRows()).map((a) => [a.providerAccountId, a.userId])).toEqual(
			expect.arrayContaining([
				[idp.accounts.alice?.sub, aliceId],
				[idp.accounts.bob?.sub, bobId]
			])
		);
		expect(await accountRows()).toHaveLength(2);
	});

	test('signed in, signing in again with the same account keeps the same user (no new link)', async () => {
		const { events, recorded } = recordEvents();
		const app = dbApp([localProvider(idp)], { events });
		const browser = app.browser();
		await oauthSignIn(browser, 'local', as('alice'));
		const aliceId = await sessionUserId(browser);
		const oldCookie = browser.cookie(SESSION_COOKIE);
		const { res } = await oauthSignIn(browser, 'local', as('alice'));
		expect(res.headers.get('location'), explain(app.errors)).toBe(HOME);
		// A new sign-in always gets a new session token; the old one is gone.
		expect(browser.cookie(SESSION_COOKIE)).not.toBe(oldCookie);
		expect(await sessionUserId(browser)).toBe(aliceId);
		expect(recorded.linkAccount).toHaveLength(1);
		expect(await store.sessions()).toHaveLength(1);
	});
});
