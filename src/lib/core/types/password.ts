import type { LocaleMessages } from '../../i18n/index.js';
import type { Theme } from '../../shared/theme.js';

type Awaitable<T> = T | PromiseLike<T>;

/**
 * How passwords are hashed. The built-in one is scrypt (`core/passwords/hash.ts`); an app may give
 * its own (Argon2id from a native module, say) to the `Password()` provider.
 */
export interface PasswordHasher {
	/** A self-describing hash of the password (algorithm, parameters, salt and key in one string). */
	hash(password: string): Promise<string>;
	/** Does the password match this stored hash? `false` for a hash the hasher cannot read. */
	verify(password: string, hash: string): Promise<boolean>;
	/**
	 * Was this hash made with other parameters than the hasher's own (older, weaker ones)? Then it
	 * is replaced by a new hash of the password at the next successful sign-in.
	 */
	needsRehash(hash: string): boolean;
}

/** Why a new password is refused (ASVS 5.0 V6.2): too short, too long, or on the common list. */
export type PasswordProblem = 'too-short' | 'too-long' | 'common';

/** The length rule a new password must meet, counted in Unicode code points after NFKC. */
export interface PasswordRules {
	/** At least 8 (ASVS 6.2.1); default 8. */
	minLength?: number;
	/** At least 128 (ASVS 6.2.9 asks 64 or more); default 128, at most 4096. */
	maxLength?: number;
}

/** What the `Password()` provider keeps (see kitauth/providers/password). */
export interface PasswordOptions {
	/** How passwords are hashed: scrypt by default (`scryptHasher()`). */
	hasher: PasswordHasher;
	/** The length rule new passwords must meet. */
	rules: Required<PasswordRules>;
	/** Sends a password reset link; without it there is no reset (its routes answer 404). */
	sendPasswordReset?: (params: PasswordResetRequest) => Awaitable<void>;
	/** Seconds a reset link works: default 900 (15 minutes). */
	resetMaxAge: number;
	/**
	 * Sends the message of a sign-up: a link confirming the address to a new user, or a notice to
	 * the owner of an address already registered. Without it sign-up sends nothing.
	 */
	sendSignUpEmail?: (params: SignUpEmailRequest) => Awaitable<void>;
	/** Refuse sign-in (`code` `email-unverified`) until the address is confirmed. Default false. */
	requireVerifiedEmail: boolean;
	/**
	 * Seconds within which a sign-in stands in for the current password when the signed-in user
	 * changes their password or email; `false` (the default): the current password is asked.
	 */
	recentSignIn: number | false;
	/**
	 * Sends the messages of account changes (see `AccountEmailRequest`). Without it there is no
	 * email change, and a password change sends no notice.
	 */
	sendAccountEmail?: (params: AccountEmailRequest) => Awaitable<void>;
}

/**
 * What `sendAccountEmail` gets (`accountMessage()` writes kitauth's messages), by `kind`:
 * - `password-changed`: a notice to the account's address; `url` is the sign-in page.
 * - `confirm-email`: to a new address; `url` confirms the change (it holds the secret: never log
 *   it), until `expires`.
 * - `email-change-requested`: a notice to the old address that `newEmail` was asked for; `url`
 *   is the sign-in page.
 * - `email-taken`: to a new address that already has an account (nothing changes); `url` is the
 *   sign-in page.
 */
export interface AccountEmailRequest extends PasswordMailLanguage {
	kind: 'password-changed' | 'confirm-email' | 'email-change-requested' | 'email-taken';
	/** Where to send it. */
	identifier: string;
	url: string;
	expires: Date;
	/** The address asked for (`email-change-requested`). */
	newEmail?: string;
	theme: Theme;
}

/**
 * The language a message is written in: the request's that asked for it (`i18n.locale`, else
 * `Accept-Language`). Pass both to `passwordResetMessage` / `signUpMessage`.
 */
export interface PasswordMailLanguage {
	locale: string;
	/** The app's messages (`i18n.messages`). */
	messages?: LocaleMessages;
}

/** What `sendSignUpEmail` gets. */
export interface SignUpEmailRequest extends PasswordMailLanguage {
	identifier: string;
	/**
	 * `verify-email`: a new account; `url` confirms its address (it holds the secret: never log
	 * it). `already-registered`: someone signed up with an address that has an account; `url` is
	 * the sign-in page.
	 */
	kind: 'verify-email' | 'already-registered';
	url: string;
	/**
	 * A `verify-email` message's one-time code (8 digits): typed on the "check your email" page of
	 * the browser that signed up, it confirms the address as the link does (one secret: either
	 * uses both up). It works for 15 minutes, at most 5 guesses.
	 */
	code?: string;
	/** When a `verify-email` link stops working. */
	expires: Date;
	theme: Theme;
}

/** What `sendPasswordReset` gets: where to send, the link, and when it stops working. */
export interface PasswordResetRequest extends PasswordMailLanguage {
	/** The account's email address. */
	identifier: string;
	/** The reset link (it holds the secret: never log it). */
	url: string;
	expires: Date;
	theme: Theme;
}
