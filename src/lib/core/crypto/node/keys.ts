import type * as NodeCrypto from 'node:crypto';
import type { Decipheriv, KeyObject } from 'node:crypto';
import { HeaderCache, KEY_LENGTH, keyInfo } from '../jwe-header.js';
import type { ContentEncryption, JweHeader, Keyring as KeyringLike } from '../types.js';
import { nodeCrypto } from './builtin.js';

// Bound once: this backend only runs on Node (`auto.ts` checks), where these are node:crypto's.
const { createDecipheriv, createHash, createSecretKey, hkdfSync } = nodeCrypto() ?? ({} as typeof NodeCrypto);

export type { ContentEncryption };

export interface DerivedKey {
	key: Buffer;
	/**
	 * The key as node:crypto wants it, prepared once: a raw Buffer key is copied into a new key
	 * object on every cipher or HMAC call, which costs more than the cipher itself on small tokens.
	 * A256CBC-HS512 splits its 64 bytes into the MAC key (first half) and the AES key (second).
	 */
	cipherKey: KeyObject;
	/** A256CBC-HS512's HMAC-SHA-512 key, as its two padded blocks (see `hmacPads`). */
	macPads?: HmacPads;
	/**
	 * A256CBC-HS512's AES key as a reusable block decryptor: AES-256-ECB, no padding, so each
	 * `update` of whole blocks returns their raw decryptions and keeps no state between calls.
	 * CBC decryption is that plus an XOR with the previous block (`jwe.ts`); making a CBC
	 * decipher per token costs twice as much as the decryption itself on a session-sized token.
	 */
	blockDecipher?: Decipheriv;
	/** RFC 7638 thumbprint of the key as an `oct` JWK, sized to the key (SHA-512 for 64 bytes). */
	kid: string;
}

/**
 * The derived keys of one list of secrets. HKDF costs ~160 µs, so each (secret, salt, enc) is
 * derived once and kept here; a keyring lives in the options object of one configuration.
 *
 * Derivation (Auth.js compatible): HKDF-SHA256, IKM = the secret, salt = the cookie name,
 * info = "Auth.js Generated Encryption Key (<salt>)". Different cookie names give unrelated keys,
 * so a sealed check cookie can never be replayed as a session token.
 */
export class Keyring implements KeyringLike {
	readonly secrets: readonly string[];
	/** Protected headers of tokens these keys opened (see `jwe.ts`). */
	readonly headers = new HeaderCache<OpenedHeader>();
	readonly #cache = new Map<string, DerivedKey>();

	constructor(secrets: string | readonly string[]) {
		this.secrets = typeof secrets === 'string' ? [secrets] : secrets;
		if (this.secrets.length === 0) throw new TypeError('Keyring needs at least one secret');
	}

	/** The key new tokens are sealed with: always the first (newest) secret. */
	current(salt: string, enc: ContentEncryption = 'A256CBC-HS512'): DerivedKey {
		return this.derive(0, salt, enc);
	}

	/** Keys that may open a token with this `kid` (every secret's key when it has none). */
	*candidates(salt: string, enc: ContentEncryption, kid: string | undefined): Generator<DerivedKey> {
		for (let index = 0; index < this.secrets.length; index++) {
			const derived = this.derive(index, salt, enc);
			if (kid === undefined || derived.kid === kid) yield derived;
		}
	}

	private derive(index: number, salt: string, enc: ContentEncryption): DerivedKey {
		const cacheKey = `${index}\u0000${enc}\u0000${salt}`;
		let derived = this.#cache.get(cacheKey);
		if (!derived) {
			const key = Buffer.from(
				hkdfSync(
					'sha256',
					this.secrets[index] as string,
					salt,
					keyInfo(salt),
					KEY_LENGTH[enc]
				)
			);
			derived =
				enc === 'A256CBC-HS512'
					? cbcKey(key)
					: { key, kid: thumbprint(key), cipherKey: createSecretKey(key) };
			this.#cache.set(cacheKey, derived);
		}
		return derived;
	}
}

function cbcKey(key: Buffer): DerivedKey {
	const cipherKey = createSecretKey(key.subarray(32));
	return {
		key,
		kid: thumbprint(key),
		macPads: hmacPads(key.subarray(0, 32)),
		cipherKey,
		blockDecipher: createDecipheriv('aes-256-ecb', cipherKey, null).setAutoPadding(false)
	};
}

/** RFC 2104's K ⊕ ipad and K ⊕ opad for SHA-512 (128-byte blocks; the key is shorter than one). */
export interface HmacPads {
	inner: Buffer;
	outer: Buffer;
}

function hmacPads(key: Buffer): HmacPads {
	const inner = Buffer.alloc(128, 0x36);
	const outer = Buffer.alloc(128, 0x5c);
	for (let i = 0; i < key.length; i++) {
		inner[i] = (inner[i] as number) ^ (key[i] as number);
		outer[i] = (outer[i] as number) ^ (key[i] as number);
	}
	return { inner, outer };
}

function thumbprint(key: Buffer): string {
	const jwk = `{"k":"${key.toString('base64url')}","kty":"oct"}`;
	return createHash(key.length === 64 ? 'sha512' : 'sha256')
		.update(jwk)
		.digest('base64url');
}/** A protected header as opening needs it: parsed, as AAD bytes, and its AAD length block. */
export interface OpenedHeader {
	header: JweHeader;
	aad: Buffer;
	al: Buffer;
}


