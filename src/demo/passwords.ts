/**
 * Password hashing for the demo, and the pattern the Credentials guide (docs/content/credentials.md) shows apps: Node's scrypt (memory-hard,
 * OWASP's parameters: N = 2^14, r = 8, p = 5, 16 MiB), a random 16-byte salt per password, and the
 * parameters stored beside the hash so they can be raised later.
 *
 * scrypt's inner PBKDF2 uses the password as an HMAC key, and HMAC pads a short key with zero
 * bytes: `secret` and `secret\0` would be the same password. So the password is first hashed to a
 * fixed length (SHA-256 of its UTF-8 bytes): every password, however long or whatever it ends with,
 * becomes exactly 32 bytes, and no two distinct passwords collide. Nothing is normalized or cut:
 * the password is checked exactly as typed (ASVS 6.2.8).
 */
import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const PARAMS = { N: 2 ** 14, r: 8, p: 5 } as const;
const KEY_LENGTH = 32;
/** Longest password accepted: long passphrases are welcome, megabytes are not. */
export const MAX_PASSWORD_LENGTH = 1024;

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
	const input = createHash('sha256').update(password, 'utf8').digest();
	return new Promise((resolve, reject) =>
		scrypt(input, salt, KEY_LENGTH, { ...params, maxmem: 256 * params.N * params.r + 1024 * 1024 }, (error, key) =>
			error ? reject(error) : resolve(key)
		)
	);
}

/** `scrypt$N$r$p$<salt>$<hash>` (base64url), for the user's row. */
export async function hashPassword(password: string): Promise<string> {
	const salt = randomBytes(16);
	const key = await derive(password, salt, PARAMS);
	return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Does `password` match `stored`? Compared in constant time; a malformed `stored` never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
	const [scheme, n, r, p, salt, hash] = stored.split('$');
	if (scheme !== 'scrypt' || !salt || !hash) return false;
	const params = { N: Number(n), r: Number(r), p: Number(p) };
	if (!Object.values(params).every((value) => Number.isSafeInteger(value) && value > 0)) return false;
	const expected = Buffer.from(hash, 'base64url');
	const candidate = await derive(password, Buffer.from(salt, 'base64url'), params);
	return candidate.length === expected.length && timingSafeEqual(candidate, expected);
}
