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
