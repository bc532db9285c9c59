/**
 * The shipped list of common passwords (scripts/common-passwords.ts writes it): only passwords the
 * length rule would let through (ASVS 6.2.4: those "which match the application's password
 * policy"), each once, none with whitespace (the module separates them with spaces).
 */
import { describe, expect, it } from 'vitest';
import { commonPasswords, renderModule } from '../../../scripts/common-passwords.js';
import { COMMON_PASSWORDS } from '../../../src/lib/core/passwords/common.generated.js';
import { MIN_LENGTH } from '../../../src/lib/core/passwords/policy.js';

describe('commonPasswords', () => {
	it('keeps entries of 8 code points and more, in rank order, once each', () => {
		expect(commonPasswords(['password', 'short', 'password', 'two words', 42, '🍕🍕🍕🍕🍕🍕🍕🍕', 'iloveyou'])).toEqual([
			'password',
			'🍕🍕🍕🍕🍕🍕🍕🍕',
			'iloveyou'
		]);
	});

	it('renders a module holding them separated by spaces', () => {
		expect(renderModule(['password', 'iloveyou'], 'test')).toContain('export const COMMON_PASSWORDS = "password iloveyou";');
	});
});

describe('the generated list', () => {
	const list = COMMON_PASSWORDS.split(' ');

	it('holds thousands of passwords, each long enough to be chosen and without whitespace, once each', () => {
		expect(list.length).toBeGreaterThan(10_000);
		expect(list.filter((password) => [...password].length < MIN_LENGTH || /\s/.test(password))).toEqual([]);
		expect(new Set(list).size).toBe(list.length);
	});
});
