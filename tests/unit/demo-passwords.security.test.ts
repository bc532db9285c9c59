/**
 * The demo's password check, and the pattern the Credentials guide (docs/content/credentials.md) gives apps: scrypt over a SHA-256 prehash.
 * Without the prehash, scrypt's HMAC zero-pads the password used as its key, so `demo-password`
 * followed by NUL bytes was accepted as `demo-password`.
 */
import { scrypt } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { hashPassword, verifyPassword } from '../../src/demo/passwords.js';
import { checkDemoPassword, DEMO_USER } from '../../src/demo/users.js';

describe('the demo user', () => {
	test('the right email and password (any case and spacing of the email) sign in', async () => {
		expect(await checkDemoPassword('demo@example.com', 'demo-password')).toEqual(DEMO_USER);
		expect(await checkDemoPassword(' Demo@Example.com ', 'demo-password')).toEqual(DEMO_USER);
	});

	test.each([
		['a trailing NUL', 'demo-password\u0000'],
		['several NULs', 'demo-password\u0000\u0000\u0000'],
		['another case', 'Demo-password'],
		['a trailing space', 'demo-password '],
		['a prefix', 'demo-passwor'],
		['empty', ''],
		['overlong', 'demo-password'.padEnd(5000, 'x')]
	])('%s is refused', async (_label, password) => {
		expect(await checkDemoPassword('demo@example.com', password)).toBeNull();
	});

	test('an unknown email, or input that is not text, is refused', async () => {
		expect(await checkDemoPassword('nobody@example.com', 'demo-password')).toBeNull();
		expect(await checkDemoPassword(DEMO_USER.email, ['demo-password'])).toBeNull();
		expect(await checkDemoPassword({ toString: () => DEMO_USER.email }, 'demo-password')).toBeNull();
	});
});

describe('hashPassword / verifyPassword', () => {
	test('control: plain scrypt over the password itself does take a NUL-padded password for it', async () => {
		const derive = (password: string) =>
			new Promise<Buffer>((resolve, reject) => scrypt(password, 'salt', 32, { N: 1024 }, (e, key) => (e ? reject(e) : resolve(key))));
		expect((await derive('secret\u0000')).equals(await derive('secret'))).toBe(true);
	});

	test('a stored hash matches its password exactly: no NUL padding, no truncation, no normalization', async () => {
		const stored = await hashPassword('secret');
		expect(stored).toMatch(/^scrypt\$16384\$8\$5\$[\w-]{22}\$[\w-]{43}$/);
		expect(await verifyPassword('secret', stored)).toBe(true);
		for (const other of ['secret\u0000', 'secret\u0000\u0000', 'Secret', 'secre', 'secret ']) {
			expect(await verifyPassword(other, stored), JSON.stringify(other)).toBe(false);
		}
		const long = 'p'.repeat(100);
		const longStored = await hashPassword(long);
		expect(await verifyPassword(long, longStored)).toBe(true);
		expect(await verifyPassword(long.slice(0, 72), longStored)).toBe(false);
		// Unicode is kept as typed: é precomposed and decomposed are different passwords.
		expect(await verifyPassword('caf\u0065\u0301', await hashPassword('caf\u00e9'))).toBe(false);
	});

	test('each hash has its own salt; a malformed stored value never matches', async () => {
		expect(await hashPassword('secret')).not.toBe(await hashPassword('secret'));
		for (const stored of ['', 'scrypt', 'bcrypt$1$2$3$a$b', 'scrypt$0$8$1$AAAA$AAAA', 'scrypt$x$8$1$AAAA$AAAA']) {
			expect(await verifyPassword('secret', stored), stored).toBe(false);
		}
	});
});
