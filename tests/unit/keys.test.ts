import { hkdfSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { base64url, calculateJwkThumbprint } from 'jose';
import { Keyring } from '../../src/lib/core/session/keys.js';

const SALT = 'authjs.session-token';
const OLD = 'old-secret-old-secret-old-secret-0000';
const NEW = 'new-secret-new-secret-new-secret-1111';

function referenceKey(secret: string, salt: string, length: 32 | 64): Buffer {
	return Buffer.from(hkdfSync('sha256', secret, salt, `Auth.js Generated Encryption Key (${salt})`, length));
}

describe('Keyring', () => {
	it('derives the Auth.js key: HKDF-SHA256(secret, salt = cookie name, info, 64 bytes)', () => {
		const derived = new Keyring(NEW).current(SALT);
		expect(derived.key.equals(referenceKey(NEW, SALT, 64))).toBe(true);
	});

	it('derives 32 bytes for A256GCM with the same info string', () => {
		const derived = new Keyring(NEW).current(SALT, 'A256GCM');
		expect(derived.key.equals(referenceKey(NEW, SALT, 32))).toBe(true);
	});

	it('kid is the jose JWK thumbprint (SHA-512 for 64-byte keys, SHA-256 for 32-byte keys)', async () => {
		const keyring = new Keyring(NEW);
		const cbc = keyring.current(SALT);
		const gcm = keyring.current(SALT, 'A256GCM');
		expect(cbc.kid).toBe(
			await calculateJwkThumbprint({ kty: 'oct', k: base64url.encode(referenceKey(NEW, SALT, 64)) }, 'sha512')
		);
		expect(gcm.kid).toBe(
			await calculateJwkThumbprint({ kty: 'oct', k: base64url.encode(referenceKey(NEW, SALT, 32)) }, 'sha256')
		);
	});

	it('different salts give unrelated keys', () => {
		const keyring = new Keyring(NEW);
		const a = keyring.current('authjs.session-token');
		const b = keyring.current('__Secure-authjs.session-token');
		const c = keyring.current('authjs.state');
		expect(a.key.equals(b.key)).toBe(false);
		expect(a.key.equals(c.key)).toBe(false);
		expect(a.kid).not.toBe(b.kid);
	});

	it('accepts a single string or a list; current() always uses the first secret', () => {
		expect(new Keyring(NEW).secrets).toEqual([NEW]);
		const rotated = new Keyring([NEW, OLD]);
		expect(rotated.current(SALT).key.equals(referenceKey(NEW, SALT, 64))).toBe(true);
		const reversed = new Keyring([OLD, NEW]);
		expect(reversed.current(SALT).key.equals(referenceKey(OLD, SALT, 64))).toBe(true);
	});

	it('refuses an empty list of secrets', () => {
		expect(() => new Keyring([])).toThrow(TypeError);
	});

	it('candidates(kid) yields only the key with that thumbprint', () => {
		const keyring = new Keyring([NEW, OLD]);
		const oldKid = new Keyring(OLD).current(SALT).kid;
		const found = [...keyring.candidates(SALT, 'A256CBC-HS512', oldKid)];
		expect(found).toHaveLength(1);
		expect(found[0]?.key.equals(referenceKey(OLD, SALT, 64))).toBe(true);
	});

	it('candidates(unknown kid) yields nothing', () => {
		const keyring = new Keyring([NEW, OLD]);
		expect([...keyring.candidates(SALT, 'A256CBC-HS512', 'not-a-thumbprint')]).toEqual([]);
	});

	it('candidates(no kid) yields every secret, newest first', () => {
		const keyring = new Keyring([NEW, OLD]);
		const found = [...keyring.candidates(SALT, 'A256CBC-HS512', undefined)];
		expect(found.map((k) => k.key.toString('hex'))).toEqual([
			referenceKey(NEW, SALT, 64).toString('hex'),
			referenceKey(OLD, SALT, 64).toString('hex')
		]);
	});

	it('candidates for A256GCM are 32-byte keys', () => {
		const keyring = new Keyring([NEW, OLD]);
		for (const key of keyring.candidates(SALT, 'A256GCM', undefined)) expect(key.key).toHaveLength(32);
	});

	it('caches derivations per (secret, salt, enc)', () => {
		const keyring = new Keyring([NEW, OLD]);
		expect(keyring.current(SALT)).toBe(keyring.current(SALT));
		expect(keyring.current(SALT, 'A256GCM')).toBe(keyring.current(SALT, 'A256GCM'));
		expect(keyring.current(SALT)).not.toBe(keyring.current(SALT, 'A256GCM'));
		expect(keyring.current(SALT)).not.toBe(keyring.current('authjs.state'));
	});

	it('does not confuse secrets and salts that would collide under naive concatenation', () => {
		const a = new Keyring('ab').current('c');
		const b = new Keyring('a').current('bc');
		expect(a.key.equals(b.key)).toBe(false);
	});
});
