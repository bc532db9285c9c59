/**
 * The fields of a password form, as submitted: hostile input, bounded and checked before anything
 * is looked up or hashed.
 */
import type { PasswordFormFailure } from '../../pages/password-forms.js';
import type { ResponseInternal } from '../../types/internal.js';
import { defaultNormalizeIdentifier } from '../email/normalize.js';

/** The password forms a server-side caller (a form action) may submit, by their routes' action. */
export type PasswordFormAction = 'signup' | 'forgot-password' | 'reset-password' | 'resend-verification';

/** The signed-in user's account changes a server-side caller may submit, by their routes' action. */
export type PasswordAccountAction = 'change-password' | 'change-email' | 'delete-account';

/**
 * What a submitted password form comes to: done (the answer, a redirect), or refused with what to
 * show under its fields. The REST routes render the refusal as the page again; the form actions
 * answer it as data.
 */
export type PasswordStep = { ok: true; done: ResponseInternal } | { ok: false; failure: PasswordFormFailure };

/** Longest email input looked at (RFC 5321 allows 254 characters in an address). */
const MAX_EMAIL_INPUT = 320;
const MAX_NAME = 200;

/** The submitted address, normalized as the email provider does (NFKC, lower case); undefined if unusable. */
export function submittedEmail(value: unknown): string | undefined {
	if (typeof value !== 'string' || value.length === 0 || value.length > MAX_EMAIL_INPUT) return undefined;
	try {
		return defaultNormalizeIdentifier(value);
	} catch {
		return undefined;
	}
}

/** The submitted password, if it is text no longer than `maxInput` UTF-16 units. */
export function submittedPassword(value: unknown, maxInput: number): string | undefined {
	return typeof value === 'string' && value.length > 0 && value.length <= maxInput ? value : undefined;
}

/** An optional display name: trimmed text of at most 200 characters, else none. */
export function submittedName(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	const name = value.trim();
	return name && name.length <= MAX_NAME ? name : undefined;
}
