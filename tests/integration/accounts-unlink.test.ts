/**
 * Linked accounts and unlinking them through the server API, over a real libSQL adapter: an
 * account may be unlinked only while another way to sign in remains.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { createAuthServer, MissingAdapter, MissingAdapterMethods } from '../../src/lib/core/index.js';
import type { AuthConfig } from '../../src/lib/core/types.js';
import type { TestClient } from '../support/client.js';
import { dbSetup, openStore, type Store } from './database-fixtures.js';
import { scryptHasher } from '../../src/lib/core/passwords/hash.js';
import Password from '../../src/lib/providers/password.js';
import { ALICE, ORIGIN, SESSION_COOKIE, setup, signedIn } from './fixtures.js';

const stores: Store[] = [];
afterEach(() => stores.splice(0).forEach((store) => store.close()));

function current(config: AuthConfig, browser: TestClient | undefined) {
	const url = `${ORIGIN}/account`;
	const headers = new Headers(browser ? { cookie: browser.cookieHeader() } : {});
	return createAuthServer(config).session({ url: new URL(url), request: new Request(url, { headers }) });
}

/** Alice signed in (credentials), with the given accounts linked to her in the database. */
async function alice(links: { provider: string; providerAccountId: string; type?: 'oauth' | 'oidc' }[], strategy: 'database' | 'jwt' = 'database') {
	const db = await openStore('memory');
	stores.push(db);
	const s = dbSetup(db, { session: { strategy } });
	const browser = await signedIn(s);
	// Credentials sign-ins store no user: Alice's row is made here, as an earlier OAuth sign-up would.
	if (!(await db.users()).some((u) => u.id === ALICE.id)) {
		await db.db.execute({ sql: 'INSERT INTO "user" ("id", "name", "email") VALUES (?, ?, ?)', args: [ALICE.id, ALICE.name, ALICE.email] });
	}
	for (const link of links) await db.adapter.linkAccount!({ userId: ALICE.id, type: link.type ?? 'oauth', ...link });
	return { db, s, browser };
}

async function linkedProviders(db: Store): Promise<string[]> {
	const rows = await db.db.execute({ sql: 'SELECT "provider" FROM "account" WHERE "userId" = ? ORDER BY "provider"', args: [ALICE.id] });
	return rows.rows.map((row) => String(row['provider']));
}

describe.each(['database', 'jwt'] as const)('linked accounts (%s sessions)', (strategy) => {
	test('two linked accounts: each may be unlinked; after one goes, the last may not', async () => {
		const { db, s, browser } = await alice([{ provider: 'github', providerAccountId: '11' }, { provider: 'local', providerAccountId: 'sub-1', type: 'oidc' }], strategy);
		const session = await current(s.config, browser);
		expect(await session.linkedAccounts()).toEqual([
			{ provider: 'github', type: 'oauth', providerAccountId: '11', unlinkable: true },
			{ provider: 'local', type: 'oidc', providerAccountId: 'sub-1', unlinkable: true }
		]);
		const unlinked = await session.unlinkAccount('github');
		expect(unlinked).toMatchObject({ ok: true, account: { provider: 'github', type: 'oauth', providerAccountId: '11' } });
		expect(await linkedProviders(db)).toEqual(['local']);
		// A credential went: the user's other sessions ended, this one stays (JWT: re-issued, as the
		// SvelteKit edge sets it on the response).
		if (unlinked.ok) for (const cookie of unlinked.sessionsEnded?.cookies ?? []) browser.setCookie(cookie.name, cookie.value);

		const after = await current(s.config, browser);
		expect(await after.linkedAccounts()).toEqual([{ provider: 'local', type: 'oidc', providerAccountId: 'sub-1', unlinkable: false }]);
		expect(await after.unlinkAccount('local')).toEqual({ ok: false, reason: 'last-sign-in-method' });
		expect(await linkedProviders(db)).toEqual(['local']);
	});

	test('the app vouches for another way (a password): the last account may go', async () => {
		const { db, s, browser } = await alice([{ provider: 'github', providerAccountId: '11' }], strategy);
		const session = await current(s.config, browser);
		expect((await session.linkedAccounts({ otherSignIn: true }))[0]!.unlinkable).toBe(true);
		expect((await session.unlinkAccount('github', { otherSignIn: true })).ok).toBe(true);
		expect(await linkedProviders(db)).toEqual([]);
	});

	test('not linked, another provider account id, or unknown: not-linked, nothing removed', async () => {
		const { db, s, browser } = await alice([{ provider: 'github', providerAccountId: '11' }, { provider: 'github', providerAccountId: '22' }], strategy);
		const session = await current(s.config, browser);
		for (const provider of ['gitlab', '__proto__', '', 'github\u0000']) {
			expect(await session.unlinkAccount(provider), provider).toEqual({ ok: false, reason: 'not-linked' });
		}
		// Two GitHub accounts and no id to choose: refused rather than guessed.
		expect(await session.unlinkAccount('github')).toEqual({ ok: false, reason: 'not-linked' });
		expect(await session.unlinkAccount('github', { providerAccountId: '33' })).toEqual({ ok: false, reason: 'not-linked' });
		expect(await linkedProviders(db)).toEqual(['github', 'github']);
		expect((await session.unlinkAccount('github', { providerAccountId: '22' })).ok).toBe(true);
		expect(await linkedProviders(db)).toEqual(['github']);
	});

	test("another user's account is never theirs to unlink", async () => {
		const { db, s, browser } = await alice([{ provider: 'github', providerAccountId: '11' }], strategy);
		await db.db.execute({ sql: 'INSERT INTO "user" ("id", "email") VALUES (?, ?)', args: ['user-2', 'bob@example.com'] });
		await db.adapter.linkAccount!({ userId: 'user-2', type: 'oauth', provider: 'gitlab', providerAccountId: '99' });
		await db.adapter.linkAccount!({ userId: 'user-2', type: 'oauth', provider: 'github', providerAccountId: '98' });
		const session = await current(s.config, browser);
		expect(await session.unlinkAccount('gitlab', { otherSignIn: true })).toEqual({ ok: false, reason: 'not-linked' });
		expect(await session.unlinkAccount('github', { providerAccountId: '98', otherSignIn: true })).toEqual({ ok: false, reason: 'not-linked' });
		const bobs = await db.db.execute({ sql: 'SELECT count(*) AS n FROM "account" WHERE "userId" = ?', args: ['user-2'] });
		expect(Number(bobs.rows[0]!['n'])).toBe(2);
	});

	test('signed out: nothing listed, signed-out', async () => {
		const { db, s } = await alice([{ provider: 'github', providerAccountId: '11' }], strategy);
		const session = await current(s.config, undefined);
		expect(await session.linkedAccounts()).toEqual([]);
		expect(await session.unlinkAccount('github', { otherSignIn: true })).toEqual({ ok: false, reason: 'signed-out' });
		expect(await linkedProviders(db)).toEqual(['github']);
	});
});

test('without an adapter: MissingAdapter; an adapter without unlinkAccount: MissingAdapterMethods', async () => {
	const plain = setup();
	await expect((await current(plain.config, await signedIn(plain))).unlinkAccount('github')).rejects.toBeInstanceOf(MissingAdapter);
	const db = await openStore('memory');
	stores.push(db);
	const { unlinkAccount: _unlink, ...adapter } = db.adapter;
	const s = setup({ adapter });
	await expect((await current(s.config, await signedIn(s))).unlinkAccount('github')).rejects.toBeInstanceOf(MissingAdapterMethods);
});

describe('Password() counts as a way to sign in when the user has a password', () => {
	const FAST = scryptHasher({ N: 2 ** 10, r: 8, p: 1 });
	const EMAIL = 'carol@example.com';

	async function carol(withPassword: boolean) {
		const db = await openStore('memory');
		stores.push(db);
		const s = dbSetup(db, { providers: [Password({ hasher: FAST })] });
		// Carol signs up with a password; Dave's row is an OAuth sign-up's (no password).
		if (withPassword) await s.client().postForm('signup/password', { email: EMAIL, password: 'correct horse battery staple' });
		else await db.db.execute({ sql: 'INSERT INTO "user" ("id", "email") VALUES (?, ?)', args: ['dave', EMAIL] });
		const user = (await db.users()).find((u) => u.email === EMAIL)!;
		await db.adapter.linkAccount!({ userId: user.id, type: 'oauth', provider: 'github', providerAccountId: '11' });
		const browser = s.client();
		const token = 'carol-session-token';
		await db.adapter.createSession!({ sessionToken: token, userId: user.id, expires: new Date(Date.now() + 3_600_000) });
		browser.setCookie(SESSION_COOKIE, token);
		return { db, s, browser };
	}

	test('a stored password: the last linked account may be unlinked', async () => {
		const { db, s, browser } = await carol(true);
		const session = await current(s.config, browser);
		expect((await session.linkedAccounts())[0]!.unlinkable).toBe(true);
		expect((await session.unlinkAccount('github')).ok).toBe(true);
		expect(await db.adapter.listAccountsByUserId!((await db.users())[0]!.id)).toEqual([]);
	});

	test('no password stored for the user: the last account stays', async () => {
		const { s, browser } = await carol(false);
		const session = await current(s.config, browser);
		expect((await session.linkedAccounts())[0]!.unlinkable).toBe(false);
		expect(await session.unlinkAccount('github')).toEqual({ ok: false, reason: 'last-sign-in-method' });
	});
});
