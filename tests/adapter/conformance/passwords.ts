import { expect, test } from 'vitest';
import type { AdapterUser } from '../../../src/lib/core/types/models.js';
import { newUser, uid, type Target } from './fixtures.js';

/**
 * The `Password()` provider's storage (kitauth's createPasswordUser, getPasswordUser,
 * updatePasswordHash): a user is created with their hash atomically and only while the email is
 * free, read back with it in one call, rehashed only while the hash is unchanged, and deleted with
 * the user.
 */
export function passwordTests(target: () => Target): void {
	const passwordUser = (): AdapterUser => ({ ...newUser(), id: uid(), emailVerified: null });

	test('createPasswordUser stores the user and the hash; getPasswordUser reads both by email', async () => {
		const { adapter, db } = target();
		const user = passwordUser();
		expect(await adapter.createPasswordUser(user, '$scrypt-sha256$first')).toEqual(user);
		expect(await db.user(user.id)).toEqual(user);
		expect(await adapter.getPasswordUser(user.email)).toEqual({ user, passwordHash: '$scrypt-sha256$first' });
	});

	test('getPasswordUser: null for an unknown email, and for a user without a password', async () => {
		const { adapter } = target();
		expect(await adapter.getPasswordUser(`${uid()}@example.com`)).toBeNull();
		const plain = await adapter.createUser({ ...newUser(), id: uid() });
		expect(await adapter.getPasswordUser(plain.email)).toBeNull();
	});

	test('createPasswordUser with an email already taken stores nothing and answers null', async () => {
		const { adapter, db } = target();
		const existing = await adapter.createUser({ ...newUser(), id: uid() });
		const second = { ...passwordUser(), email: existing.email };
		expect(await adapter.createPasswordUser(second, '$scrypt-sha256$x')).toBeNull();
		expect(await db.user(second.id)).toBeNull();
		expect(await adapter.getPasswordUser(existing.email)).toBeNull();
	});

	test('20 concurrent sign-ups with one email: exactly one user, with its own hash', async () => {
		const { adapter } = target();
		const email = `${uid()}@example.com`;
		const attempts = Array.from({ length: 20 }, (_, i) => ({ user: { ...passwordUser(), email }, hash: `$scrypt-sha256$${i}` }));
		const results = await Promise.all(attempts.map(({ user, hash }) => adapter.createPasswordUser(user, hash)));
		const winners = results.filter((result) => result !== null);
		expect(winners).toHaveLength(1);
		const winner = attempts.find(({ user }) => user.id === winners[0]!.id)!;
		expect(await adapter.getPasswordUser(email)).toEqual({ user: winner.user, passwordHash: winner.hash });
	});

	test('updatePasswordHash replaces the hash only while it is still the expected one', async () => {
		const { adapter } = target();
		const user = passwordUser();
		await adapter.createPasswordUser(user, 'old');
		expect(await adapter.updatePasswordHash(user.id, 'new', 'stale')).toBe(false);
		expect((await adapter.getPasswordUser(user.email))?.passwordHash).toBe('old');
		expect(await adapter.updatePasswordHash(user.id, 'new', 'old')).toBe(true);
		expect((await adapter.getPasswordUser(user.email))?.passwordHash).toBe('new');
		expect(await adapter.updatePasswordHash(uid(), 'new', 'new')).toBe(false);
	});

	test('of 20 concurrent rehashes from one hash, exactly one lands', async () => {
		const { adapter } = target();
		const user = passwordUser();
		await adapter.createPasswordUser(user, 'old');
		const results = await Promise.all(Array.from({ length: 20 }, (_, i) => adapter.updatePasswordHash(user.id, `new-${i}`, 'old')));
		expect(results.filter(Boolean)).toHaveLength(1);
		expect((await adapter.getPasswordUser(user.email))?.passwordHash).toBe(`new-${results.indexOf(true)}`);
	});

	test('setPasswordHash replaces the hash of a user who has one, and of nobody else', async () => {
		const { adapter } = target();
		const user = passwordUser();
		await adapter.createPasswordUser(user, 'before');
		expect(await adapter.setPasswordHash(user.id, 'after')).toBe(true);
		expect((await adapter.getPasswordUser(user.email))?.passwordHash).toBe('after');
		const plain = await adapter.createUser({ ...newUser(), id: uid() });
		expect(await adapter.setPasswordHash(plain.id, 'sneaked')).toBe(false);
		expect(await adapter.getPasswordUser(plain.email)).toBeNull();
	});

	test('deleteUser removes the password with the user (a new sign-up may take the email)', async () => {
		const { adapter } = target();
		const user = passwordUser();
		await adapter.createPasswordUser(user, 'gone');
		await adapter.deleteUser(user.id);
		expect(await adapter.getPasswordUser(user.email)).toBeNull();
		const again = { ...passwordUser(), email: user.email };
		expect(await adapter.createPasswordUser(again, 'fresh')).toEqual(again);
	});

	test("deleteUser removes the user's verification tokens: its address's and its link tokens, nobody else's", async () => {
		const { adapter } = target();
		const user = passwordUser();
		const other = { ...passwordUser(), id: `x:${user.id}` };
		await adapter.createPasswordUser(user, 'gone');
		await adapter.createPasswordUser(other, 'kept');
		const expires = new Date(Date.now() + 60_000);
		const tokens = (id: string, email: string) => [
			{ identifier: email, token: `${id}-email` },
			{ identifier: `kitauth:password-reset:password:${id}`, token: `${id}-reset` },
			{ identifier: `kitauth:email-change:pw:${id}`, token: `${id}-change` }
		];
		for (const token of [...tokens(user.id, user.email), ...tokens(other.id, other.email)]) await adapter.createVerificationToken({ ...token, expires });
		await adapter.deleteUser(user.id);
		for (const token of tokens(user.id, user.email)) expect(await adapter.useVerificationToken(token)).toBeNull();
		for (const token of tokens(other.id, other.email)) expect(await adapter.useVerificationToken(token)).toMatchObject(token);
	});

	test('an empty hash is refused (INVALID_ARGUMENT)', async () => {
		const { adapter } = target();
		await expect(Promise.resolve().then(() => adapter.createPasswordUser(passwordUser(), ''))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
	});
}
