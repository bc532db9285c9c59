import { EmailSignInError } from '../../errors.js';
import type { EmailConfig } from '../../types/provider.js';

/** Longest input looked at: an address is at most 254 characters (RFC 5321). */
const MAX_INPUT = 320;
const MAX_ADDRESS = 254;
const MAX_LOCAL = 64;

/**
 * The local part: letters, digits and combining marks of any script, and the plain ASCII
 * specials an unquoted address may hold. Deliberately not `%` and `!` (old relay routing, which
 * could deliver to another host) nor anything of the address-list syntax (`,;<>()[]:"\` and
 * whitespace) that a mailer's parser would split into a second recipient.
 */
const LOCAL = /^[\p{L}\p{N}\p{M}._+'=~#$&*/?^{}|`-]+$/u;
/** A domain label: letters, digits and marks of any script (IDN) or punycode, inner hyphens. */
const LABEL = /^[\p{L}\p{N}\p{M}](?:[\p{L}\p{N}\p{M}-]{0,61}[\p{L}\p{N}\p{M}])?$/u;
/** Characters that give an address its structure; their look-alikes are refused outright. */
const STRUCTURE = /[@.,;:<>()[\]"\\]/;

/**
 * Auth.js's default, hardened: Unicode NFKC **before** any check (a fullwidth `＠` must not pass a
 * one-`@` test and become a second address later), trim, lower-case, then exactly one plain
 * address. Throws on anything else.
 */
export function defaultNormalizeIdentifier(input: string): string {
	if (/[^\x00-\x7f]/.test(input)) refuseLookalikes(input);
	const email = input.normalize('NFKC').trim().toLowerCase().normalize('NFKC');
	return plainAddress(email);
}

/**
 * What any normalizer's result must still be, the app's own included: one plain address, with
 * nothing a mail transport could read as a list, a display name, a quoted part or a header.
 */
export function plainAddress(email: string): string {
	if (email.length > MAX_ADDRESS) throw new TypeError('The address is too long');
	const parts = email.split('@');
	if (parts.length !== 2) throw new TypeError('An address has exactly one @');
	const [local, domain] = parts as [string, string];
	if (!local || local.length > MAX_LOCAL || !LOCAL.test(local)) throw new TypeError('The part before @ is not a plain local part');
	if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) throw new TypeError('The part before @ has a misplaced dot');
	const labels = domain.split('.');
	if (!labels.every((label) => LABEL.test(label))) throw new TypeError('The part after @ is not a domain name');
	return email;
}

/** A character other than the ASCII one that folds into `@`, `.`, `,`, … (e.g. U+FF20 `＠`). */
function refuseLookalikes(input: string): void {
	for (const char of input) {
		if (char.charCodeAt(0) < 0x80) continue;
		if (STRUCTURE.test(char.normalize('NFKC'))) throw new TypeError('The address holds a look-alike of @ or another separator');
	}
}

/**
 * The address a sign-in request names, normalized by the provider's `normalizeIdentifier` (or the
 * default), then checked once more as one plain address. Anything unusable is an
 * `EmailSignInError` (the sign-in page's `EmailSignin`); the reason is logged, never echoed.
 */
export function requestedAddress(provider: EmailConfig, value: unknown): string {
	if (typeof value !== 'string' || value.length === 0 || value.length > MAX_INPUT) {
		throw new EmailSignInError('The sign-in request carries no usable email address');
	}
	try {
		const normalized = (provider.normalizeIdentifier ?? defaultNormalizeIdentifier)(value);
		if (typeof normalized !== 'string') throw new TypeError('normalizeIdentifier() returned no string');
		return plainAddress(normalized);
	} catch (error) {
		throw new EmailSignInError('The email address was refused', { cause: error as Error });
	}
}
