import { hkdfSync } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { base64url, calculateJwkThumbprint, decodeProtectedHeader, EncryptJWT, jwtDecrypt } from 'jose';
import { decode as authjsDecode, encode as authjsEncode } from '@auth/core/jwt';
import { createKeyring, sealJwe } from '../../src/lib/core/crypto/index.js';
import { decode, encode, openToken, sealToken } from '../../src/lib/core/session/jwt.js';

const SALT = 'authjs.session-token';
const OLD = 'old-secret-old-secret-old-secret-0000';
const NEW = 'new-secret-new-secret-new-secret-1111';
const T0 = new Date('2030-01-01T00:00:00Z');
const T0_SECONDS = T0.getTime() / 1000;

function referenceKey(secret: string, salt: string, length: 32 | 64 = 64): Uint8Array {
	return new Uint8Array(hkdfSync('sha256', secret, salt, `Auth.js Generated Encryption Key (${salt})`, length));
}

const thumbprint = (key: Uint8Array): Promise<string> =>
	calculateJwkThumbprint({ kty: 'oct', k: base64url.encode(key) }, key.byteLength === 64 ? 'sha512' : 'sha256');

afterEach(() => {
	vi.useRealTimers();
});

describe('encode (public, Auth.js signature)', async () => {
	it('sets iat = now, exp = now + maxAge and a random UUID jti, keeping the claims', async () => {
		vi.useFakeTimers();
		vi.setSystemTime(T0);
		const token = await encode({ token: { sub: 'u1', name: 'Ada' }, secret: NEW, salt: SALT, maxAge: 3600 });
		const { payload } = await jwtDecrypt(token, referenceKey(NEW, SALT), {
			keyManagementAlgorithms: ['dir'],
			contentEncryptionAlgorithms: ['A256CBC-HS512'],
			currentDate: T0
		});
		expect(payload.sub).toBe('u1');
		expect(payload.name).toBe('Ada');
		expect(payload.iat).toBe(T0_SECONDS);
		expect(payload.exp).toBe(T0_SECONDS + 3600);
		expect(payload.jti).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
	});

	it('defaults maxAge to 30 days and token to {}', async () => {
		vi.useFakeTimers();
		vi.setSystemTime(T0);
		const token = await encode({ secret: NEW, salt: SALT });
		const claims = await decode({ token, secret: NEW, salt: SALT });
		expect(claims?.exp).toBe(T0_SECONDS + 30 * 24 * 60 * 60);
		expect(Object.keys(claims ?? {}).sort()).toEqual(['exp', 'iat', 'jti']);
	});

	it('gives every token its own jti', async () => {
		const a = await decode({ token: await encode({ token: {}, secret: NEW, salt: SALT }), secret: NEW, salt: SALT });
		const b = await decode({ token: await encode({ token: {}, secret: NEW, salt: SALT }), secret: NEW, salt: SALT });
		expect(typeof a?.jti).toBe('string');
		expect(a?.jti).not.toBe(b?.jti);
	});

	it('overrides caller-supplied iat/exp/jti (the token cannot extend itself)', async () => {
		vi.useFakeTimers();
		vi.setSystemTime(T0);
		const token = await encode({
			token: { sub: 'u', iat: 1, exp: 99_999_999_999, jti: 'fixed' },
			secret: NEW,
			salt: SALT,
			maxAge: 60
		});
		const claims = await decode({ token, secret: NEW, salt: SALT });
		expect(claims?.iat).toBe(T0_SECONDS);
		expect(claims?.exp).toBe(T0_SECONDS + 60);
		expect(claims?.jti).not.toBe('fixed');
	});

	it('seals with the first secret of a list, with its kid', async () => {
		const token = await encode({ token: { sub: 'r' }, secret: [NEW, OLD], salt: SALT });
		expect(decodeProtectedHeader(token).kid).toBe(await thumbprint(referenceKey(NEW, SALT)));
		await expect(
			jwtDecrypt(token, referenceKey(NEW, SALT), { keyManagementAlgorithms: ['dir'] })
		).resolves.toBeTruthy();
		await expect(jwtDecrypt(token, referenceKey(OLD, SALT), { keyManagementAlgorithms: ['dir'] })).rejects.toThrow();
	});
});

describe('decode (public, Auth.js signature)', async () => {
	it('round-trips encode', async () => {
		const token = await encode({ token: { sub: 'u2', email: 'a@example.com', custom: [1, 'two'] }, secret: NEW, salt: SALT });
		expect(await decode({ token, secret: NEW, salt: SALT })).toMatchObject({
			sub: 'u2',
			email: 'a@example.com',
			custom: [1, 'two']
		});
	});

	it('returns null for a missing or empty token', async () => {
		expect(await decode({ token: undefined, secret: NEW, salt: SALT })).toBeNull();
		expect(await decode({ token: '', secret: NEW, salt: SALT })).toBeNull();
	});

	it('returns null (does not throw) for garbage', async () => {
		for (const garbage of ['x', 'a.b.c.d.e', '....', 'eyJhbGciOiJkaXIifQ..AAAA.AAAA.AAAA']) {
			expect(await decode({ token: garbage, secret: NEW, salt: SALT })).toBeNull();
		}
	});

	it('returns null with the wrong secret or the wrong salt', async () => {
		const token = await encode({ token: { sub: 'x' }, secret: NEW, salt: SALT });
		expect(await decode({ token, secret: OLD, salt: SALT })).toBeNull();
		expect(await decode({ token, secret: NEW, salt: '__Secure-authjs.session-token' })).toBeNull();
	});
});

describe('secret rotation', async () => {
	it('a token sealed with an old secret opens when that secret is second in the list', async () => {
		const old = await encode({ token: { sub: 'legacy' }, secret: OLD, salt: SALT });
		expect(await decode({ token: old, secret: [NEW, OLD], salt: SALT })).toMatchObject({ sub: 'legacy' });
		expect(await decode({ token: old, secret: [NEW], salt: SALT })).toBeNull();
	});

	it('new tokens use the first secret: they no longer open with the old secret alone', async () => {
		const fresh = await encode({ token: { sub: 'fresh' }, secret: [NEW, OLD], salt: SALT });
		expect(await decode({ token: fresh, secret: OLD, salt: SALT })).toBeNull();
		expect(await decode({ token: fresh, secret: NEW, salt: SALT })).toMatchObject({ sub: 'fresh' });
	});

	it('kid selects the secret: a token whose kid names another secret is not opened by brute force', async () => {
		// Sealed with OLD but labelled with NEW's kid: the kid says "NEW", NEW cannot open it, so null.
		const newKid = await thumbprint(referenceKey(NEW, SALT));
		const mislabelled = await new EncryptJWT({ sub: 'mislabelled' })
			.setProtectedHeader({ alg: 'dir', enc: 'A256CBC-HS512', kid: newKid })
			.encrypt(referenceKey(OLD, SALT));
		expect(await decode({ token: mislabelled, secret: [NEW, OLD], salt: SALT })).toBeNull();
	});

	it('without kid every secret is tried', async () => {
		const noKid = await new EncryptJWT({ sub: 'no-kid' })
			.setProtectedHeader({ alg: 'dir', enc: 'A256CBC-HS512' })
			.setExpirationTime('1h')
			.encrypt(referenceKey(OLD, SALT));
		expect(await decode({ token: noKid, secret: [NEW, OLD], salt: SALT })).toMatchObject({ sub: 'no-kid' });
		const noKidGcm = await new EncryptJWT({ sub: 'no-kid-gcm' })
			.setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
			.encrypt(referenceKey(OLD, SALT, 32));
		expect(await decode({ token: noKidGcm, secret: [NEW, OLD], salt: SALT })).toMatchObject({ sub: 'no-kid-gcm' });
	});

	it('a rotated GCM token with kid opens', async () => {
		const key = referenceKey(OLD, SALT, 32);
		const token = await new EncryptJWT({ sub: 'gcm' })
			.setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid: await thumbprint(key) })
			.encrypt(key);
		expect(await decode({ token, secret: [NEW, OLD], salt: SALT })).toMatchObject({ sub: 'gcm' });
	});
});

describe('time claims (15 s clock tolerance)', async () => {
	const keyring = createKeyring(NEW);

	it('accepts a token until 15 s after exp, refuses it from then on', async () => {
		vi.useFakeTimers();
		vi.setSystemTime(T0);
		const token = await sealToken(keyring, SALT, { sub: 't' }, 60);
		vi.setSystemTime(new Date(T0.getTime() + 60_000));
		expect(await openToken(keyring, SALT, token)).toMatchObject({ sub: 't' });
		vi.setSystemTime(new Date(T0.getTime() + 74_000));
		expect(await openToken(keyring, SALT, token)).toMatchObject({ sub: 't' });
		vi.setSystemTime(new Date(T0.getTime() + 75_000));
		expect(await openToken(keyring, SALT, token)).toBeNull();
		vi.setSystemTime(new Date(T0.getTime() + 3_600_000));
		expect(await openToken(keyring, SALT, token)).toBeNull();
	});

	it('a jose token whose exp is an hour past is refused by decode', async () => {
		vi.useFakeTimers();
		vi.setSystemTime(T0);
		const token = await new EncryptJWT({ sub: 'expired' })
			.setProtectedHeader({ alg: 'dir', enc: 'A256CBC-HS512' })
			.setExpirationTime(T0_SECONDS - 3600)
			.encrypt(referenceKey(NEW, SALT));
		expect(await decode({ token, secret: NEW, salt: SALT })).toBeNull();
	});

	it('a jose token 10 s past exp is still accepted (within tolerance)', async () => {
		vi.useFakeTimers();
		vi.setSystemTime(T0);
		const token = await new EncryptJWT({ sub: 'skew' })
			.setProtectedHeader({ alg: 'dir', enc: 'A256CBC-HS512' })
			.setExpirationTime(T0_SECONDS - 10)
			.encrypt(referenceKey(NEW, SALT));
		expect(await decode({ token, secret: NEW, salt: SALT })).toMatchObject({ sub: 'skew' });
	});

	it('refuses nbf more than 15 s in the future, accepts it within 15 s', async () => {
		vi.useFakeTimers();
		vi.setSystemTime(T0);
		const future = await sealToken(keyring, SALT, { sub: 'n', nbf: T0_SECONDS + 60 }, 3600);
		const nearFuture = await sealToken(keyring, SALT, { sub: 'n', nbf: T0_SECONDS + 10 }, 3600);
		expect(await openToken(keyring, SALT, future)).toBeNull();
		expect(await openToken(keyring, SALT, nearFuture)).toMatchObject({ sub: 'n' });
		vi.setSystemTime(new Date(T0.getTime() + 60_000));
		expect(await openToken(keyring, SALT, future)).toMatchObject({ sub: 'n' });
	});

	it('refuses time claims that are not numbers', async () => {
		const far = Math.floor(Date.now() / 1000) + 3600;
		expect(await openToken(keyring, SALT, await sealJwe(keyring, SALT, JSON.stringify({ exp: String(far) })))).toBeNull();
		expect(await openToken(keyring, SALT, await sealJwe(keyring, SALT, JSON.stringify({ exp: null })))).toBeNull();
		expect(await openToken(keyring, SALT, await sealJwe(keyring, SALT, JSON.stringify({ exp: far, nbf: '0' })))).toBeNull();
		expect(await openToken(keyring, SALT, await sealJwe(keyring, SALT, JSON.stringify({ exp: far, iat: 'now' })))).toBeNull();
		expect(await openToken(keyring, SALT, await sealJwe(keyring, SALT, JSON.stringify({ exp: far, iat: 1 })))).toMatchObject({ iat: 1 });
	});
});

describe('payloads that are not JSON objects', async () => {
	const keyring = createKeyring(NEW);

	it.each([
		['a JSON array', '[{"sub":"x"}]'],
		['a JSON string', '"sub"'],
		['a JSON number', '42'],
		['JSON null', 'null'],
		['JSON true', 'true'],
		['not JSON', '{sub: x}'],
		['empty', '']
	])('%s → null (though the JWE itself is valid)', async (_name, plaintext) => {
		const token = await sealJwe(keyring, SALT, plaintext);
		expect(await openToken(keyring, SALT, token)).toBeNull();
	});

	it('sanity: a JSON object sealed the same way opens', async () => {
		expect(await openToken(keyring, SALT, await sealJwe(keyring, SALT, '{"sub":"x"}'))).toEqual({ sub: 'x' });
	});
});

describe('interoperability with @auth/core/jwt (drop-in sessions)', async () => {
	it('a token Auth.js encoded decodes with ours', async () => {
		const token = await authjsEncode({ token: { sub: 'from-authjs', name: 'A' }, secret: NEW, salt: SALT });
		expect(await decode({ token, secret: NEW, salt: SALT })).toMatchObject({ sub: 'from-authjs', name: 'A' });
	});

	it('a token we encoded decodes with Auth.js', async () => {
		const token = await encode({ token: { sub: 'from-kitauth' }, secret: NEW, salt: SALT });
		expect(await authjsDecode({ token, secret: NEW, salt: SALT })).toMatchObject({ sub: 'from-kitauth' });
	});

	it('Auth.js rotation (its first secret) opens with ours and vice versa', async () => {
		const theirs = await authjsEncode({ token: { sub: 'rot' }, secret: [OLD], salt: SALT });
		expect(await decode({ token: theirs, secret: [NEW, OLD], salt: SALT })).toMatchObject({ sub: 'rot' });
		const ours = await encode({ token: { sub: 'rot2' }, secret: [OLD, NEW], salt: SALT });
		expect(await authjsDecode({ token: ours, secret: [NEW, OLD], salt: SALT })).toMatchObject({ sub: 'rot2' });
	});
});
