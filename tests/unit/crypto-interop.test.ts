/**
 * The two crypto backends are interchangeable: a token sealed by one opens with the other, both
 * directions, and both speak Auth.js's format (`@auth/core/jwt` encode/decode). Their digests,
 * MACs and comparisons agree byte for byte; Node's own node:crypto is the reference.
 */
import { createHash, createHmac } from 'node:crypto';
import { decode as authjsDecode, encode as authjsEncode } from '@auth/core/jwt';
import { describe, expect, it } from 'vitest';
import { cryptoBackend } from '../../src/lib/core/crypto/index.js';
import { backend as node } from '../../src/lib/core/crypto/node/index.js';
import type { CryptoBackend } from '../../src/lib/core/crypto/types.js';
import { backend as web } from '../../src/lib/core/crypto/web/index.js';

const SALT = 'authjs.session-token';
const SECRET = 'interop-secret-interop-secret-interop-0123';
const OLD = 'interop-old-secret-interop-old-secret-4567';
const CLAIMS = { sub: 'user-1', name: 'Zoë ✓', email: 'zoe@example.com', nested: { roles: ['a', 'b'] }, blob: 'x'.repeat(3000) };

const PAIRS: [string, CryptoBackend, CryptoBackend][] = [
	['node → web', node, web],
	['web → node', web, node],
	['node → node', node, node],
	['web → web', web, web]
];

describe.each(PAIRS)('a token sealed and opened %s', (_name, sealer, opener) => {
	it('opens to the same plaintext', async () => {
		const plaintext = JSON.stringify(CLAIMS);
		const token = await sealer.sealJwe(sealer.createKeyring(SECRET), SALT, plaintext);
		expect(await opener.openJwe(opener.createKeyring(SECRET), SALT, token)).toBe(plaintext);
	});

	it('opens after a secret rotation (the old secret second), and not with another secret or salt', async () => {
		const token = await sealer.sealJwe(sealer.createKeyring(OLD), SALT, '{"rotated":true}');
		expect(await opener.openJwe(opener.createKeyring([SECRET, OLD]), SALT, token)).toBe('{"rotated":true}');
		expect(await opener.openJwe(opener.createKeyring(SECRET), SALT, token)).toBeNull();
		expect(await opener.openJwe(opener.createKeyring(OLD), `__Secure-${SALT}`, token)).toBeNull();
	});

	it('refuses the token with one bit of its tag flipped', async () => {
		const token = await sealer.sealJwe(sealer.createKeyring(SECRET), SALT, '{"a":1}');
		const parts = token.split('.');
		const tag = Buffer.from(parts[4]!, 'base64url');
		tag[7]! ^= 1;
		parts[4] = tag.toString('base64url');
		expect(await opener.openJwe(opener.createKeyring(SECRET), SALT, parts.join('.'))).toBeNull();
	});

	it('carries the same protected header (alg, enc and the key thumbprint as kid)', async () => {
		const a = await sealer.sealJwe(sealer.createKeyring(SECRET), SALT, '{}');
		const b = await opener.sealJwe(opener.createKeyring(SECRET), SALT, '{}');
		expect(a.split('.')[0]).toBe(b.split('.')[0]);
	});
});

describe.each([
	['node', node],
	['web', web]
])('the %s backend and @auth/core/jwt', (_name, backend) => {
	it('opens what Auth.js encodes', async () => {
		const token = await authjsEncode({ token: CLAIMS, secret: SECRET, salt: SALT });
		const opened = await backend.openJwe(backend.createKeyring(SECRET), SALT, token);
		expect(JSON.parse(opened ?? 'null')).toMatchObject(CLAIMS);
	});

	it('seals what Auth.js decodes', async () => {
		const token = await backend.sealJwe(backend.createKeyring(SECRET), SALT, JSON.stringify({ ...CLAIMS, exp: Math.floor(Date.now() / 1000) + 60 }));
		expect(await authjsDecode({ token, secret: SECRET, salt: SALT })).toMatchObject(CLAIMS);
	});

	it('opens what Auth.js encodes under its first secret, given the rotated list', async () => {
		const token = await authjsEncode({ token: { sub: 'rot' }, secret: [OLD, SECRET], salt: SALT });
		expect(await backend.openJwe(backend.createKeyring([SECRET, OLD]), SALT, token)).toContain('"sub":"rot"');
	});
});

describe.each([
	['node', node],
	['web', web]
])('the %s backend’s primitives match node:crypto', (_name, backend) => {
	const texts = ['', 'abc', 'Zoë ✓ 🔐', 'x'.repeat(10_000)];

	it('sha256, hex and base64url', async () => {
		for (const text of texts) {
			expect(await backend.sha256(text, 'hex')).toBe(createHash('sha256').update(text).digest('hex'));
			expect(await backend.sha256(text, 'base64url')).toBe(createHash('sha256').update(text).digest('base64url'));
		}
	});

	it('HMAC-SHA-256 under a UTF-8 key', async () => {
		const mac = backend.hmacSha256('kéy ✓');
		for (const text of texts) {
			expect(Buffer.from(await mac(text)).toString('hex')).toBe(createHmac('sha256', 'kéy ✓').update(text).digest('hex'));
		}
	});

	it('timingSafeEqual compares strings, of equal or different lengths', () => {
		expect(backend.timingSafeEqual('abc', 'abc')).toBe(true);
		expect(backend.timingSafeEqual('abc', 'abd')).toBe(false);
		expect(backend.timingSafeEqual('abc', 'abcd')).toBe(false);
		expect(backend.timingSafeEqual('', '')).toBe(true);
		expect(backend.timingSafeEqual('é', 'e\u0301')).toBe(false);
	});

	it('randomBytes and randomUUID', () => {
		const a = backend.randomBytes(32);
		expect(a).toBeInstanceOf(Uint8Array);
		expect(a).toHaveLength(32);
		expect(Buffer.from(a).equals(Buffer.from(backend.randomBytes(32)))).toBe(false);
		expect(backend.randomUUID()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
	});
});

describe('the backend the core runs on', () => {
	it('is the Node backend under Node (this test process)', () => {
		expect(process.versions.node).toBeTruthy();
		expect(cryptoBackend).toBe('node');
	});

	it('each backend refuses a keyring made by the other', () => {
		expect(() => node.openJwe(web.createKeyring(SECRET), SALT, 'a..b.c.d')).toThrow(/another crypto backend/);
		expect(() => web.openJwe(node.createKeyring(SECRET), SALT, 'a..b.c.d')).toThrow(/another crypto backend/);
	});
});
