import { expect, test } from 'vitest';
import type { AdapterUser } from '../../../src/lib/core/types/models.js';
import {
	createUser,
	newAccount,
	newAuthenticator,
	newSession,
	newUser,
	uid,
	type Target
} from './fixtures.js';

const METHODS = [
	'createUser',
	'getUser',
	'getUserByEmail',
	'getUserByAccount',
	'updateUser',
	'deleteUser',
	'linkAccount',
	'unlinkAccount',
	'getAccount',
	'createSession',
	'getSessionAndUser',
	'updateSession',
	'deleteSession',
	'createVerificationToken',
	'useVerificationToken',
	'createAuthenticator',
	'getAuthenticator',
	'listAuthenticatorsByUserId',
	'updateAuthenticatorCounter',
	'listSessionsByUserId',
	'deleteSessionsByUserId',
	'listAccountsByUserId',
	'updateAccount'
] as const;

export function userTests(target: () => Target): void {
	test('implements every method of the Adapter interface and the kitauth extensions', () => {
		const { adapter } = target();
		const missing = METHODS.filter((name) => typeof adapter[name] !== 'function');
		expect(missing).toEqual([]);
	});

	test('createUser makes the id when the core passes none, and stores every field', async () => {
		const { adapter, db } = target();
		const input = newUser();
		const user = await adapter.createUser(input as AdapterUser);
		expect(typeof user.id).toBe('string');
		expect(user.id.length).toBeGreaterThan(0);
		expect(user).toEqual({ ...input, id: user.id });
		expect(await db.user(user.id)).toEqual({ ...input, id: user.id });
		const other = await createUser(target());
		expect(other.id).not.toBe(user.id);
	});

	test('createUser keeps a given id, and nulls for a user with no verified email or picture', async () => {
		const { adapter, db } = target();
		const id = uid();
		const input: AdapterUser = { id, email: `${id}@example.com`, emailVerified: null, name: null, image: null };
		expect(await adapter.createUser(input)).toEqual(input);
		expect(await db.user(id)).toEqual(input);
	});

	test('createUser rejects a second user with the same email', async () => {
		const { adapter } = target();
		const user = await createUser(target());
		await expect(
			(async () => adapter.createUser({ ...newUser(), email: user.email } as AdapterUser))()
		).rejects.toThrow();
	});

	test('getUser and getUserByEmail: null when unknown, the user otherwise', async () => {
		const { adapter } = target();
		const user = await createUser(target());
		expect(await adapter.getUser(uid())).toBeNull();
		expect(await adapter.getUserByEmail(`${uid()}@example.com`)).toBeNull();
		expect(await adapter.getUser(user.id)).toEqual(user);
		expect(await adapter.getUserByEmail(user.email)).toEqual(user);
	});

	test('updateUser changes the given fields only, dates exactly, and rejects an unknown id', async () => {
		const { adapter, db } = target();
		const user = await createUser(target());
		const verified = new Date(Date.UTC(2040, 11, 31, 23, 59, 59, 999));
		const updated = await adapter.updateUser({ id: user.id, name: 'Renamed', emailVerified: verified });
		expect(updated).toEqual({ ...user, name: 'Renamed', emailVerified: verified });
		expect(await db.user(user.id)).toEqual(updated);
		expect((await db.user(user.id))?.emailVerified?.getTime()).toBe(verified.getTime());
		await expect((async () => adapter.updateUser({ id: uid(), name: 'x' }))()).rejects.toThrow();
	});

	test('linkAccount stores every OAuth field; getUserByAccount finds the user by it', async () => {
		const { adapter, db } = target();
		const user = await createUser(target());
		const account = newAccount(user.id);
		const returned = await adapter.linkAccount(account);
		if (returned) expect(returned).toMatchObject(account);
		expect(await db.account(account)).toMatchObject(account);
		expect(await adapter.getUserByAccount(account)).toEqual(user);
		const { provider, providerAccountId } = account;
		expect(await adapter.getUserByAccount({ provider: 'other', providerAccountId })).toBeNull();
		expect(await adapter.getUserByAccount({ provider, providerAccountId: uid() })).toBeNull();
	});

	test('linkAccount rejects the same provider account twice', async () => {
		const { adapter } = target();
		const account = newAccount((await createUser(target())).id);
		await adapter.linkAccount(account);
		const second = { ...account, userId: (await createUser(target())).id };
		await expect((async () => adapter.linkAccount(second))()).rejects.toThrow();
		expect(await adapter.getUserByAccount(account)).toMatchObject({ id: account.userId });
	});

	test('an account without tokens round-trips without inventing any', async () => {
		const { adapter } = target();
		const user = await createUser(target());
		const account = {
			userId: user.id,
			type: 'email' as const,
			provider: 'email',
			providerAccountId: user.email
		};
		await adapter.linkAccount(account);
		const stored = await adapter.getAccount(user.email, 'email');
		expect(stored).toMatchObject(account);
		for (const field of ['access_token', 'refresh_token', 'id_token', 'expires_at'] as const) {
			expect(stored?.[field] ?? undefined).toBeUndefined();
		}
	});

	test('getAccount(providerAccountId, provider): null for any wrong part, the account otherwise', async () => {
		const { adapter } = target();
		const account = newAccount((await createUser(target())).id, 'webauthn-like');
		await adapter.linkAccount(account);
		expect(await adapter.getAccount(account.providerAccountId, 'nope')).toBeNull();
		expect(await adapter.getAccount(uid(), account.provider)).toBeNull();
		expect(await adapter.getAccount(account.provider, account.providerAccountId)).toBeNull();
		expect(await adapter.getAccount(account.providerAccountId, account.provider)).toMatchObject(account);
	});

	test('unlinkAccount removes the account and keeps the user', async () => {
		const { adapter, db } = target();
		const user = await createUser(target());
		const account = newAccount(user.id);
		await adapter.linkAccount(account);
		const removed = await adapter.unlinkAccount(account);
		if (removed) expect(removed).toMatchObject(account);
		expect(await db.account(account)).toBeNull();
		expect(await adapter.getUserByAccount(account)).toBeNull();
		expect(await db.user(user.id)).toEqual(user);
	});

	test('listAccountsByUserId: the user’s accounts only, [] for an unknown user', async () => {
		const { adapter } = target();
		const user = await createUser(target());
		const mine = [newAccount(user.id, 'github'), newAccount(user.id, 'google')];
		const theirs = newAccount((await createUser(target())).id, 'github');
		for (const account of [...mine, theirs]) await adapter.linkAccount(account);
		const listed = await adapter.listAccountsByUserId(user.id);
		expect(listed).toHaveLength(2);
		expect(listed).toEqual(expect.arrayContaining(mine.map((a) => expect.objectContaining(a))));
		expect(await adapter.listAccountsByUserId(uid())).toEqual([]);
	});

	test('updateAccount stores new token fields, never moves the account, null when unknown', async () => {
		const { adapter } = target();
		const user = await createUser(target());
		const other = await createUser(target());
		const account = newAccount(user.id, 'github');
		await adapter.linkAccount(account);
		const key = { provider: account.provider, providerAccountId: account.providerAccountId };
		const updated = await adapter.updateAccount({ ...key, access_token: 'fresh', expires_at: 1234567890, userId: other.id });
		expect(updated).toEqual(expect.objectContaining({ ...key, access_token: 'fresh', expires_at: 1234567890, userId: user.id }));
		expect((await adapter.getAccount(account.providerAccountId, account.provider))?.access_token).toBe('fresh');
		expect(await adapter.getUserByAccount(key)).toEqual(expect.objectContaining({ id: user.id }));
		expect(await adapter.updateAccount({ provider: 'github', providerAccountId: uid(), access_token: 'x' })).toBeNull();
	});

	test('updateAccount clears a field given as null (a refused refresh token), and only that one', async () => {
		const { adapter } = target();
		const user = await createUser(target());
		const account = newAccount(user.id, 'github');
		await adapter.linkAccount(account);
		const key = { provider: account.provider, providerAccountId: account.providerAccountId };
		const updated = await adapter.updateAccount({ ...key, refresh_token: null });
		expect(updated).not.toHaveProperty('refresh_token');
		const stored = await adapter.getAccount(account.providerAccountId, account.provider);
		expect(stored?.refresh_token).toBeUndefined();
		expect(stored?.access_token).toBe(account.access_token);
	});

	test('deleteUser removes the user with its sessions, accounts and authenticators', async () => {
		const { adapter, db } = target();
		const user = await createUser(target());
		const keep = await createUser(target());
		const session = await adapter.createSession(newSession(user.id));
		const account = newAccount(user.id);
		await adapter.linkAccount(account);
		const authenticator = await adapter.createAuthenticator(newAuthenticator(user.id));
		const keptSession = await adapter.createSession(newSession(keep.id));
		const keptAccount = newAccount(keep.id);
		await adapter.linkAccount(keptAccount);

		const deleted = await adapter.deleteUser(user.id);
		if (deleted) expect(deleted).toEqual(user);
		expect(await db.user(user.id)).toBeNull();
		expect(await db.session(session.sessionToken)).toBeNull();
		expect(await db.account(account)).toBeNull();
		expect(await db.authenticator(authenticator.credentialID)).toBeNull();
		expect(await adapter.getSessionAndUser(session.sessionToken)).toBeNull();
		expect(await db.user(keep.id)).toEqual(keep);
		expect(await db.session(keptSession.sessionToken)).toMatchObject(keptSession);
		expect(await db.account(keptAccount)).toMatchObject(keptAccount);
	});
}
