import { base64url, utf8 } from '../encoding.js';
import { HeaderCache, KEY_LENGTH, keyInfo } from '../jwe-header.js';
import type { ContentEncryption, Keyring as KeyringLike } from '../types.js';

const subtle = () => globalThis.crypto.subtle;

/** A derived key as Web Crypto uses it, imported once. */
export interface WebKey {
	enc: ContentEncryption;
	/** RFC 7638 thumbprint of the key as an `oct` JWK, sized to the key (SHA-512 for 64 bytes). */
	kid: string;
	/** A256CBC-HS512: the AES-CBC key (second half); A256GCM: the AES-GCM key. */
	cipherKey: CryptoKey;
	/** A256CBC-HS512's HMAC-SHA-512 key (first half). */
	macKey?: CryptoKey;
}

/** A protected header as opening needs it: parsed, its AAD bytes, and its AAD length block. */
export interface OpenedHeader {
	header: import('../types.js').JweHeader;
	aad: Uint8Array<ArrayBuffer>;
	al: Uint8Array<ArrayBuffer>;
}

/**
 * The derived keys of one list of secrets, as `node/keys.ts` derives them (Auth.js compatible:
 * HKDF-SHA256, IKM = the secret, salt = the cookie name, info = "Auth.js Generated Encryption
 * Key (<salt>)"), each derived once: the cache holds the promise, so concurrent first reads
 * share one derivation.
 */
export class Keyring implements KeyringLike {
	readonly secrets: readonly string[];
	/** Protected headers of tokens these keys opened (see `jwe.ts`). */
	readonly headers = new HeaderCache<OpenedHeader>();
	readonly #cache = new Map<string, Promise<WebKey>>();

	constructor(secrets: string | readonly string[]) {
		this.secrets = typeof secrets === 'string' ? [secrets] : secrets;
		if (this.secrets.length === 0) throw new TypeError('Keyring needs at least one secret');
	}

	/** The key new tokens are sealed with: always the first (newest) secret. */
	current(salt: string, enc: ContentEncryption = 'A256CBC-HS512'): Promise<WebKey> {
		return this.derive(0, salt, enc);
	}

	/** Keys that may open a token with this `kid` (every secret's key when it has none). */
	async *candidates(salt: string, enc: ContentEncryption, kid: string | undefined): AsyncGenerator<WebKey> {
		for (let index = 0; index < this.secrets.length; index++) {
			const derived = await this.derive(index, salt, enc);
			if (kid === undefined || derived.kid === kid) yield derived;
		}
	}

	private derive(index: number, salt: string, enc: ContentEncryption): Promise<WebKey> {
		const cacheKey = `${index}\u0000${enc}\u0000${salt}`;
		let derived = this.#cache.get(cacheKey);
		if (!derived) {
			derived = deriveKey(this.secrets[index] as string, salt, enc);
			this.#cache.set(cacheKey, derived);
			// A failed derivation (no Web Crypto at all) is not kept: the next call tries again.
			derived.catch(() => this.#cache.delete(cacheKey));
		}
		return derived;
	}
}

async function deriveKey(secret: string, salt: string, enc: ContentEncryption): Promise<WebKey> {
	const ikm = await subtle().importKey('raw', utf8(secret), 'HKDF', false, ['deriveBits']);
	const bits = await subtle().deriveBits(
		{ name: 'HKDF', hash: 'SHA-256', salt: utf8(salt), info: utf8(keyInfo(salt)) },
		ikm,
		KEY_LENGTH[enc] * 8
	);
	const key = new Uint8Array(bits);
	const kid = await thumbprint(key);
	if (enc === 'A256GCM') {
		return { enc, kid, cipherKey: await subtle().importKey('raw', key, 'AES-GCM', false, ['decrypt']) };
	}
	const [macKey, cipherKey] = await Promise.all([
		subtle().importKey('raw', key.subarray(0, 32), { name: 'HMAC', hash: 'SHA-512' }, false, ['sign']),
		subtle().importKey('raw', key.subarray(32), 'AES-CBC', false, ['encrypt', 'decrypt'])
	]);
	return { enc, kid, cipherKey, macKey };
}

async function thumbprint(key: Uint8Array<ArrayBuffer>): Promise<string> {
	const jwk = `{"k":"${base64url(key)}","kty":"oct"}`;
	const digest = await subtle().digest(key.length === 64 ? 'SHA-512' : 'SHA-256', utf8(jwk));
	return base64url(new Uint8Array(digest));
}
