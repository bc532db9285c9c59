/**
 * TOTP secrets at rest: sealed as a compact JWE (`dir`, A256CBC-HS512) under a key derived from
 * the app's secret with a salt of their own (so no cookie or token kitauth makes can be opened as
 * one, nor one of them as a cookie), as the session cookies are. With rotated secrets
 * (`secret: [new, old]`) a secret sealed under the old one still opens, and is then reported
 * `stale`: the caller seals it again under the newest (a compare-and-set), so dropping the old
 * secret later does not lock anyone out of their second factor.
 */
import { base64url, createKeyring, fromBase64url, type Keyring, openJwe, sealJwe } from '../crypto/index.js';

const SALT = 'kitauth.two-factor.secret';

/** Keyrings of the newest secret alone, per full keyring: to tell a stale seal from a current one. */
const newest = new WeakMap<Keyring, Keyring>();

function newestOf(keyring: Keyring): Keyring {
	let ring = newest.get(keyring);
	if (!ring) newest.set(keyring, (ring = createKeyring(keyring.secrets[0]!)));
	return ring;
}

export async function sealSecret(keyring: Keyring, secret: Uint8Array): Promise<string> {
	return sealJwe(keyring, SALT, base64url(secret));
}

/**
 * The secret a sealed one holds, and whether it was sealed under an older secret than the
 * newest; `undefined` when it opens under none (tampered, or sealed under a secret since dropped).
 */
export async function openSecret(keyring: Keyring, sealed: string): Promise<{ secret: Uint8Array; stale: boolean } | undefined> {
	if (typeof sealed !== 'string' || sealed.length > 4096) return undefined;
	const current = await openJwe(newestOf(keyring), SALT, sealed);
	const text = current ?? (keyring.secrets.length > 1 ? await openJwe(keyring, SALT, sealed) : null);
	const secret = text === null ? null : fromBase64url(text);
	return secret && secret.byteLength >= 16 ? { secret, stale: current === null } : undefined;
}
