/**
 * What a new password must be (ASVS 5.0 V6.2): long enough (8 code points, or more if the app
 * asks), not too long (128 by default: ASVS 6.2.9 asks that at least 64 be allowed), any Unicode
 * character, spaces and emoji included, no composition rules (6.2.5), and not one of the common
 * passwords kitauth ships (6.2.4). Nothing else is asked of it.
 *
 * Passwords are compared in Unicode's NFKC form (NIST SP 800-63B 5.1.1.2): the same password typed
 * on two keyboards (a precomposed `é` and `e` + combining accent, a full-width digit) is one
 * password. NFKC changes no letter's case and drops nothing but compatibility differences, so the
 * password is otherwise checked exactly as received (ASVS 6.2.8): no trimming, no truncation.
 */
import type { PasswordProblem, PasswordRules } from '../types/password.js';
import { COMMON_PASSWORDS } from './common.generated.js';

export const MIN_LENGTH = 8;
export const DEFAULT_MAX_LENGTH = 128;
/** The longest password any configuration may allow: input is bounded before it is hashed. */
export const MAX_MAX_LENGTH = 4096;

/** The form a password is hashed and measured in. */
export function normalizePassword(password: string): string {
	return password.normalize('NFKC');
}

/** Unicode code points, not UTF-16 units: an emoji is one character to the user. */
function codePoints(text: string): number {
	let count = 0;
	for (const _ of text) count++;
	return count;
}

let common: Set<string> | undefined;

/** Is this (normalized) password on the shipped list? The set is built on first use only. */
export function isCommonPassword(password: string): boolean {
	common ??= new Set(COMMON_PASSWORDS.split(' '));
	return common.has(password);
}

/** The rules with their defaults, checked: a configuration below ASVS's floor throws at start-up. */
export function passwordRules(rules: PasswordRules = {}): Required<PasswordRules> {
	const minLength = rules.minLength ?? MIN_LENGTH;
	const maxLength = rules.maxLength ?? DEFAULT_MAX_LENGTH;
	if (!Number.isInteger(minLength) || minLength < MIN_LENGTH) throw new TypeError(`Password minLength must be an integer of at least ${MIN_LENGTH}`);
	if (!Number.isInteger(maxLength) || maxLength < Math.max(DEFAULT_MAX_LENGTH, minLength) || maxLength > MAX_MAX_LENGTH) {
		throw new TypeError(`Password maxLength must be an integer from ${DEFAULT_MAX_LENGTH} (and minLength) to ${MAX_MAX_LENGTH}`);
	}
	return { minLength, maxLength };
}

/**
 * What is wrong with a new password, or undefined when nothing is. Only for a new password (sign-up,
 * reset, change): a sign-in checks the stored hash and nothing else.
 */
export function passwordProblem(password: string, rules: Required<PasswordRules>): PasswordProblem | undefined {
	// A bound on the work before normalizing: NFKC composes a few code points into one (a base
	// letter and its accents, Hangul jamo), so the raw input may be longer than the limit, but
	// never eight times (in UTF-16 units) a string that is within it after.
	if (password.length > rules.maxLength * 8) return 'too-long';
	const normalized = normalizePassword(password);
	const length = codePoints(normalized);
	if (length < rules.minLength) return 'too-short';
	if (length > rules.maxLength) return 'too-long';
	if (isCommonPassword(normalized)) return 'common';
	return undefined;
}
