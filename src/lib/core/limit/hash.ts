/**
 * The limiter's one hash: a keyed SHA-256 (HMAC) of account identifiers, so a store (a Redis
 * dump, a database backup) never holds an email in clear, and a dictionary of emails cannot be
 * matched against it without the key. The key is the configuration's current secret: rotating it
 * starts every account's count over, which is acceptable for counters of minutes to an hour.
 *
 * kitauth's crypto is to move into one module (`core/crypto/`); until then this is the limiter's
 * only `node:crypto` import.
 */
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';

export type Hasher = (value: string) => string;

/** A hasher keyed once (the key is prepared here, not per call). Output: base64url, 43 chars. */
export function keyedHasher(secret: string): Hasher {
	const key: KeyObject = createSecretKey(Buffer.from(`kitauth rate limit\u0000${secret}`, 'utf8'));
	return (value) => createHmac('sha256', key).update(value, 'utf8').digest('base64url');
}
