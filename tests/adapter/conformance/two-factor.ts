/**
 * kitauth's two-factor methods: the record's life (set up, on, off), and the single-use rules
 * under concurrency — a TOTP step accepted once, a backup code used once — each by one statement.
 */
import { expect, test } from 'vitest';
import { hashLike, uid, type Target } from './fixtures.js';

const METHODS = [
	'getTwoFactor',
	'beginTwoFactor',
	'enableTwoFactor',
	'useTwoFactorStep',
	'useBackupCode',
	'replaceBackupCodes',
	'resealTwoFactorSecret',
	'deleteTwoFactor',
	'forgetTwoFactorDevices'
] as const;

/** A backup code's hash as the core makes it (32 hex digits). */
const codeHash = () => hashLike().slice(0, 32);
const at = new Date(Date.UTC(2031, 4, 6, 7, 8, 9, 123));

async function enabled(target: Target, codes = [codeHash(), codeHash(), codeHash()]) {
	const userId = uid();
	const secret = `sealed-${uid()}`;
	expect(await target.adapter.beginTwoFactor(userId, secret)).toBe(true);
	expect(await target.adapter.enableTwoFactor(userId, { secret, step: 100, backupCodes: codes, enabledAt: at })).toBe(true);
	return { userId, secret, codes };
}

export function twoFactorTests(target: () => Target): void {
	test('implements every two-factor method', () => {
		const { adapter } = target();
		expect(METHODS.filter((name) => typeof adapter[name] !== 'function')).toEqual([]);
	});

	test('a secret being set up is stored off, replaced while off, and turned on only with the secret checked', async () => {
		const { adapter } = target();
		const userId = uid();
		expect(await adapter.getTwoFactor(userId)).toBeNull();
		expect(await adapter.beginTwoFactor(userId, 'first')).toBe(true);
		expect(await adapter.getTwoFactor(userId)).toEqual({ userId, secret: 'first', enabledAt: null, lastStep: null, backupCodes: [], devicesValidAfter: null });
		expect(await adapter.beginTwoFactor(userId, 'second')).toBe(true);
		// Another tab replaced the secret: a code checked against the first cannot turn it on.
		expect(await adapter.enableTwoFactor(userId, { secret: 'first', step: 7, backupCodes: [], enabledAt: at })).toBe(false);
		const codes = [codeHash(), codeHash()];
		expect(await adapter.enableTwoFactor(userId, { secret: 'second', step: 7, backupCodes: codes, enabledAt: at })).toBe(true);
		expect(await adapter.getTwoFactor(userId)).toEqual({ userId, secret: 'second', enabledAt: at, lastStep: 7, backupCodes: codes, devicesValidAfter: at });
		// On: neither a new setup nor a second enable changes it.
		expect(await adapter.beginTwoFactor(userId, 'third')).toBe(false);
		expect(await adapter.enableTwoFactor(userId, { secret: 'second', step: 9, backupCodes: [], enabledAt: new Date() })).toBe(false);
		expect((await adapter.getTwoFactor(userId))?.secret).toBe('second');
		expect(await adapter.deleteTwoFactor(userId)).toBe(true);
		expect(await adapter.deleteTwoFactor(userId)).toBe(false);
		expect(await adapter.getTwoFactor(userId)).toBeNull();
	});

	test('a time step is accepted once and only after the last one, and only while on', async () => {
		const { adapter } = target();
		const { userId } = await enabled(target());
		expect(await adapter.useTwoFactorStep(userId, 100)).toBe(false);
		expect(await adapter.useTwoFactorStep(userId, 99)).toBe(false);
		expect(await adapter.useTwoFactorStep(userId, 101)).toBe(true);
		expect(await adapter.useTwoFactorStep(userId, 101)).toBe(false);
		expect((await adapter.getTwoFactor(userId))?.lastStep).toBe(101);
		const off = uid();
		await adapter.beginTwoFactor(off, 'secret');
		expect(await adapter.useTwoFactorStep(off, 5)).toBe(false);
		expect(await adapter.useTwoFactorStep(uid(), 5)).toBe(false);
		await expect(async () => adapter.useTwoFactorStep(userId, -1)).rejects.toThrow();
	});

	test('of 20 concurrent uses of one time step, exactly one is accepted', async () => {
		const { adapter } = target();
		const { userId } = await enabled(target());
		const results = await Promise.all(Array.from({ length: 20 }, () => adapter.useTwoFactorStep(userId, 200)));
		expect(results.filter(Boolean)).toHaveLength(1);
	});

	test('a backup code is used once; the others stay; codes are the user\'s own', async () => {
		const { adapter } = target();
		const { userId, codes } = await enabled(target());
		const other = await enabled(target());
		expect(await adapter.useBackupCode(other.userId, codes[0]!)).toBeNull();
		expect(await adapter.useBackupCode(userId, codes[1]!)).toBe(2);
		expect(await adapter.useBackupCode(userId, codes[1]!)).toBeNull();
		expect(await adapter.useBackupCode(userId, codeHash())).toBeNull();
		// A part of a stored hash is not a code.
		expect(await adapter.useBackupCode(userId, codes[0]!.slice(0, 16))).toBeNull();
		expect((await adapter.getTwoFactor(userId))?.backupCodes).toEqual([codes[0], codes[2]]);
		await expect(async () => adapter.useBackupCode(userId, `${codes[0]},`)).rejects.toThrow();
	});

	test('of 20 concurrent uses of one backup code, exactly one succeeds', async () => {
		const { adapter } = target();
		const { userId, codes } = await enabled(target());
		const results = await Promise.all(Array.from({ length: 20 }, () => adapter.useBackupCode(userId, codes[0]!)));
		expect(results.filter((left) => left !== null)).toEqual([2]);
	});

	test('backup codes are replaced all at once, only while on', async () => {
		const { adapter } = target();
		const { userId, codes } = await enabled(target());
		const fresh = [codeHash(), codeHash()];
		expect(await adapter.replaceBackupCodes(userId, fresh)).toBe(true);
		expect(await adapter.useBackupCode(userId, codes[0]!)).toBeNull();
		expect((await adapter.getTwoFactor(userId))?.backupCodes).toEqual(fresh);
		expect(await adapter.replaceBackupCodes(userId, [])).toBe(true);
		expect((await adapter.getTwoFactor(userId))?.backupCodes).toEqual([]);
		const off = uid();
		await adapter.beginTwoFactor(off, 'secret');
		expect(await adapter.replaceBackupCodes(off, fresh)).toBe(false);
	});

	test('a secret is sealed anew only while it is the one expected; remembered devices are forgotten forward only', async () => {
		const { adapter } = target();
		const { userId, secret } = await enabled(target());
		expect(await adapter.resealTwoFactorSecret(userId, 'not-it', 'resealed')).toBe(false);
		expect(await adapter.resealTwoFactorSecret(userId, secret, 'resealed')).toBe(true);
		expect((await adapter.getTwoFactor(userId))?.secret).toBe('resealed');
		const later = new Date(at.getTime() + 60_000);
		await adapter.forgetTwoFactorDevices(userId, later);
		await adapter.forgetTwoFactorDevices(userId, new Date(at.getTime() + 1));
		expect((await adapter.getTwoFactor(userId))?.devicesValidAfter).toEqual(later);
		await adapter.forgetTwoFactorDevices(uid(), later);
	});

	test('deleteUser takes the user\'s two-factor record with it', async () => {
		const { adapter } = target();
		const user = await adapter.createUser({ id: uid(), email: `${uid()}@example.com`, emailVerified: null });
		await adapter.beginTwoFactor(user.id, 'secret');
		await adapter.deleteUser(user.id);
		expect(await adapter.getTwoFactor(user.id)).toBeNull();
	});
}

export function sessionFactorTests(target: () => Target): void {
	test('a session keeps what its sign-in proved (`factors`), in order', async () => {
		const { adapter } = target();
		const user = await adapter.createUser({ id: uid(), email: `${uid()}@example.com`, emailVerified: null });
		const sessionToken = hashLike();
		const expires = new Date(Date.now() + 60_000);
		await adapter.createSession({ sessionToken, userId: user.id, expires, factors: ['credentials', 'totp'] });
		expect((await adapter.getSessionAndUser(sessionToken))?.session.factors).toEqual(['credentials', 'totp']);
		const plain = hashLike();
		await adapter.createSession({ sessionToken: plain, userId: user.id, expires });
		expect((await adapter.getSessionAndUser(plain))?.session.factors ?? null).toBeNull();
	});
}
