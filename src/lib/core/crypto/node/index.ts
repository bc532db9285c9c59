import type * as NodeCrypto from 'node:crypto';
import type { CryptoBackend, Keyring as KeyringLike } from '../types.js';
import { nodeCrypto } from './builtin.js';
import { openJwe, sealJwe } from './jwe.js';
import { Keyring } from './keys.js';

/**
 * The Node backend: node:crypto, synchronous. The JWE codec (`jwe.ts`, `keys.ts`) is tuned for
 * the session read: keys derived once per secret, HMAC as two one-shot hashes, AES-CBC through a
 * reusable block decryptor.
 */

const { createHmac, createSecretKey, hash, randomBytes, randomUUID, scrypt, timingSafeEqual } = nodeCrypto() ?? ({} as typeof NodeCrypto);

function own(keyring: KeyringLike): Keyring {
	if (!(keyring instanceof Keyring)) throw new TypeError('This keyring was made by another crypto backend');
	return keyring;
}

function bytes(buffer: Buffer): Uint8Array<ArrayBuffer> {
	return new Uint8Array(buffer.buffer as ArrayBuffer, buffer.byteOffset, buffer.byteLength);
}

export const backend: CryptoBackend = {
	name: 'node',
	createKeyring: (secrets) => new Keyring(secrets),
	sealJwe: (keyring, salt, plaintext) => sealJwe(plaintext, own(keyring).current(salt)),
	openJwe: (keyring, salt, token) => {
		const ring = own(keyring);
		return openJwe(token, ({ enc, kid }) => ring.candidates(salt, enc, kid), ring.headers);
	},
	sha256: (text, encoding) => hash('sha256', text, encoding),
	hmacSha256: (key) => {
		const prepared = createSecretKey(Buffer.from(key, 'utf8'));
		return (text) => bytes(createHmac('sha256', prepared).update(text, 'utf8').digest());
	},
	randomBytes: (size) => bytes(randomBytes(size)),
	randomUUID: () => randomUUID(),
	timingSafeEqual: (a, b) => {
		const left = Buffer.from(a);
		const right = Buffer.from(b);
		return left.length === right.length && timingSafeEqual(left, right);
	},
	// On libuv's thread pool, off the event loop. `maxmem` is what these parameters need (128·N·r
	// bytes) with room to spare: Node's default (32 MiB) would refuse N = 2^15, r = 8.
	scrypt: (input, salt, { N, r, p }, length) =>
		new Promise((resolve, reject) =>
			scrypt(input, salt, length, { N, r, p, maxmem: 256 * N * r + 2 ** 20 }, (error, key) => (error ? reject(error) : resolve(bytes(key))))
		)
};

export { Keyring, openJwe, sealJwe };
