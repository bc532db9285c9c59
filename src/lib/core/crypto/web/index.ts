import { hex, base64url, utf8 } from '../encoding.js';
import type { CryptoBackend, Keyring as KeyringLike } from '../types.js';
import { equalBytes, openJwe, sealJwe } from './jwe.js';
import { Keyring } from './keys.js';

/**
 * The Web Crypto backend: `globalThis.crypto` only (no Node built-in, no `Buffer`), for workerd,
 * Deno, Vercel's edge runtime and anything else without node:crypto. Digests, MACs and ciphers
 * are asynchronous there; random values are not.
 */

const subtle = () => globalThis.crypto.subtle;

function own(keyring: KeyringLike): Keyring {
	if (!(keyring instanceof Keyring)) throw new TypeError('This keyring was made by another crypto backend');
	return keyring;
}

export const backend: CryptoBackend = {
	name: 'web',
	createKeyring: (secrets) => new Keyring(secrets),
	sealJwe: (keyring, salt, plaintext) => sealJwe(plaintext, own(keyring).current(salt)),
	openJwe: (keyring, salt, token) => {
		const ring = own(keyring);
		return openJwe(token, ({ enc, kid }) => ring.candidates(salt, enc, kid), ring.headers);
	},
	sha256: async (text, encoding) => {
		const digest = new Uint8Array(await subtle().digest('SHA-256', utf8(text)));
		return encoding === 'hex' ? hex(digest) : base64url(digest);
	},
	hmacSha256: (key) => {
		const prepared = subtle().importKey('raw', utf8(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
		return async (text) => new Uint8Array(await subtle().sign('HMAC', await prepared, utf8(text)));
	},
	randomBytes: (size) => globalThis.crypto.getRandomValues(new Uint8Array(size)),
	randomUUID: () => globalThis.crypto.randomUUID(),
	timingSafeEqual: (a, b) => equalBytes(utf8(a), utf8(b)),
	scrypt: async (input, salt, { N, r, p }, length) => {
		// Web Crypto has no memory-hard function: @noble/hashes's scrypt (pure JS, audited, no
		// dependencies), loaded on first use so apps without passwords never load it. It yields to
		// the event loop as it goes (`asyncTick`), so other requests keep being served meanwhile.
		const { scryptAsync } = await import('@noble/hashes/scrypt.js');
		return scryptAsync(input, salt, { N, r, p, dkLen: length, maxmem: 256 * N * r + 2 ** 20, asyncTick: 10 });
	}
};

export { Keyring, openJwe, sealJwe };
