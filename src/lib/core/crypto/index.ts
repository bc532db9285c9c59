/**
 * kitauth's one crypto module: everything in the core that hashes, MACs, encrypts or draws random
 * values comes here; nothing else imports node:crypto. Results may be promises (Web Crypto);
 * callers `await` them.
 */
import { backend } from './backend.js';
import type { CryptoBackend } from './types.js';

export const { createKeyring, sealJwe, openJwe, sha256, hmacSha256, randomBytes, randomUUID, timingSafeEqual, scrypt } = backend;

/** Which backend runs: 'node' (node:crypto) or 'web' (Web Crypto). */
export const cryptoBackend: CryptoBackend['name'] = backend.name;

export type { Awaitable, ByteEncoding, ContentEncryption, CryptoBackend, JweHeader, Keyring, ScryptParams } from './types.js';
export { base64, base64url, concatBytes, fromBase64, fromBase64url, fromBase64urlText, hex } from './encoding.js';
