/**
 * The limiter's one hash: a keyed SHA-256 of account identifiers, so a store (a Redis dump, a
 * database backup) never holds an email in clear, and a dictionary of emails cannot be matched
 * against it without the key. The key is the configuration's current secret: rotating it starts
 * every account's count over, which is acceptable for counters of minutes to an hour.
 *
 * SHA-256 over the key and the value rather than an HMAC: the digest is a store key, compared by
 * the store and never shown to a client or checked as a MAC, so length extension gives nothing;
 * and one hash call costs a fraction of an HMAC object per attempt (two per sign-in).
 */
import { type Awaitable, sha256 } from '../crypto/index.js';

export type Hasher = (value: string) => Awaitable<string>;

/** A hasher under `secret`. Output: base64url, 43 chars. */
export function keyedHasher(secret: string): Hasher {
	// The key's length first, so no split of key and value reads as another.
	const prefix = `kitauth rate limit\u0000${secret.length}\u0000${secret}\u0000`;
	return (value) => sha256(`${prefix}${value}`, 'base64url');
}
