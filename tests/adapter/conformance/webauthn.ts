import { expect, test } from 'vitest';
import { createUser, newAuthenticator, uid, type Target } from './fixtures.js';

export function webauthnTests(target: () => Target): void {
	test('createAuthenticator returns and stores the authenticator, booleans and nulls intact', async () => {
		const { adapter, db } = target();
		const user = await createUser(target());
		for (const input of [
			newAuthenticator(user.id),
			{ ...newAuthenticator(user.id), credentialBackedUp: false, transports: null, counter: 7 }
		]) {
			expect(await adapter.createAuthenticator(input)).toEqual(input);
			expect(await db.authenticator(input.credentialID)).toEqual(input);
		}
	});

	test('createAuthenticator throws for a credentialID that already exists', async () => {
		const { adapter, db } = target();
		const first = newAuthenticator((await createUser(target())).id);
		await adapter.createAuthenticator(first);
		const clash = { ...newAuthenticator((await createUser(target())).id), credentialID: first.credentialID };
		await expect((async () => adapter.createAuthenticator(clash))()).rejects.toThrow();
		expect(await db.authenticator(first.credentialID)).toEqual(first);
	});

	test('getAuthenticator: null when unknown, the authenticator otherwise', async () => {
		const { adapter } = target();
		const authenticator = newAuthenticator((await createUser(target())).id);
		await adapter.createAuthenticator(authenticator);
		expect(await adapter.getAuthenticator(uid())).toBeNull();
		expect(await adapter.getAuthenticator(authenticator.credentialID)).toEqual(authenticator);
	});

	test('listAuthenticatorsByUserId: [] for an unknown user, each user’s own otherwise', async () => {
		const { adapter } = target();
		const alice = await createUser(target());
		const bob = await createUser(target());
		const alices = [newAuthenticator(alice.id), newAuthenticator(alice.id)];
		const bobs = [newAuthenticator(bob.id)];
		for (const a of [...alices, ...bobs]) await adapter.createAuthenticator(a);
		expect(await adapter.listAuthenticatorsByUserId(uid())).toEqual([]);
		const listed = await adapter.listAuthenticatorsByUserId(alice.id);
		expect(listed).toHaveLength(2);
		expect(listed).toEqual(expect.arrayContaining(alices));
		expect(await adapter.listAuthenticatorsByUserId(bob.id)).toEqual(bobs);
	});

	test('updateAuthenticatorCounter sets the counter, beyond 32 bits too; throws when unknown', async () => {
		const { adapter, db } = target();
		const authenticator = newAuthenticator((await createUser(target())).id);
		await adapter.createAuthenticator(authenticator);
		for (const counter of [1, 2 ** 32 + 5]) {
			const updated = await adapter.updateAuthenticatorCounter(authenticator.credentialID, counter);
			expect(updated).toEqual({ ...authenticator, counter });
			expect(await db.authenticator(authenticator.credentialID)).toEqual({ ...authenticator, counter });
		}
		await expect((async () => adapter.updateAuthenticatorCounter(uid(), 3))()).rejects.toThrow();
	});

	test('a passkey account is found with getAccount and getUserByAccount', async () => {
		const { adapter } = target();
		const user = await createUser(target());
		const authenticator = newAuthenticator(user.id);
		const account = {
			userId: user.id,
			type: 'webauthn' as const,
			provider: 'passkey',
			providerAccountId: authenticator.providerAccountId
		};
		await adapter.linkAccount(account);
		await adapter.createAuthenticator(authenticator);
		expect(await adapter.getAccount(account.providerAccountId, 'passkey')).toMatchObject(account);
		expect(await adapter.getUserByAccount(account)).toEqual(user);
	});

	test('kitauth: updateAuthenticatorUse is a compare-and-set on the counter (null when it moved or is unknown)', async () => {
		const { adapter, db } = target();
		const authenticator = { ...newAuthenticator((await createUser(target())).id), counter: 4 };
		await adapter.createAuthenticator(authenticator);
		const usedAt = new Date(Math.floor(Date.now() / 1000) * 1000);
		const updated = await adapter.updateAuthenticatorUse(authenticator.credentialID, { expectedCounter: 4, counter: 5, backedUp: false, usedAt });
		expect(updated).toEqual({ ...authenticator, counter: 5, credentialBackedUp: false, lastUsedAt: usedAt });
		// A second use that read the old counter loses; the row keeps the winner's values.
		expect(await adapter.updateAuthenticatorUse(authenticator.credentialID, { expectedCounter: 4, counter: 9, backedUp: true, usedAt })).toBeNull();
		expect(await db.authenticator(authenticator.credentialID)).toMatchObject({ counter: 5, credentialBackedUp: false });
		const both = await Promise.all(
			[6, 6].map((counter) => adapter.updateAuthenticatorUse(authenticator.credentialID, { expectedCounter: 5, counter, backedUp: false, usedAt }))
		);
		expect(both.filter(Boolean)).toHaveLength(1);
		expect(await adapter.updateAuthenticatorUse(uid(), { expectedCounter: 0, counter: 1, backedUp: false, usedAt })).toBeNull();
	});

	test('kitauth: name, AAGUID and dates round-trip; updateAuthenticatorName renames; deleteAuthenticator deletes once', async () => {
		const { adapter, db } = target();
		const createdAt = new Date(1_700_000_000_000);
		const authenticator = {
			...newAuthenticator((await createUser(target())).id),
			name: 'iCloud Keychain',
			aaguid: 'fbfc3007-154e-4ecc-8c0b-6e020557d7bd',
			createdAt
		};
		expect(await adapter.createAuthenticator(authenticator)).toEqual(authenticator);
		expect(await adapter.getAuthenticator(authenticator.credentialID)).toEqual(authenticator);
		expect(await adapter.updateAuthenticatorName(authenticator.credentialID, 'Work laptop')).toEqual({ ...authenticator, name: 'Work laptop' });
		expect(await db.authenticator(authenticator.credentialID)).toMatchObject({ name: 'Work laptop' });
		expect(await adapter.updateAuthenticatorName(uid(), 'x')).toBeNull();
		expect(await adapter.deleteAuthenticator(authenticator.credentialID)).toEqual({ ...authenticator, name: 'Work laptop' });
		expect(await db.authenticator(authenticator.credentialID)).toBeNull();
		expect(await adapter.deleteAuthenticator(authenticator.credentialID)).toBeNull();
	});
}
