/**
 * Password hashing: both crypto backends compute scrypt as RFC 7914 says (its test vectors), the
 * stored format is the one documented (a vector made by another implementation, Python's
 * hashlib.scrypt over the SHA-256 of the NFKC form), hashes are upgradable, and a stored string
 * that is not ours, or asks for too much work, never verifies.
 */
import { describe, expect, it } from 'vitest';
import { backend as node } from '../../../src/lib/core/crypto/node/index.js';
import { backend as web } from '../../../src/lib/core/crypto/web/index.js';
import { hex } from '../../../src/lib/core/crypto/encoding.js';
import { DEFAULT_SCRYPT, decodeScrypt, decoyHash, scryptHasher } from '../../../src/lib/core/passwords/hash.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const FAST = { N: 2 ** 10, r: 8, p: 1 };

describe.each([
	['node', node],
	['web', web]
])('the %s backend computes scrypt', (_name, backend) => {
	it('as RFC 7914 section 12 gives it', async () => {
		expect(hex(await backend.scrypt(bytes(''), bytes(''), { N: 16, r: 1, p: 1 }, 64))).toBe(
			'77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906'
		);
		expect(hex(await backend.scrypt(bytes('password'), bytes('NaCl'), { N: 1024, r: 8, p: 16 }, 64))).toBe(
			'fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640'
		);
	});

	it('with the default parameters (N = 2^15 needs more memory than Node allows by default)', async () => {
		const key = await backend.scrypt(bytes('pw'), bytes('salt'), DEFAULT_SCRYPT, 32);
		expect(key).toHaveLength(32);
	});
});

// Python: scrypt(sha256(NFKC("Zoë ✓ correct horse")), salt = bytes 0..15, n=2^10, r=8, p=1, dklen=32).
const VECTOR = '$scrypt-sha256$ln=10,r=8,p=1$AAECAwQFBgcICQoLDA0ODw$x2JG1NK8UNS8s6F2R7pN5m1lwiCFEvgyWIN7PLv9kF0';

describe('scryptHasher', () => {
	const hasher = scryptHasher(FAST);

	it('verifies the known vector, and only its password', async () => {
		expect(await hasher.verify('Zoë ✓ correct horse', VECTOR)).toBe(true);
		expect(await hasher.verify('zoë ✓ correct horse', VECTOR)).toBe(false);
		expect(await hasher.verify('Zoë ✓ correct horse ', VECTOR)).toBe(false);
		expect(await hasher.verify('Zoë ✓ correct hors', VECTOR)).toBe(false);
	});

	it('compares the NFKC form: a decomposed ë is the same password as a precomposed one', async () => {
		expect(await hasher.verify('Zoe\u0308 ✓ correct horse', VECTOR)).toBe(true);
		const stored = await hasher.hash('ｐａｓｓ１２３４ word');
		expect(await hasher.verify('pass1234 word', stored)).toBe(true);
	});

	it('writes the documented format, with a fresh salt each time', async () => {
		const [a, b] = await Promise.all([hasher.hash('same password'), hasher.hash('same password')]);
		expect(a).toMatch(/^\$scrypt-sha256\$ln=10,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
		expect(a).not.toBe(b);
		expect(await hasher.verify('same password', a)).toBe(true);
		expect(await hasher.verify('same password', b)).toBe(true);
	});

	it('hashes the password, not a prefix or a NUL-padded twin (the SHA-256 prehash)', async () => {
		const long = 'x'.repeat(100);
		const stored = await hasher.hash(long);
		expect(await hasher.verify(long.slice(0, 72), stored)).toBe(false);
		const short = await hasher.hash('secret12');
		expect(await hasher.verify('secret12\u0000', short)).toBe(false);
	});

	it('reads hashes made with other parameters, and says they need a rehash', async () => {
		const old = await scryptHasher({ N: 2 ** 11, r: 8, p: 1 }).hash('upgrade me');
		expect(await hasher.verify('upgrade me', old)).toBe(true);
		expect(hasher.needsRehash(old)).toBe(true);
		expect(hasher.needsRehash(await hasher.hash('upgrade me'))).toBe(false);
		expect(scryptHasher().needsRehash(VECTOR)).toBe(true);
	});

	it.each([
		['empty', ''],
		['another algorithm', '$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA'],
		['N beyond the bound (2^30)', VECTOR.replace('ln=10', 'ln=30')],
		['memory beyond 1 GiB (N = 2^24, r = 32)', VECTOR.replace('ln=10,r=8', 'ln=24,r=32')],
		['p = 0', VECTOR.replace('p=1', 'p=0')],
		['bad base64', VECTOR.replace('AAEC', 'AA*C')],
		['a trailing field', `${VECTOR}$x`],
		['far too long', `${VECTOR}${'A'.repeat(1000)}`]
	])('refuses a stored hash that is %s, without work, and wants it replaced', async (_label, stored) => {
		expect(decodeScrypt(stored)).toBeUndefined();
		expect(await hasher.verify('Zoë ✓ correct horse', stored)).toBe(false);
		expect(hasher.needsRehash(stored)).toBe(true);
	});

	it.each([
		[{ N: 1000, r: 8, p: 1 }],
		[{ N: 2 ** 25, r: 1, p: 1 }],
		[{ N: 2 ** 15, r: 0, p: 1 }],
		[{ N: 2 ** 15, r: 8, p: 17 }]
	])('refuses to be made with parameters out of bounds (%o)', (params) => {
		expect(() => scryptHasher(params)).toThrow(TypeError);
	});
});

describe('decoyHash', () => {
	it('is one hash per hasher, that verifies no password', async () => {
		const hasher = scryptHasher(FAST);
		const decoy = await decoyHash(hasher);
		expect(await decoyHash(hasher)).toBe(decoy);
		expect(decodeScrypt(decoy)?.params).toEqual(FAST);
		expect(await hasher.verify('', decoy)).toBe(false);
	});
});
