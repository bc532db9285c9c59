/**
 * Session management ("where am I signed in", revoke one, sign out everywhere else) over real
 * database sessions made by real sign-ins through `Auth()`, and the configuration assertions of
 * the database strategy.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createAuthServer, MissingAdapter, MissingAdapterMethods, UnsupportedStrategy } from '../../src/lib/core/index.js';
import type { Adapter, AuthConfig, Session } from '../../src/lib/core/types.js';
import type { TestClient } from '../support/client.js';
import { dbSetup, openStore, sha256, STORE_KINDS, type Store } from './database-fixtures.js';
import { ALICE, ALICE_LOGIN, ORIGIN, passwordProvider, SECRET, SESSION_COOKIE, sessionCookiesSet, setup, signedIn } from './fixtures.js';

const stores: Store[] = [];
afterEach(() => {
	vi.useRealTimers();
	stores.splice(0).forEach((store) => store.close());
});

/** What a server-side caller (e.g. a form action) does for the browser's request: the server API. */
function managerFor(config: AuthConfig, browser: TestClient | undefined) {
	const url = `${ORIGIN}/account`;
	const headers = new Headers(browser ? { cookie: browser.cookieHeader() } : {});
	const current = () => createAuthServer(config).session({ url: new URL(url), request: new Request(url, { headers }) });
	return {
		list: async () => (await current()).listSessions(),
		revoke: async (id: string) => (await current()).revokeSession(id),
		revokeOthers: async () => (await current()).revokeOtherSessions()
	};
}

const BROWSERS = ['Firefox/140.0', 'Chrome/139.0', 'Safari/18.5'] as const;

describe.each(STORE_KINDS)('session management (%s)', (kind) => {
	async function store(): Promise<Store> {
		const opened = await openStore(kind);
		stores.push(opened);
		return opened;
	}

	/** Alice signed in from three browsers, one cookie jar each. */
	async function threeBrowsers(db: Store) {
		const s = dbSetup(db);
		const browsers: TestClient[] = [];
		for (const agent of BROWSERS) {
			const browser = s.client();
			const res = await browser.signInWithCredentials('credentials', { ...ALICE_LOGIN }, { headers: { 'user-agent': `Mozilla/5.0 ${agent}` } });
			expect(res.status).toBe(302);
			browsers.push(browser);
		}
		return { s, browsers };
	}

	test('list: three sessions, opaque ids (neither token nor hash), one current, user agents', async () => {
		const db = await store();
		const { s, browsers } = await threeBrowsers(db);
		const tokens = browsers.map((b) => b.cookie(SESSION_COOKIE)!);
		const list = await managerFor(s.config, browsers[1]).list();
		expect(list).toHaveLength(3);
		expect(list.filter((entry) => entry.current)).toHaveLength(1);
		expect(list.map((entry) => entry.userAgent).sort()).toEqual(BROWSERS.map((agent) => `Mozilla/5.0 ${agent}`).sort());
		expect(list.find((entry) => entry.current)!.userAgent).toBe(`Mozilla/5.0 ${BROWSERS[1]}`);
		expect(new Set(list.map((entry) => entry.id)).size).toBe(3);
		const text = JSON.stringify(list);
		for (const token of tokens) {
			expect(text).not.toContain(token);
			expect(text).not.toContain(sha256(token));
		}
		for (const entry of list) {
			expect(entry.id).toMatch(/^[\w-]{16,}$/);
			expect(entry.createdAt).not.toBeNull();
			expect(Date.parse(entry.expires)).toBeGreaterThan(Date.now());
		}
		// The same session has the same id whoever asks.
		const fromFirst = await managerFor(s.config, browsers[0]).list();
		expect(fromFirst.map((entry) => entry.id).sort()).toEqual(list.map((entry) => entry.id).sort());
		expect(fromFirst.find((entry) => entry.current)!.userAgent).toBe(`Mozilla/5.0 ${BROWSERS[0]}`);
	});

	test('list: a session past its absolute lifetime is not listed, though its row has not expired', async () => {
		const DAY = 24 * 3600 * 1000;
		const t0 = Date.parse('2031-06-01T00:00:00Z');
		const db = await store();
		// The first browser signs in before the app sets an absolute lifetime: its row expires in 30 days.
		vi.setSystemTime(t0);
		const before = await signedIn(dbSetup(db));
		vi.setSystemTime(t0 + DAY);
		const now = dbSetup(db, { session: { absoluteMaxAge: DAY / 1000 } });
		const after = await signedIn(now);
		vi.setSystemTime(t0 + DAY + 3600 * 1000);
		const list = await managerFor(now.config, after).list();
		expect(list).toHaveLength(1);
		expect(list[0]!.current).toBe(true);
		// The same rule as a read: to itself, the old browser is signed out.
		expect(await managerFor(now.config, before).list()).toEqual([]);
	});

	test('revoke one by id: that browser is signed out, the others are not', async () => {
		const db = await store();
		const { s, browsers } = await threeBrowsers(db);
		const manager = managerFor(s.config, browsers[0]);
		const target = (await manager.list()).find((entry) => entry.userAgent?.endsWith(BROWSERS[2]))!;
		expect(await manager.revoke(target.id)).toBe(true);
		expect(await browsers[2]!.session()).toBeNull();
		expect(((await browsers[0]!.session()) as Session).user?.id).toBe(ALICE.id);
		expect(((await browsers[1]!.session()) as Session).user?.id).toBe(ALICE.id);
		expect(await db.sessions()).toHaveLength(2);
		expect(await manager.revoke(target.id)).toBe(false); // already gone
		expect(await manager.revoke('not-an-id')).toBe(false);
		expect(await db.sessions()).toHaveLength(2);
	});

	test("another user's session id: false, nothing deleted", async () => {
		const db = await store();
		const s = dbSetup(db, {
			providers: [
				passwordProvider({
					authorize: ({ username }) =>
						username === 'alice' ? { ...ALICE } : username === 'bob' ? { id: 'user-2', name: 'Bob', email: 'bob@example.com' } : null
				})
			]
		});
		const alice = await signedIn(s);
		const bob = s.client();
		expect((await bob.signInWithCredentials('credentials', { username: 'bob', password: 'x' })).status).toBe(302);
		const [bobs] = await managerFor(s.config, bob).list();
		expect(bobs!.current).toBe(true);

		expect(await managerFor(s.config, alice).revoke(bobs!.id)).toBe(false);
		expect(await db.sessions()).toHaveLength(2);
		expect(((await bob.session()) as Session).user?.id).toBe('user-2');
		// And Alice's list never shows Bob's session.
		expect((await managerFor(s.config, alice).list()).map((entry) => entry.id)).not.toContain(bobs!.id);
	});

	test('revoke others: only the current session remains', async () => {
		const db = await store();
		const { s, browsers } = await threeBrowsers(db);
		const current = browsers[1]!;
		expect(await managerFor(s.config, current).revokeOthers()).toBe(2);
		expect(await db.sessions()).toEqual([expect.objectContaining({ sessionToken: sha256(current.cookie(SESSION_COOKIE)!) })]);
		expect(((await current.session()) as Session).user?.id).toBe(ALICE.id);
		expect(await browsers[0]!.session()).toBeNull();
		expect(await browsers[2]!.session()).toBeNull();
		const list = await managerFor(s.config, current).list();
		expect(list).toHaveLength(1);
		expect(list[0]!.current).toBe(true);
	});

	test('not signed in (no cookie, a garbage cookie, a revoked session): [] / false / 0', async () => {
		const db = await store();
		const { s, browsers } = await threeBrowsers(db);
		const id = (await managerFor(s.config, browsers[0]).list())[0]!.id;
		const garbage = s.client();
		garbage.setCookie(SESSION_COOKIE, 'f'.repeat(64));
		const signedOut = browsers[2]!;
		expect((await signedOut.postForm('signout')).status).toBe(302);
		signedOut.jar.delete(SESSION_COOKIE);
		for (const browser of [undefined, garbage, signedOut]) {
			const manager = managerFor(s.config, browser);
			expect(await manager.list()).toEqual([]);
			expect(await manager.revoke(id)).toBe(false);
			expect(await manager.revokeOthers()).toBe(0);
		}
		expect(await db.sessions()).toHaveLength(2);
	});

	test('an expired session is not listed', async () => {
		const db = await store();
		const { s, browsers } = await threeBrowsers(db);
		await db.db.execute({ sql: 'UPDATE "session" SET "expires" = ? WHERE "sessionToken" = ?', args: [Date.now() - 1000, sha256(browsers[2]!.cookie(SESSION_COOKIE)!)] });
		expect(await managerFor(s.config, browsers[0]).list()).toHaveLength(2);
	});

	test('with the JWT strategy every operation throws UnsupportedStrategy', async () => {
		const db = await store();
		const s = dbSetup(db, { session: { strategy: 'jwt' } });
		const browser = await signedIn(s);
		const manager = managerFor(s.config, browser);
		await expect(manager.list()).rejects.toBeInstanceOf(UnsupportedStrategy);
		await expect(manager.revoke('x')).rejects.toBeInstanceOf(UnsupportedStrategy);
		await expect(manager.revokeOthers()).rejects.toBeInstanceOf(UnsupportedStrategy);
		const noAdapter = setup();
		await expect(managerFor(noAdapter.config, await signedIn(noAdapter)).list()).rejects.toBeInstanceOf(UnsupportedStrategy);
	});

	test('an adapter without the listing methods: MissingAdapterMethods', async () => {
		const db = await store();
		const { listSessionsByUserId: _list, deleteSessionsByUserId: _delete, ...adapter } = db.adapter;
		const s = setup({ adapter });
		const browser = await signedIn(s);
		await expect(managerFor(s.config, browser).list()).rejects.toBeInstanceOf(MissingAdapterMethods);
	});
});

describe('configuration assertions of the database strategy', () => {
	const base = { secret: SECRET, trustHost: true, providers: [passwordProvider()] } satisfies AuthConfig;

	test('strategy database without an adapter: MissingAdapter', () => {
		expect(() => createAuthServer({ ...base, session: { strategy: 'database' } })).toThrow(MissingAdapter);
	});

	test('an adapter lacking session methods: MissingAdapterMethods naming them', async () => {
		const db = await openStore('memory');
		stores.push(db);
		const { createSession: _c, getSessionAndUser: _g, ...partial } = db.adapter;
		const attempt = () => createAuthServer({ ...base, adapter: partial });
		expect(attempt).toThrow(MissingAdapterMethods);
		expect(attempt).toThrow(/createSession.*getSessionAndUser/);
	});

	test('credentials with database sessions need the user methods: MissingAdapterMethods', async () => {
		const db = await openStore('memory');
		stores.push(db);
		const { createSession, getSessionAndUser, updateSession, deleteSession } = db.adapter;
		const sessionsOnly: Adapter = { createSession, getSessionAndUser, updateSession, deleteSession };
		expect(() => createAuthServer({ ...base, adapter: sessionsOnly })).toThrow(MissingAdapterMethods);
		// The same adapter is fine with JWT sessions (credentials users are not stored then).
		expect(() => createAuthServer({ ...base, adapter: sessionsOnly, session: { strategy: 'jwt' } })).not.toThrow();
	});

	test('through Auth(): a misconfiguration answers 500 JSON without internals and never a session', async () => {
		const s = setup({ session: { strategy: 'database' } });
		const res = await s.client().get('session');
		expect(res.status).toBe(500);
		const body = (await res.json()) as { message: string };
		expect(body.message).not.toMatch(/adapter/i);
		const signIn = await s.client().post('callback/credentials', { form: { ...ALICE_LOGIN } });
		expect(signIn.status).toBe(500);
		expect(sessionCookiesSet(signIn)).toEqual([]);
	});
});
