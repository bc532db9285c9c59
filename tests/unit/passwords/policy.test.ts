/**
 * The rules a new password must meet (ASVS 5.0 V6.2): 8 to 128 code points by default, any
 * Unicode, no composition rules, not on the shipped list of common passwords.
 */
import { describe, expect, it } from 'vitest';
import { isCommonPassword, passwordProblem, passwordRules } from '../../../src/lib/core/passwords/policy.js';

const rules = passwordRules();

describe('passwordProblem', () => {
	it.each([
		['7 characters', 'x7#kq2p', 'too-short'],
		['8 characters', 'x7#kq2pz', undefined],
		['128 characters', 'x7#kq2pz'.repeat(16), undefined],
		['129 characters', `${'x7#kq2pz'.repeat(16)}a`, 'too-long'],
		['a lowercase passphrase with spaces and an emoji', 'my cat eats 🍕 on tuesdays', undefined],
		['eight emoji (one character each, not two)', '🍕🐈🌵🎻🚲🧊🪁🦔', undefined],
		['seven emoji', '🍕🐈🌵🎻🚲🧊🪁', 'too-short'],
		['only letters, no digits or symbols', 'abcdefghjkmn', undefined],
		['a common password', 'password', 'common'],
		['a common password of 12', 'password1234', 'common'],
		['a common password in full-width letters (NFKC)', 'ｐａｓｓｗｏｒｄ', 'common'],
		['huge input', 'x'.repeat(100_000), 'too-long']
	])('%s → %s', (_label, password, problem) => {
		expect(passwordProblem(password, rules)).toBe(problem);
	});

	it('counts length after NFKC: eight decomposed letters are eight characters', () => {
		expect(passwordProblem('e\u0301'.repeat(7), rules)).toBe('too-short');
		expect(passwordProblem('e\u0301'.repeat(8), rules)).toBeUndefined();
	});

	it('follows a raised minimum and maximum', () => {
		const strict = passwordRules({ minLength: 15, maxLength: 256 });
		expect(passwordProblem('x7#kq2pz', strict)).toBe('too-short');
		expect(passwordProblem('x7#kq2pz'.repeat(32), strict)).toBeUndefined();
	});
});

describe('passwordRules', () => {
	it.each([[{ minLength: 7 }], [{ maxLength: 64 }], [{ maxLength: 5000 }], [{ minLength: 200 }], [{ minLength: 8.5 }]])(
		'refuses %o',
		(given) => {
			expect(() => passwordRules(given)).toThrow(TypeError);
		}
	);
});

describe('the shipped list', () => {
	it('holds the most common passwords of 8 and more, and not an ordinary passphrase', () => {
		for (const password of ['password', '12345678', 'iloveyou', 'qwertyuiop', 'trustno1']) expect(isCommonPassword(password)).toBe(true);
		expect(isCommonPassword('my cat eats pizza')).toBe(false);
	});
});
