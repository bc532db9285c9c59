/**
 * The limiter's one hash: a keyed SHA-256 (HMAC) of account identifiers, so a store (a Redis
 * dump, a database backup) never holds an email in clear, and a dictionary of emails cannot be
 * matched against it without the key. The key is the configuration's current secret: rotating it
 * starts every account's count over, which is acceptable for counters of minutes to an hour.
 */
import { type Awaitable, base64url, hmacSha256 } from '../crypto/index.js';

export type Hasher = (value: string) => Awaitable<string>;

/** A hasher keyed once (the key is prepared here, not per call). Output: base64url, 43 chars. */
export function keyedHasher(secret: string): Hasher {
	const mac = hmacSha256(`kitauth rate limit\u0000${secret}`);
	return (value) => {
		const digest = mac(value);
		return digest instanceof Uint8Array ? base64url(digest) : digest.then(base64url);
	};
}
