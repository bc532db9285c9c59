import { hkdfSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { base64url, calculateJwkThumbprint } from 'jose';
import { collect, JWE_BACKENDS } from '../support/crypto-backends.js';

const SALT = 'authjs.session-token';
const OLD = 'old-secret-old-secret-old-secret-0000';
const NEW = 'new-secret-new-secret-new-secret-1111';

function referenceKey(secret: string, salt: string, length: 32 | 64): Buffer {
	return Buffer.from(hkdfSync('sha256', secret, salt, `Auth.js Generated Encryption Key (${salt})`, length));
}

/**
 * The kid is the RFC 7638 thumbprint of the derived key (SHA-512 for 64 bytes, SHA-256 for 32),
 * computed here by jose from the independently derived key: equal kids are equal keys.
 */
function referenceKid(secret: string, salt: string, length: 32 | 64): Promise<string> {
	return calculateJwkThumbprint({ kty: 'oct', k: base64url.encode(referenceKey(secret, salt, length)) }, length === 64 ? 'sha512' : 'sha256');
}

describe.each(JWE_BACKENDS)('Keyring (%s backend)', (_name, impl) => {
	it('derives the Auth.js key: HKDF-SHA256(secret, salt = cookie name, info, 64 bytes)', async () => {
		const derived = await impl.keyring(NEW).current(SALT);
		expect(derived.kid).toBe(await referenceKid(NEW, SALT, 64));
	});

	it('derives 32 bytes for A256GCM with the same info string', async () => {
		const derived = await impl.keyring(NEW).current(SALT, 'A256GCM');
		expect(derived.kid).toBe(await referenceKid(NEW, SALT, 32));
	});

	it('different salts give unrelated keys', async () => {
		const keyring = impl.keyring(NEW);
		const a = await keyring.current('authjs.session-token');
		const b = await keyring.current('__Secure-authjs.session-token');
		const c = await keyring.current('authjs.state');
		expect(a.kid).not.toBe(b.kid);
		expect(a.kid).not.toBe(c.kid);
		expect(b.kid).toBe(await referenceKid(NEW, '__Secure-authjs.session-token', 64));
	});

	it('accepts a single string or a list; current() always uses the first secret', async () => {
		expect(impl.keyring(NEW).secrets).toEqual([NEW]);
		expect((await impl.keyring([NEW, OLD]).current(SALT)).kid).toBe(await referenceKid(NEW, SALT, 64));
		expect((await impl.keyring([OLD, NEW]).current(SALT)).kid).toBe(await referenceKid(OLD, SALT, 64));
	});

	it('refuses an empty list of secrets', () => {
		expect(() => impl.keyring([])).toThrow(TypeError);
	});

	it('candidates(kid) yields only the key with that thumbprint', async () => {
		const keyring = impl.keyring([NEW, OLD]);
		const oldKid = await referenceKid(OLD, SALT, 64);
		const found = await collect(keyring.candidates(SALT, 'A256CBC-HS512', oldKid));
		expect(found.map((k) => k.kid)).toEqual([oldKid]);
	});

	it('candidates(unknown kid) yields nothing', async () => {
		const keyring = impl.keyring([NEW, OLD]);
		expect(await collect(keyring.candidates(SALT, 'A256CBC-HS512', 'not-a-thumbprint'))).toEqual([]);
	});

	it('candidates(no kid) yields every secret, newest first', async () => {
		const keyring = impl.keyring([NEW, OLD]);
		const found = await collect(keyring.candidates(SALT, 'A256CBC-HS512', undefined));
		expect(found.map((k) => k.kid)).toEqual([await referenceKid(NEW, SALT, 64), await referenceKid(OLD, SALT, 64)]);
	});

	it('candidates for A256GCM are the 32-byte keys', async () => {
		const keyring = impl.keyring([NEW, OLD]);
		const found = await collect(keyring.candidates(SALT, 'A256GCM', undefined));
		expect(found.map((k) => k.kid)).toEqual([await referenceKid(NEW, SALT, 32), await referenceKid(OLD, SALT, 32)]);
	});

	it('caches derivations per (secret, salt, enc)', async () => {
		const keyring = impl.keyring([NEW, OLD]);
		expect(await keyring.current(SALT)).toBe(await keyring.current(SALT));
		expect(await keyring.current(SALT, 'A256GCM')).toBe(await keyring.current(SALT, 'A256GCM'));
		expect(await keyring.current(SALT)).not.toBe(await keyring.current(SALT, 'A256GCM'));
		expect(await keyring.current(SALT)).not.toBe(await keyring.current('authjs.state'));
	});

	it('does not confuse secrets and salts that would collide under naive concatenation', async () => {
		const a = await impl.keyring('ab').current('c');
		const b = await impl.keyring('a').current('bc');
		expect(a.kid).not.toBe(b.kid);
	});
});

describe('Keyring (node backend): the raw key bytes', () => {
	it('are exactly HKDF-SHA256 of the secret (64 bytes; 32 for A256GCM)', async () => {
		const { Keyring } = await import('../../src/lib/core/crypto/node/keys.js');
		const keyring = new Keyring([NEW, OLD]);
		expect(keyring.current(SALT).key.equals(referenceKey(NEW, SALT, 64))).toBe(true);
		expect(keyring.current(SALT, 'A256GCM').key.equals(referenceKey(NEW, SALT, 32))).toBe(true);
	});
});
