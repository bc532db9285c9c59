/**
 * The crypto module's one interface. Two backends implement it: `node/` (node:crypto, synchronous,
 * the tuned session-read path) and `web/` (Web Crypto, for workerd, Deno, Vercel's edge and any
 * runtime without node:crypto, where digests and ciphers are asynchronous). Results are
 * `Awaitable`: callers `await` them, which costs the Node backend one microtask and nothing else.
 */

export type Awaitable<T> = T | Promise<T>;

export type ContentEncryption = 'A256CBC-HS512' | 'A256GCM';

export interface JweHeader {
	alg: 'dir';
	enc: ContentEncryption;
	kid?: string;
}

/**
 * The derived JWE keys of one list of secrets (newest first), cached for the life of a
 * configuration. What a key is inside is its backend's business: a keyring is only ever handed
 * back to the backend that made it.
 */
export interface Keyring {
	readonly secrets: readonly string[];
}

export type ByteEncoding = 'hex' | 'base64url';

/** scrypt's cost parameters (RFC 7914): CPU/memory cost `N` (a power of 2), block size `r`, parallelism `p`. */
export interface ScryptParams {
	N: number;
	r: number;
	p: number;
}

export interface CryptoBackend {
	readonly name: 'node' | 'web';
	/** A keyring for these secrets (at least one). */
	createKeyring(secrets: string | readonly string[]): Keyring;
	/**
	 * Compact JWE, `alg: dir`, A256CBC-HS512, under the key HKDF derives from the newest secret and
	 * this salt (the cookie name), with that key's RFC 7638 thumbprint as `kid` (Auth.js's format).
	 */
	sealJwe(keyring: Keyring, salt: string, plaintext: string): Awaitable<string>;
	/**
	 * The plaintext of a compact JWE (A256CBC-HS512 or A256GCM) sealed under any of the keyring's
	 * secrets with this salt; `null` for anything malformed, forged or sealed with an unknown key.
	 */
	openJwe(keyring: Keyring, salt: string, token: string): Awaitable<string | null>;
	/** SHA-256 of the UTF-8 text, encoded. */
	sha256(text: string, encoding: ByteEncoding): Awaitable<string>;
	/** HMAC-SHA-256 under a UTF-8 key, prepared once: the returned function MACs UTF-8 text. */
	hmacSha256(key: string): (text: string) => Awaitable<Uint8Array<ArrayBuffer>>;
	/** Cryptographically strong random bytes. */
	randomBytes(size: number): Uint8Array<ArrayBuffer>;
	randomUUID(): string;
	/** Compares two strings in time that depends only on their lengths. */
	timingSafeEqual(a: string, b: string): boolean;
	/**
	 * scrypt (RFC 7914) of `input` with `salt`, `length` bytes long. Always asynchronous: it is
	 * memory-hard and slow on purpose (password hashing), so it must not block the event loop.
	 */
	scrypt(input: Uint8Array, salt: Uint8Array, params: ScryptParams, length: number): Promise<Uint8Array>;
}
