/**
 * Password hashing: scrypt (RFC 7914), memory-hard, with its parameters in the stored string so
 * they can be raised later (a hash made with other parameters is rehashed at the next sign-in,
 * `needsRehash`). The encoding follows the PHC string format:
 *
 *     $scrypt-sha256$ln=15,r=8,p=3$<salt>$<hash>         (salt 16 bytes, hash 32; base64, unpadded)
 *
 * `scrypt-sha256`, not `scrypt`: the password is hashed to a fixed length first (SHA-256 of its
 * UTF-8 bytes), because scrypt's inner HMAC zero-pads a short key (so `secret` and `secret\0` would
 * be one password) and hashes a long one (so a long password and its SHA-256 would be). After the
 * prehash every password is exactly 32 bytes, and two distinct passwords never meet. The password
 * is hashed in its NFKC form (`policy.ts` says why) and otherwise exactly as received (ASVS 6.2.8):
 * no trimming, no case folding, no truncation.
 */
import { base64, fromBase64, fromBase64url, randomBytes, scrypt, sha256, timingSafeEqual } from '../crypto/index.js';
import type { ScryptParams } from '../crypto/index.js';
import type { PasswordHasher } from '../types/password.js';
import { normalizePassword } from './policy.js';

export type { ScryptParams };

/**
 * The default cost: N = 2^15 (32 MiB), r = 8, p = 3, one of OWASP's equivalent scrypt settings
 * (Password Storage Cheat Sheet: N·p = 2^17 with r = 8), chosen among them for its memory: it fits
 * beside an app in a Cloudflare Worker's 128 MB, and four hashes at once (Node's thread pool) take
 * 128 MiB, where N = 2^17 would take half a gigabyte.
 */
export const DEFAULT_SCRYPT: Readonly<ScryptParams> = Object.freeze({ N: 2 ** 15, r: 8, p: 3 });

const ID = 'scrypt-sha256';
const SALT_BYTES = 16;
const KEY_BYTES = 32;

/**
 * Bounds on what a stored hash may ask for: a corrupted or planted row must not make the server
 * spend gigabytes or minutes on one sign-in (1 GiB and N·p ≤ 2^24 at most).
 */
const MAX_LOG_N = 24;
const MAX_R = 32;
const MAX_P = 16;
const MAX_MEMORY = 2 ** 30;

/** Are these parameters usable, within the bounds any hash kitauth makes or reads must keep? */
export function validScryptParams({ N, r, p }: ScryptParams): boolean {
	const logN = Math.log2(N);
	return (
		Number.isInteger(logN) &&
		logN >= 1 &&
		logN <= MAX_LOG_N &&
		Number.isInteger(r) &&
		r >= 1 &&
		r <= MAX_R &&
		Number.isInteger(p) &&
		p >= 1 &&
		p <= MAX_P &&
		128 * N * r <= MAX_MEMORY &&
		N * p <= 2 ** MAX_LOG_N
	);
}

interface Decoded {
	params: ScryptParams;
	salt: Uint8Array;
	key: Uint8Array;
}

/** The parts of a `$scrypt-sha256$…` string, or undefined for anything else or out of bounds. */
export function decodeScrypt(encoded: string): Decoded | undefined {
	if (typeof encoded !== 'string' || encoded.length > 200) return undefined;
	const match = /^\$scrypt-sha256\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]{16,64})\$([A-Za-z0-9+/]{16,128})$/.exec(encoded);
	if (!match) return undefined;
	const params = { N: 2 ** Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
	const salt = fromBase64(match[4]!);
	const key = fromBase64(match[5]!);
	if (!salt || !key || !validScryptParams(params)) return undefined;
	return { params, salt, key };
}

function encode({ N, r, p }: ScryptParams, salt: Uint8Array, key: Uint8Array): string {
	const unpadded = (bytes: Uint8Array) => base64(bytes).replace(/=+$/, '');
	return `$${ID}$ln=${Math.log2(N)},r=${r},p=${p}$${unpadded(salt)}$${unpadded(key)}`;
}

/** scrypt over the SHA-256 of the password's NFKC form (see the module's comment for why). */
async function derive(password: string, salt: Uint8Array, params: ScryptParams, length: number): Promise<Uint8Array> {
	const prehash = fromBase64url(await sha256(normalizePassword(password), 'base64url'))!;
	return scrypt(prehash, salt, params, length);
}

/**
 * The built-in hasher: scrypt over SHA-256 with these parameters (default {@link DEFAULT_SCRYPT}).
 * It verifies hashes made with any parameters within bounds, and reports those made with other
 * parameters than its own as needing a rehash.
 */
export function scryptHasher(params: ScryptParams = DEFAULT_SCRYPT): PasswordHasher {
	if (!validScryptParams(params)) {
		throw new TypeError('scrypt parameters: N must be a power of 2 up to 2^24, r 1–32, p 1–16, at most 1 GiB (128·N·r)');
	}
	const own = Object.freeze({ N: params.N, r: params.r, p: params.p });
	return Object.freeze({
		async hash(password: string): Promise<string> {
			const salt = randomBytes(SALT_BYTES);
			return encode(own, salt, await derive(password, salt, own, KEY_BYTES));
		},
		async verify(password: string, encoded: string): Promise<boolean> {
			const decoded = decodeScrypt(encoded);
			if (!decoded) return false;
			const key = await derive(password, decoded.salt, decoded.params, decoded.key.length);
			return timingSafeEqual(base64(key), base64(decoded.key));
		},
		needsRehash(encoded: string): boolean {
			const decoded = decodeScrypt(encoded);
			if (!decoded) return true;
			const { N, r, p } = decoded.params;
			return N !== own.N || r !== own.r || p !== own.p || decoded.salt.length !== SALT_BYTES || decoded.key.length !== KEY_BYTES;
		}
	});
}

/**
 * A hash of a random password, made once per hasher and kept: what an attempt for an unknown user
 * is checked against, so it costs the same hash as a known user's (and can never match: nobody
 * knows the password, and the result is ignored anyway).
 */
const decoys = new WeakMap<PasswordHasher, Promise<string>>();

export function decoyHash(hasher: PasswordHasher): Promise<string> {
	let decoy = decoys.get(hasher);
	if (!decoy) {
		decoy = hasher.hash(base64(randomBytes(24)));
		// A failed decoy is not kept: the next attempt makes another.
		decoy.catch(() => decoys.delete(hasher));
		decoys.set(hasher, decoy);
	}
	return decoy;
}
