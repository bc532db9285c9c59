/** Account identifiers: one account, one key, whatever the spelling; never a throw. */
import { describe, expect, it } from 'vitest';
import { keyedHasher } from '../../../src/lib/core/limit/hash.js';
import { normalizeIdentifier } from '../../../src/lib/core/limit/identifier.js';

describe('normalizeIdentifier', () => {
	it('NFKC, lower case, trimmed (after NFKC: an ideographic space becomes a plain one)', () => {
		expect(normalizeIdentifier('  Alice@Example.COM\n')).toBe('alice@example.com');
		expect(normalizeIdentifier('ａｌｉｃｅ＠ｅｘａｍｐｌｅ．ｃｏｍ')).toBe('alice@example.com');
		expect(normalizeIdentifier('\u3000alice@example.com\u3000')).toBe('alice@example.com');
		expect(normalizeIdentifier('ÉCOLE')).toBe(normalizeIdentifier('E\u0301cole'));
	});

	it('blank or absent: no identifier (no account budget to count)', () => {
		for (const value of [undefined, null, '', '   ', '\u3000']) expect(normalizeIdentifier(value)).toBeUndefined();
	});

	it('hostile values: other types are read as strings, unreadable ones are no identifier', () => {
		expect(normalizeIdentifier(42)).toBe('42');
		expect(normalizeIdentifier(['Bob'])).toBe('bob');
		expect(normalizeIdentifier(Object.create(null))).toBeUndefined();
		expect(normalizeIdentifier({ toString: () => { throw new Error('no'); } })).toBeUndefined();
	});

	it('a huge value is cut (bounded work), deterministically', () => {
		const huge = 'a'.repeat(5_000_000);
		expect(normalizeIdentifier(huge)).toHaveLength(1024);
		expect(normalizeIdentifier(huge)).toBe(normalizeIdentifier(`${huge}b`));
	});
});

describe('keyedHasher', () => {
	it('base64url SHA-256 HMAC: stable per secret, different across secrets, no trace of the input', async () => {
		const one = keyedHasher('secret-one');
		const two = keyedHasher('secret-two');
		expect(await one('alice@example.com')).toBe(await one('alice@example.com'));
		expect(await one('alice@example.com')).toMatch(/^[\w-]{43}$/);
		expect(await one('alice@example.com')).not.toBe(await two('alice@example.com'));
		expect(await one('alice@example.com')).not.toBe(await one('bob@example.com'));
	});
});
