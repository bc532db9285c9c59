/**
 * Device cookies (OWASP, "Slow down online guessing attacks with device cookies"): a browser that
 * signed in to an account gets a signed entry for it, and its later attempts for that account are
 * counted on a budget of its own (`limiter.ts`), so an attacker's pressure on the account never
 * holds its owner up there.
 *
 * An entry is `<nonce>.<issued>.<mac>`: 128 random bits, the issue time in seconds, and
 * HMAC-SHA256 over (label, the account's keyed hash, nonce, issued) under a key derived from the
 * secret with its own label, so it is bound to the account without naming it (no email, not even
 * its hash, is in the cookie) and no other MAC kitauth makes can pass for it. One cookie holds the
 * entries of the last few accounts signed in from the browser, newest first. Entries made under an
 * older secret (`secret: [new, old]`) still verify, against the account's hash under that secret;
 * new ones are made under the newest. Anything else in the cookie (forged, tampered, expired, for
 * another account, malformed) is ignored, never an error: the attempt is then an unknown browser's.
 *
 * A new entry per sign-in, with a new nonce: the budget is the nonce's, so a thief of an old
 * entry keeps only what is left of that entry's budget, never a share of the owner's new one.
 */
import { base64url, hex, hmacSha256, randomBytes, timingSafeEqual } from '../crypto/index.js';
import { DEVICE_COOKIE_MAX_AGE } from '../session/cookies.js';
import { type Hasher, keyedHasher } from './hash.js';

/** Accounts remembered per browser. */
const MAX_ENTRIES = 5;
/** Longer cookies are not read at all (five entries take under 400 characters). */
const MAX_LENGTH = 1024;
/** An entry issued this far in the future still counts (clocks of instances differ a little). */
const SKEW_SECONDS = 5 * 60;
const ENTRY = /^([\w-]{22})\.(\d{1,11})\.([\w-]{43})$/;

export interface DeviceEntry {
	/** The entry's random part: its budget's identity. */
	nonce: string;
}

export interface DeviceRead {
	/** The entry issued to this browser for the account, when one verifies. */
	match?: DeviceEntry;
	/** The other well-formed, unexpired entries, as they came (kept when the cookie is renewed). */
	others: string[];
}

export interface DeviceCookies {
	/** Reads `value` (the cookie as the browser sent it) for the account. Never throws. */
	read(value: unknown, identifier: string, account: string, now: number): Promise<DeviceRead>;
	/** A new cookie value: a fresh entry for the account, then up to four of `others`. */
	issue(account: string, others: readonly string[], now: number): Promise<string>;
}

type Mac = ReturnType<typeof hmacSha256>;

/**
 * Device cookies under `secrets` (newest first); `account` hashes are the limiter's, under the
 * newest secret (`keyedHasher(secrets[0])`).
 */
export function deviceCookies(secrets: readonly string[]): DeviceCookies {
	// One key per secret, derived once, on first use: HMAC(secret, label).
	let macs: Promise<Mac[]> | undefined;
	const keys = () =>
		(macs ??= Promise.all(secrets.map(async (secret) => hmacSha256(hex(await hmacSha256(secret)('kitauth/device-cookie/key'))))));
	const olderHashers: (Hasher | undefined)[] = [];
	const hashUnder = (index: number): Hasher => (olderHashers[index] ??= keyedHasher(secrets[index]!));

	const sign = async (mac: Mac, account: string, nonce: string, issued: string) =>
		base64url(await mac(['kitauth/device', account, nonce, issued].join('\u0000')));

	return Object.freeze({
		async read(value: unknown, identifier: string, account: string, now: number): Promise<DeviceRead> {
			try {
				return await read(value, identifier, account, now);
			} catch {
				return { others: [] }; // whatever went wrong, the browser is an unknown one
			}
		},

		async issue(account: string, others: readonly string[], now: number): Promise<string> {
			const nonce = base64url(randomBytes(16));
			const issued = String(Math.floor(now / 1000));
			const mac = await sign((await keys())[0]!, account, nonce, issued);
			return [`${nonce}.${issued}.${mac}`, ...others.slice(0, MAX_ENTRIES - 1)].join('~');
		}
	});

	async function read(value: unknown, identifier: string, account: string, now: number): Promise<DeviceRead> {
		if (typeof value !== 'string' || value === '' || value.length > MAX_LENGTH) return { others: [] };
		const entries: { raw: string; nonce: string; issued: string; mac: string }[] = [];
		for (const raw of value.split('~').slice(0, MAX_ENTRIES)) {
			const parts = ENTRY.exec(raw);
			if (!parts) continue;
			const issuedAt = Number(parts[2]);
			if (issuedAt > now / 1000 + SKEW_SECONDS || (issuedAt + DEVICE_COOKIE_MAX_AGE) * 1000 <= now) continue;
			entries.push({ raw, nonce: parts[1]!, issued: parts[2]!, mac: parts[3]! });
		}
		if (entries.length === 0) return { others: [] };
		const signers = await keys();
		// The newest secret first (the account's hash under it is the limiter's), older ones only
		// when nothing matched under it.
		for (let index = 0; index < signers.length; index++) {
			const hashed = index === 0 ? account : await hashUnder(index)(identifier);
			for (const entry of entries) {
				if (timingSafeEqual(await sign(signers[index]!, hashed, entry.nonce, entry.issued), entry.mac)) {
					return { match: { nonce: entry.nonce }, others: entries.filter((other) => other !== entry).map((other) => other.raw) };
				}
			}
		}
		return { others: entries.map((entry) => entry.raw) };
	}
}
