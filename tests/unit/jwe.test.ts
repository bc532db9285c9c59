import { hkdfSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
	base64url,
	calculateJwkThumbprint,
	decodeProtectedHeader,
	EncryptJWT,
	jwtDecrypt
} from 'jose';
import type { JweHeader } from '../../src/lib/core/crypto/types.js';
import { JWE_BACKENDS, type TestKey } from '../support/crypto-backends.js';

const SECRET = 'a-test-secret-that-is-long-enough-0123456789';
const SALT = 'authjs.session-token';

/** The reference key, derived here independently of `keys.ts` (Auth.js's recipe). */
function referenceKey(secret: string, salt: string, length: 32 | 64 = 64): Uint8Array {
	return new Uint8Array(
		hkdfSync('sha256', secret, salt, `Auth.js Generated Encryption Key (${salt})`, length)
	);
}

function jwkThumbprint(key: Uint8Array): Promise<string> {
	return calculateJwkThumbprint(
		{ kty: 'oct', k: base64url.encode(key) },
		key.byteLength === 64 ? 'sha512' : 'sha256'
	);
}

function parts(token: string): string[] {
	return token.split('.');
}

describe.each(JWE_BACKENDS)('the %s backend', (_name, { keyring: newKeyring, sealJwe, openJwe }) => {
	describe('sealJwe: a token we seal is a standard compact JWE (jose decrypts it)', async () => {
		it('decrypts with jose jwtDecrypt given the independently derived key', async () => {
			const keyring = newKeyring(SECRET);
			const claims = { sub: 'user-1', name: 'Ada', nested: { a: [1, 2, 3] }, uni: 'Zürich ✓' };
			const token = await sealJwe(JSON.stringify(claims), keyring.current(SALT));

			const { payload, protectedHeader } = await jwtDecrypt(token, referenceKey(SECRET, SALT), {
				keyManagementAlgorithms: ['dir'],
				contentEncryptionAlgorithms: ['A256CBC-HS512']
			});
			expect(payload).toEqual(claims);
			expect(protectedHeader.alg).toBe('dir');
			expect(protectedHeader.enc).toBe('A256CBC-HS512');
		});

		it('has five parts with an empty encrypted key, a 16-byte IV and a 32-byte tag', async () => {
			const token = await sealJwe('{"a":1}', newKeyring(SECRET).current(SALT));
			const [header, encryptedKey, iv, ciphertext, tag] = parts(token);
			expect(parts(token)).toHaveLength(5);
			expect(encryptedKey).toBe('');
			expect(Buffer.from(iv ?? '', 'base64url')).toHaveLength(16);
			expect(Buffer.from(tag ?? '', 'base64url')).toHaveLength(32);
			expect(Buffer.from(ciphertext ?? '', 'base64url').length % 16).toBe(0);
			for (const part of [header, iv, ciphertext, tag]) expect(part).toMatch(/^[A-Za-z0-9_-]+$/);
		});

		it('puts the RFC 7638 SHA-512 thumbprint of the derived key in kid', async () => {
			const token = await sealJwe('{}', newKeyring(SECRET).current(SALT));
			const header = decodeProtectedHeader(token);
			expect(header.kid).toBe(await jwkThumbprint(referenceKey(SECRET, SALT)));
		});

		it('uses a fresh IV for every token, so equal plaintexts give different tokens', async () => {
			const key = newKeyring(SECRET).current(SALT);
			const a = await sealJwe('{"same":true}', key);
			const b = await sealJwe('{"same":true}', key);
			expect(a).not.toBe(b);
			expect(parts(a)[2]).not.toBe(parts(b)[2]);
		});

		it('round-trips through openJwe', async () => {
			const keyring = newKeyring(SECRET);
			const plaintext = JSON.stringify({ x: 'y'.repeat(1000) });
			const token = await sealJwe(plaintext, keyring.current(SALT));
			const opened = await openJwe(token, ({ enc, kid }) => keyring.candidates(SALT, enc, kid));
			expect(opened).toBe(plaintext);
		});
	});

	describe('openJwe: tokens jose seals open with ours', async () => {
		const keyring = newKeyring(SECRET);
		const select = (header: JweHeader): Iterable<TestKey> | AsyncIterable<TestKey> =>
			keyring.candidates(SALT, header.enc, header.kid);

		it('opens A256CBC-HS512 with kid', async () => {
			const key = referenceKey(SECRET, SALT);
			const token = await new EncryptJWT({ sub: 'jose-user', role: 'admin' })
				.setProtectedHeader({ alg: 'dir', enc: 'A256CBC-HS512', kid: await jwkThumbprint(key) })
				.setIssuedAt()
				.encrypt(key);
			const opened = await openJwe(token, select);
			expect(opened).not.toBeNull();
			expect(JSON.parse(opened ?? 'null')).toMatchObject({ sub: 'jose-user', role: 'admin' });
		});

		it('opens A256CBC-HS512 without kid', async () => {
			const token = await new EncryptJWT({ sub: 'no-kid' })
				.setProtectedHeader({ alg: 'dir', enc: 'A256CBC-HS512' })
				.encrypt(referenceKey(SECRET, SALT));
			expect(JSON.parse(await openJwe(token, select) ?? 'null')).toEqual({ sub: 'no-kid' });
		});

		it('opens A256GCM sealed with the 32-byte key derived from the same info string', async () => {
			const key = referenceKey(SECRET, SALT, 32);
			const token = await new EncryptJWT({ sub: 'gcm-user' })
				.setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid: await jwkThumbprint(key) })
				.encrypt(key);
			expect(JSON.parse(await openJwe(token, select) ?? 'null')).toEqual({ sub: 'gcm-user' });
		});

		it('opens A256GCM without kid', async () => {
			const token = await new EncryptJWT({ sub: 'gcm-no-kid' })
				.setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
				.encrypt(referenceKey(SECRET, SALT, 32));
			expect(JSON.parse(await openJwe(token, select) ?? 'null')).toEqual({ sub: 'gcm-no-kid' });
		});

		it('refuses a jose token sealed with another secret', async () => {
			const key = referenceKey('some-other-secret-entirely-0123456789', SALT);
			const token = await new EncryptJWT({ sub: 'x' })
				.setProtectedHeader({ alg: 'dir', enc: 'A256CBC-HS512' })
				.encrypt(key);
			expect(await openJwe(token, select)).toBeNull();
		});

		it('refuses a jose token sealed under another salt (cookie name)', async () => {
			const key = referenceKey(SECRET, '__Secure-authjs.session-token');
			const token = await new EncryptJWT({ sub: 'x' })
				.setProtectedHeader({ alg: 'dir', enc: 'A256CBC-HS512', kid: await jwkThumbprint(key) })
				.encrypt(key);
			expect(await openJwe(token, select)).toBeNull();
		});

		it('passes the parsed header to the key selector', async () => {
			const key = referenceKey(SECRET, SALT, 32);
			const kid = await jwkThumbprint(key);
			const token = await new EncryptJWT({})
				.setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid })
				.encrypt(key);
			const seen: JweHeader[] = [];
			await openJwe(token, (header) => {
				seen.push(header);
				return keyring.candidates(SALT, header.enc, header.kid);
			});
			expect(seen).toEqual([{ alg: 'dir', enc: 'A256GCM', kid }]);
		});

		it('stops at the first key that authenticates and tries the next on failure', async () => {
			const right = await newKeyring(SECRET).current(SALT);
			const wrong = await newKeyring('wrong-secret-wrong-secret-wrong-secret').current(SALT);
			const token = await sealJwe('{"ok":1}', right);
			expect(await openJwe(token, () => [wrong, right])).toBe('{"ok":1}');
			expect(await openJwe(token, () => [wrong])).toBeNull();
			expect(await openJwe(token, () => [])).toBeNull();
		});
	});
});
