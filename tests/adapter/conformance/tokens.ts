import { expect, test } from 'vitest';
import { hashLike, newToken, pastDate, uid, type Target } from './fixtures.js';

export function tokenTests(target: () => Target): void {
	test('createVerificationToken stores the hashed token exactly as given', async () => {
		const { adapter, db } = target();
		const token = newToken();
		const returned = await adapter.createVerificationToken(token);
		if (returned) expect(returned).toEqual(token);
		expect(await db.verificationToken(token)).toEqual(token);
	});

	test('useVerificationToken returns the token once, then null', async () => {
		const { adapter, db } = target();
		const token = newToken();
		await adapter.createVerificationToken(token);
		expect(await adapter.useVerificationToken(token)).toEqual(token);
		expect(await db.verificationToken(token)).toBeNull();
		expect(await adapter.useVerificationToken(token)).toBeNull();
	});

	// The bug class of CVE-2022-39263: a lookup by email alone would sign in with any token.
	test('the right email with a wrong token gets null, and the real token survives', async () => {
		const { adapter, db } = target();
		const token = newToken();
		await adapter.createVerificationToken(token);
		expect(await adapter.useVerificationToken({ identifier: token.identifier, token: hashLike() })).toBeNull();
		expect(await adapter.useVerificationToken({ identifier: token.identifier, token: '' })).toBeNull();
		expect(await db.verificationToken(token)).toEqual(token);
		expect(await adapter.useVerificationToken(token)).toEqual(token);
	});

	test('a wrong email with the right token gets null, and the token survives', async () => {
		const { adapter, db } = target();
		const token = newToken();
		await adapter.createVerificationToken(token);
		const wrong = { identifier: `${uid()}@example.com`, token: token.token };
		expect(await adapter.useVerificationToken(wrong)).toBeNull();
		expect(await db.verificationToken(token)).toEqual(token);
	});

	test('using one of two tokens for the same email leaves the other', async () => {
		const { adapter, db } = target();
		const first = newToken();
		const second = newToken(first.identifier);
		await adapter.createVerificationToken(first);
		await adapter.createVerificationToken(second);
		expect(await adapter.useVerificationToken(first)).toEqual(first);
		expect(await db.verificationToken(second)).toEqual(second);
	});

	// Decision: the adapter may hand back an expired token (the core checks `expires`, as Auth.js's
	// core does), but it must consume it and must report the stored `expires`, never a later one.
	test('an expired token is consumed and never reported as valid', async () => {
		const { adapter, db } = target();
		const token = { ...newToken(), expires: pastDate() };
		await adapter.createVerificationToken(token);
		const used = await adapter.useVerificationToken(token);
		if (used) expect(used.expires.getTime()).toBe(token.expires.getTime());
		expect(await db.verificationToken(token)).toBeNull();
		expect(await adapter.useVerificationToken(token)).toBeNull();
	});

	test('20 concurrent uses of one token: exactly one winner', async () => {
		const { adapter, db } = target();
		const token = newToken();
		await adapter.createVerificationToken(token);
		const results = await Promise.all(
			Array.from({ length: 20 }, async () => adapter.useVerificationToken({ ...token }))
		);
		const winners = results.filter((result) => result !== null);
		expect(winners).toEqual([token]);
		expect(await db.verificationToken(token)).toBeNull();
	});
}
