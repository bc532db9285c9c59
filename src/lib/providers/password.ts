import { scryptHasher } from '../core/passwords/hash.js';
import { passwordRules } from '../core/passwords/policy.js';
import type { CredentialsConfig, PasswordOptions } from '../core/types/provider.js';
import type { PasswordHasher, PasswordRules } from '../core/types/password.js';

export type { AccountEmailRequest, CredentialsConfig, PasswordResetRequest, SignUpEmailRequest } from '../core/types/provider.js';
export { accountMessage, passwordResetMessage, signUpMessage } from '../core/flows/password/message.js';
export type { PasswordHasher, PasswordRules } from '../core/types/password.js';
export { DEFAULT_SCRYPT, scryptHasher } from '../core/passwords/hash.js';

export interface PasswordUserConfig extends PasswordRules {
	/** Default `password`: it names the provider in URLs (`/auth/callback/password`). */
	id?: string;
	/** Default `Password`. */
	name?: string;
	/** How passwords are hashed; default `scryptHasher()` (scrypt, N = 2^15, r = 8, p = 3). */
	hasher?: PasswordHasher;
	/**
	 * Sends a password reset link (`passwordResetMessage()` writes kitauth's message). Without it
	 * there is no password reset.
	 */
	sendPasswordReset?: PasswordOptions['sendPasswordReset'];
	/** Seconds a reset link works: default 900 (15 minutes), at most 3600. */
	resetMaxAge?: number;
	/**
	 * Sends a sign-up's message (`signUpMessage()` writes kitauth's): a link confirming a new
	 * account's address, or a notice to the owner of an address already registered.
	 */
	sendSignUpEmail?: PasswordOptions['sendSignUpEmail'];
	/** Refuse sign-in until the address is confirmed (needs `sendSignUpEmail`). Default false. */
	requireVerifiedEmail?: boolean;
	/**
	 * Sends the messages of the signed-in user's account changes (`accountMessage()` writes
	 * kitauth's): the link confirming a new address and the notice to the old one, and a notice
	 * after a password change. Without it there is no email change.
	 */
	sendAccountEmail?: PasswordOptions['sendAccountEmail'];
	/**
	 * Seconds within which a sign-in stands in for the current password when the signed-in user
	 * changes their password or email (sudo mode, at most 3600); default `false`: the current
	 * password is asked. Deleting the account takes a sign-in within this (or 10 minutes) or the
	 * current password.
	 */
	recentSignIn?: number | false;
}

/**
 * Email and password accounts kept by kitauth in your adapter: sign-up at
 * `POST /auth/signup/password`, sign-in at `POST /auth/callback/password` (fields `email` and
 * `password`), and with `sendPasswordReset` a reset by email (`POST /auth/forgot-password/password`).
 * Needs an adapter with kitauth's password methods (kitauth's own adapters).
 *
 * ```ts
 * providers: [Password()]
 * providers: [Password({ minLength: 12, hasher: scryptHasher({ N: 2 ** 16, r: 8, p: 2 }) })]
 * ```
 */
export default function Password(config: PasswordUserConfig = {}): CredentialsConfig<typeof FIELDS> {
	const { id = 'password', name = 'Password', hasher = scryptHasher(), minLength, maxLength, sendPasswordReset, resetMaxAge = 900 } = config;
	const { sendSignUpEmail, requireVerifiedEmail = false, sendAccountEmail, recentSignIn = false } = config;
	if (recentSignIn !== false && (!Number.isInteger(recentSignIn) || recentSignIn < 1 || recentSignIn > 3600)) throw new TypeError('recentSignIn must be false or whole seconds from 1 to 3600');
	if (requireVerifiedEmail && !sendSignUpEmail) throw new TypeError('requireVerifiedEmail needs sendSignUpEmail: nobody could confirm an address');
	if (!Number.isInteger(resetMaxAge) || resetMaxAge < 60 || resetMaxAge > 3600) throw new TypeError('resetMaxAge must be whole seconds from 60 to 3600');
	return {
		id,
		name,
		type: 'credentials',
		credentials: FIELDS,
		authorize: notCalled,
		password: {
			hasher,
			rules: passwordRules({ minLength, maxLength }),
			resetMaxAge,
			requireVerifiedEmail,
			recentSignIn,
			...(sendAccountEmail ? { sendAccountEmail } : {}),
			...(sendPasswordReset ? { sendPasswordReset } : {}),
			...(sendSignUpEmail ? { sendSignUpEmail } : {})
		}
	};
}

const FIELDS = {
	// Labels in the page's language (`labelKey`); `label` for forms that do not translate.
	email: { label: 'Email', labelKey: 'password.email', type: 'email', autocomplete: 'username', required: true },
	password: { label: 'Password', labelKey: 'password.password', type: 'password', autocomplete: 'current-password', required: true }
} as const;

/** Never called: a `password` provider's fields are checked against the adapter's store. */
const notCalled = () => null;
