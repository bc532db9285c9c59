import { describe, expect, test } from 'vitest';
import { defaultNormalizeIdentifier, plainAddress } from '../../../src/lib/core/flows/email/normalize.js';

describe('defaultNormalizeIdentifier', () => {
	test.each([
		['Ann@Example.COM', 'ann@example.com'],
		['  ann@example.com\t\n', 'ann@example.com'],
		['ann+tag@example.com', 'ann+tag@example.com'],
		["o'neil@example.com", "o'neil@example.com"],
		// NFKC first: fullwidth letters and digits fold to ASCII before any check.
		['\uff41nn\uff11@example.com', 'ann1@example.com'],
		['josé@exämple.com', 'josé@exämple.com'],
		['用户@例子.广告', '用户@例子.广告'],
		['ann@xn--exmple-cua.com', 'ann@xn--exmple-cua.com']
	])('%j → %j', (input, expected) => {
		expect(defaultNormalizeIdentifier(input)).toBe(expected);
	});

	test.each([
		'a@b@example.com',
		'victim\uff20corp.example',
		'victim\ufe6bcorp.example',
		'victim@corp\uff0eexample',
		'a@example.com,b@example.com',
		'"a"@example.com',
		'a\r\n@example.com',
		'<a@example.com>',
		'a @example.com',
		'a@',
		'@example.com',
		'a@[1.2.3.4]',
		'a%b@example.com',
		'a!b@example.com',
		'a..b@example.com',
		'a@-example.com',
		'a@example-.com',
		'a@example..com',
		'a\u200d@example.com'
	])('%j is refused', (input) => {
		expect(() => defaultNormalizeIdentifier(input)).toThrow(TypeError);
	});

	test('plainAddress: what any normalizer returns must still be one plain address', () => {
		expect(plainAddress('ann@example.com')).toBe('ann@example.com');
		expect(() => plainAddress('Ann <ann@example.com>')).toThrow();
		expect(() => plainAddress('ann@example.com, eve@evil.example')).toThrow();
		expect(() => plainAddress(`${'a'.repeat(65)}@example.com`)).toThrow();
	});
});
