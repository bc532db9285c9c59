import type { ContentEncryption, JweHeader } from './types.js';

/**
 * What both backends share about a compact JWE's protected header: which headers are accepted
 * (`alg: dir`, A256CBC-HS512 or A256GCM, no `zip`, no `crit`, a string `kid` if any), the cache
 * of headers that opened a token before, and the token's envelope checked before any key is tried.
 */

export const B64URL = /^[A-Za-z0-9_-]*$/;

/** Key bytes per content encryption: A256CBC-HS512 is a 32-byte MAC key and a 32-byte AES key. */
export const KEY_LENGTH: Record<ContentEncryption, number> = { 'A256CBC-HS512': 64, A256GCM: 32 };

/** HKDF's `info` for a salt (the cookie name), as Auth.js derives its keys. */
export function keyInfo(salt: string): string {
	return `Auth.js Generated Encryption Key (${salt})`;
}

/** Is the base64url text of a protected header worth decoding (non-empty, bounded, base64url)? */
export function plausibleHeader(raw: string): boolean {
	return raw.length > 0 && raw.length <= 1024 && B64URL.test(raw);
}

/** A decoded protected header, checked; `null` for anything this codec does not accept. */
export function checkJweHeader(header: unknown): JweHeader | null {
	if (!header || typeof header !== 'object') return null;
	const { alg, enc, kid, zip, crit } = header as Record<string, unknown>;
	if (alg !== 'dir' || (enc !== 'A256CBC-HS512' && enc !== 'A256GCM')) return null;
	if (zip !== undefined || crit !== undefined) return null;
	if (kid !== undefined && typeof kid !== 'string') return null;
	return { alg, enc, kid };
}

/**
 * Headers that opened a token before, by their base64url text. Every token sealed with one key
 * carries the same header, so parsing it once per key spares each session read a decode and a
 * `JSON.parse`. Only headers of tokens that authenticated go in (a forger cannot fill it), and it
 * is bounded; its owner is the keyring, which lives as long as one configuration.
 */
export class HeaderCache<T> {
	readonly #entries = new Map<string, T>();
	get(raw: string): T | undefined {
		return this.#entries.get(raw);
	}
	remember(raw: string, opened: T): void {
		if (this.#entries.size >= 32) this.#entries.clear();
		this.#entries.set(raw, opened);
	}
}

/** A compact JWE's parts, still base64url, with its protected header opened (or found in the cache). */
export interface JweEnvelope<T> {
	rawHeader: string;
	opened: T;
	/** Whether the header came from the cache (else remember it once a key authenticates the token). */
	cached: boolean;
	iv: string;
	ciphertext: string;
	tag: string;
}

/**
 * Splits `alg: dir` compact JWE (five parts, no encrypted key) and opens its header with the
 * backend's `openHeader`; `null` for anything malformed.
 */
export function jweEnvelope<T>(token: string, headers: HeaderCache<T> | undefined, openHeader: (raw: string) => T | null): JweEnvelope<T> | null {
	const parts = token.split('.');
	if (parts.length !== 5 || parts[1] !== '') return null;
	const [rawHeader, , iv, ciphertext, tag] = parts as [string, string, string, string, string];
	if (!B64URL.test(iv) || !B64URL.test(ciphertext) || !B64URL.test(tag)) return null;
	const fromCache = headers?.get(rawHeader);
	const opened = fromCache ?? openHeader(rawHeader);
	return opened ? { rawHeader, opened, cached: fromCache !== undefined, iv, ciphertext, tag } : null;
}

