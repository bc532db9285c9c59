/**
 * Backup codes: ten one-time codes, shown once when made and stored only as keyed hashes, each
 * used up by one conditional statement of the store (`useBackupCode`).
 *
 * A code is 10 characters of Crockford's base32 (no I, L, O or U: nothing to misread), 50 random
 * bits, shown as two groups of five. Typed back, case, spaces and dashes do not matter, and the
 * letters people confuse with digits (O, I, L) are read as the digits.
 *
 * The hash is HMAC-SHA-256 under a key derived from the app's secret (its own label, so no other
 * MAC kitauth makes can pass for it) over the user's id and the code: a leaked table is worthless
 * without the secret, and one user's code is no other's. With rotated secrets (`secret: [new, old]`)
 * a typed code is hashed under each, so codes made under the old one still work; new codes are
 * made under the newest.
 */
import { hex, hmacSha256, randomBytes } from '../crypto/index.js';

/** How many codes a user gets. */
export const BACKUP_CODE_COUNT = 10;
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const LENGTH = 10;
/** Hex digits of a stored hash: 128 bits of the MAC. */
const HASH_LENGTH = 32;

/** New codes, as shown to the user (`abcde-fghjk`). */
export function newBackupCodes(): string[] {
	return Array.from({ length: BACKUP_CODE_COUNT }, () => {
		const bytes = randomBytes(LENGTH);
		let code = '';
		for (const byte of bytes) code += ALPHABET[byte & 31];
		return `${code.slice(0, 5)}-${code.slice(5)}`;
	});
}

/** A typed code in its canonical form, or `undefined` when it cannot be one. */
export function normalizeBackupCode(input: unknown): string | undefined {
	if (typeof input !== 'string' || input.length > 40) return undefined;
	const code = input
		.toLowerCase()
		.replace(/[\s-]/g, '')
		.replace(/o/g, '0')
		.replace(/[il]/g, '1');
	if (code.length !== LENGTH) return undefined;
	for (const char of code) if (!ALPHABET.includes(char)) return undefined;
	return code;
}

type Mac = ReturnType<typeof hmacSha256>;

/** Hashes codes under a list of secrets (newest first). */
export interface BackupCodeHasher {
	/** The code's hash under the newest secret: what is stored. */
	hash(userId: string, code: string): Promise<string>;
	/** Its hash under every secret, newest first: what a typed code may be stored as. */
	candidates(userId: string, code: string): Promise<string[]>;
}

export function backupCodeHasher(secrets: readonly string[]): BackupCodeHasher {
	let macs: Promise<Mac[]> | undefined;
	// One key per secret, derived once on first use: HMAC(secret, label).
	const keys = () =>
		(macs ??= Promise.all(secrets.map(async (secret) => hmacSha256(hex(await hmacSha256(secret)('kitauth/backup-code/key'))))));
	const under = async (mac: Mac, userId: string, code: string) =>
		hex(await mac(`${userId.length}\u0000${userId}\u0000${code}`)).slice(0, HASH_LENGTH);
	return {
		hash: async (userId, code) => under((await keys())[0]!, userId, canonical(code)),
		candidates: async (userId, code) => Promise.all((await keys()).map((mac) => under(mac, userId, canonical(code))))
	};
}

/** Codes are hashed in their canonical form, whether they come from `newBackupCodes` or a person. */
function canonical(code: string): string {
	return normalizeBackupCode(code) ?? code;
}
