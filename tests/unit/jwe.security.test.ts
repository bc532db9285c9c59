import { createCipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { jwtDecrypt } from 'jose';
import { createKeyring } from '../../src/lib/core/crypto/index.js';
import type { JweHeader } from '../../src/lib/core/crypto/types.js';
import { openToken, sealToken } from '../../src/lib/core/session/jwt.js';
import { HeaderCache, JWE_BACKENDS } from '../support/crypto-backends.js';

const SECRET = 'security-test-secret-security-test-secret';
const SALT = 'authjs.session-token';

function referenceKey(length: 32 | 64): Buffer {
	return Buffer.from(hkdfSync('sha256', SECRET, SALT, `Auth.js Generated Encryption Key (${SALT})`, length));
}

const b64u = (value: Buffer | string): string => Buffer.from(value).toString('base64url');

/**
 * An independent A256CBC-HS512 sealer (RFC 7518 §5.2) that takes any protected header, so a test
 * can build a correctly authenticated token whose only defect is its header.
 */
function craftCbc(
	header: Record<string, unknown> | string,
	plaintext: string | Buffer,
	key = referenceKey(64),
	/** Encrypt `plaintext` as given, block-aligned, with no PKCS#7 padding added. */
	raw = false
): string {
	const encodedHeader = b64u(typeof header === 'string' ? header : JSON.stringify(header));
	const iv = randomBytes(16);
	const cipher = createCipheriv('aes-256-cbc', key.subarray(32), iv).setAutoPadding(!raw);
	const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
	const al = Buffer.alloc(8);
	al.writeBigUInt64BE(BigInt(encodedHeader.length * 8));
	const tag = createHmac('sha512', key.subarray(0, 32))
		.update(encodedHeader)
		.update(iv)
		.update(ciphertext)
		.update(al)
		.digest()
		.subarray(0, 32);
	return `${encodedHeader}..${b64u(iv)}.${b64u(ciphertext)}.${b64u(tag)}`;
}

/** Flips one bit of the decoded bytes of part `index` (so the change is never a no-op). */
function flipBit(token: string, index: number, byte = 0): string {
	const split = token.split('.');
	const bytes = Buffer.from(split[index] ?? '', 'base64url');
	bytes[byte] = (bytes[byte] ?? 0) ^ 0x01;
	split[index] = b64u(bytes);
	return split.join('.');
}

function replacePart(token: string, index: number, value: string): string {
	const split = token.split('.');
	split[index] = value;
	return split.join('.');
}

describe.each(JWE_BACKENDS)('the %s backend', (_name, { keyring: newKeyring, sealJwe, openJwe }) => {
	const keyring = newKeyring(SECRET);
	const select = (header: JweHeader) => keyring.candidates(SALT, header.enc, header.kid);
	const open = (token: string): Promise<string | null> => openJwe(token, select);

	describe('the crafting helper is itself correct', async () => {
		it('builds a token jose and openJwe accept when the header is valid', async () => {
			const token = craftCbc({ alg: 'dir', enc: 'A256CBC-HS512' }, '{"sub":"crafted"}');
			const { payload } = await jwtDecrypt(token, new Uint8Array(referenceKey(64)), {
				keyManagementAlgorithms: ['dir'],
				contentEncryptionAlgorithms: ['A256CBC-HS512']
			});
			expect(payload).toEqual({ sub: 'crafted' });
			expect(await open(token)).toBe('{"sub":"crafted"}');
		});
	});

	describe('tampering with any part of a sealed token makes it unreadable', () => {
		let token = '';
		beforeAll(async () => {
			token = await sealJwe('{"sub":"victim","role":"user"}', keyring.current(SALT));
		});

		it('sanity: the untouched token opens', async () => {
			expect(await open(token)).toBe('{"sub":"victim","role":"user"}');
		});

		it('header: an equivalent but re-encoded header (it is the AAD) fails', async () => {
			const header = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8')) as Record<
				string,
				unknown
			>;
			const reordered = b64u(JSON.stringify({ kid: header.kid, enc: header.enc, alg: header.alg }));
			expect(reordered).not.toBe(token.split('.')[0]);
			expect(await open(replacePart(token, 0, reordered))).toBeNull();
		});

		it('header: one flipped bit fails', async () => {
			expect(await open(flipBit(token, 0, 5))).toBeNull();
		});

		it('encrypted key: a non-empty value for alg dir fails', async () => {
			expect(await open(replacePart(token, 1, b64u(randomBytes(32))))).toBeNull();
			expect(await open(replacePart(token, 1, 'A'))).toBeNull();
		});

		it('iv: one flipped bit fails (CBC would otherwise flip the first plaintext block)', async () => {
			expect(await open(flipBit(token, 2, 0))).toBeNull();
			expect(await open(flipBit(token, 2, 15))).toBeNull();
		});

		it('iv: wrong length fails', async () => {
			expect(await open(replacePart(token, 2, b64u(randomBytes(12))))).toBeNull();
			expect(await open(replacePart(token, 2, ''))).toBeNull();
		});

		it('ciphertext: one flipped bit in any block fails', async () => {
			expect(await open(flipBit(token, 3, 0))).toBeNull();
			expect(await open(flipBit(token, 3, 20))).toBeNull();
		});

		it('ciphertext: truncated by one block fails', async () => {
			const ct = Buffer.from(token.split('.')[3] ?? '', 'base64url');
			expect(await open(replacePart(token, 3, b64u(ct.subarray(0, ct.length - 16))))).toBeNull();
		});

		it('tag: one flipped bit fails', async () => {
			expect(await open(flipBit(token, 4, 0))).toBeNull();
			expect(await open(flipBit(token, 4, 31))).toBeNull();
		});

		it('tag: truncated, extended or empty fails', async () => {
			const tag = Buffer.from(token.split('.')[4] ?? '', 'base64url');
			expect(await open(replacePart(token, 4, b64u(tag.subarray(0, 16))))).toBeNull();
			expect(await open(replacePart(token, 4, b64u(Buffer.concat([tag, Buffer.from([0])]))))).toBeNull();
			expect(await open(replacePart(token, 4, ''))).toBeNull();
		});

		it('parts swapped between two valid tokens fail', async () => {
			const other = await sealJwe('{"sub":"attacker","role":"admin"}', keyring.current(SALT));
			const spliced = [...token.split('.').slice(0, 4), other.split('.')[4]].join('.');
			expect(await open(spliced)).toBeNull();
			const splicedCt = replacePart(token, 3, other.split('.')[3] ?? '');
			expect(await open(splicedCt)).toBeNull();
		});
	});

	describe('headers other than alg dir with a supported enc are refused, even when authenticated', () => {
		const plaintext = '{"sub":"x"}';

		it('sanity: a crafted token with a valid header and kid opens', async () => {
			const kid = (await keyring.current(SALT)).kid;
			expect(await open(craftCbc({ alg: 'dir', enc: 'A256CBC-HS512', kid }, plaintext))).toBe(plaintext);
		});

		it.each([
			['alg none', { alg: 'none', enc: 'A256CBC-HS512' }],
			['alg missing', { enc: 'A256CBC-HS512' }],
			['alg A256KW', { alg: 'A256KW', enc: 'A256CBC-HS512' }],
			['alg RSA-OAEP', { alg: 'RSA-OAEP', enc: 'A256CBC-HS512' }],
			['alg DIR (case)', { alg: 'DIR', enc: 'A256CBC-HS512' }],
			['enc A128CBC-HS256', { alg: 'dir', enc: 'A128CBC-HS256' }],
			['enc missing', { alg: 'dir' }],
			['zip DEF', { alg: 'dir', enc: 'A256CBC-HS512', zip: 'DEF' }],
			['crit', { alg: 'dir', enc: 'A256CBC-HS512', crit: ['exp'], exp: 1 }],
			['crit empty', { alg: 'dir', enc: 'A256CBC-HS512', crit: [] }],
			['kid not a string', { alg: 'dir', enc: 'A256CBC-HS512', kid: 42 }]
		])('%s → null', async (_name, header) => {
			expect(await open(craftCbc(header, plaintext))).toBeNull();
		});

		it.each(['[]', '["dir","A256CBC-HS512"]', '"dir"', 'null', '42', '{', '', '{"alg":"dir","enc":"A256CBC-HS512"'])(
			'an authenticated token whose header is %j is refused',
			async (header) => {
				expect(await open(craftCbc(header, plaintext))).toBeNull();
			}
		);

		it('sanity: the same raw-header crafting with a valid header opens', async () => {
			expect(await open(craftCbc('{"alg":"dir","enc":"A256CBC-HS512"}', plaintext))).toBe(plaintext);
		});

		it.each([
			['a zero pad byte', Buffer.concat([Buffer.from('{"a":1}'), Buffer.alloc(9, 0)])],
			['a pad byte above the block size', Buffer.concat([Buffer.from('{"a":1}xxxxxxxx'), Buffer.from([17])])],
			['pad bytes that disagree', Buffer.concat([Buffer.from('{"a":1}xxxxx'), Buffer.from([3, 4, 4, 4])])],
			['a full block of 16s with one byte off', Buffer.concat([Buffer.from('{"a":1}xxxxxxxxx'), Buffer.from([5]), Buffer.alloc(15, 16)])]
		])('an authenticated token whose plaintext has %s as padding is refused', async (_name, padded) => {
			expect(padded.length % 16).toBe(0);
			expect(await open(craftCbc({ alg: 'dir', enc: 'A256CBC-HS512' }, padded, referenceKey(64), true))).toBeNull();
		});

		it('sanity: correct padding crafted by hand opens, a full block of padding included', async () => {
			const full = Buffer.concat([Buffer.from('{"a":1}xxxxxxxxx'), Buffer.alloc(16, 16)]);
			expect(await open(craftCbc({ alg: 'dir', enc: 'A256CBC-HS512' }, full, referenceKey(64), true))).toBe('{"a":1}xxxxxxxxx');
			const short = Buffer.concat([Buffer.from('{"a":1}xxxxxxxx'), Buffer.from([1])]);
			expect(await open(craftCbc({ alg: 'dir', enc: 'A256CBC-HS512' }, short, referenceKey(64), true))).toBe('{"a":1}xxxxxxxx');
		});

		it('an empty ciphertext with a valid tag is refused', async () => {
			expect(await open(craftCbc({ alg: 'dir', enc: 'A256CBC-HS512' }, Buffer.alloc(0), referenceKey(64), true))).toBeNull();
		});

		it('a kid that matches no secret is refused', async () => {
			expect(await open(craftCbc({ alg: 'dir', enc: 'A256CBC-HS512', kid: 'unknown' }, plaintext))).toBeNull();
		});

		it('an enc: A256GCM header on a CBC-sealed token is refused (no algorithm confusion)', async () => {
			const token = await sealJwe(plaintext, keyring.current(SALT));
			const gcmHeader = b64u(JSON.stringify({ alg: 'dir', enc: 'A256GCM' }));
			expect(await open(replacePart(token, 0, gcmHeader))).toBeNull();
		});
	});

	describe('malformed compact serializations', () => {
		// A valid token at collection time (the cases are listed before any test runs): crafted.
		const token = craftCbc({ alg: 'dir', enc: 'A256CBC-HS512' }, '{"a":1}');

		it.each([
			['four parts', token.split('.').slice(0, 4).join('.')],
			['six parts', `${token}.AAAA`],
			['three parts (a JWS shape)', token.split('.').slice(0, 3).join('.')],
			['one part', 'abc'],
			['empty', ''],
			['only dots', '....']
		])('%s → null', async (_name, value) => {
			expect(await open(value)).toBeNull();
		});

		it.each([
			['+ in the ciphertext', 3, '+'],
			['/ in the iv', 2, '/'],
			['= padding on the tag', 4, '=='],
			['space in the ciphertext', 3, ' '],
			['% in the header', 0, '%']
		])('non-base64url character: %s → null', async (_name, index, char) => {
			const split = token.split('.');
			split[index] = `${split[index] ?? ''}${char}`;
			expect(await open(split.join('.'))).toBeNull();
		});

		it('a huge header is refused without parsing it, even when the token is authenticated', async () => {
			const small = craftCbc({ alg: 'dir', enc: 'A256CBC-HS512', pad: 'x'.repeat(100) }, '{}');
			expect(await open(small)).toBe('{}');
			const huge = craftCbc({ alg: 'dir', enc: 'A256CBC-HS512', pad: 'x'.repeat(5000) }, '{}');
			expect(await open(huge)).toBeNull();
		});

	});

	describe('the header cache', async () => {
		it('remembers only headers of tokens that authenticated, and opens the same with or without it', async () => {
			const cache = new HeaderCache<{ header: JweHeader }>();
			const good = craftCbc({ alg: 'dir', enc: 'A256CBC-HS512' }, '{"sub":"a"}');
			const forged = craftCbc({ alg: 'dir', enc: 'A256CBC-HS512', x: 1 }, '{"sub":"b"}', randomBytes(64));
			expect(await openJwe(forged, select, cache)).toBeNull();
			expect(cache.get(forged.split('.')[0]!)).toBeUndefined();
			expect(await openJwe(good, select, cache)).toBe('{"sub":"a"}');
			expect(cache.get(good.split('.')[0]!)?.header).toEqual({ alg: 'dir', enc: 'A256CBC-HS512', kid: undefined });
			// A cached header still needs each token to authenticate.
			const tampered = good.replace(/\.([^.]+)$/, `.${b64u(randomBytes(32))}`);
			expect(await openJwe(tampered, select, cache)).toBeNull();
			const again = craftCbc({ alg: 'dir', enc: 'A256CBC-HS512' }, '{"sub":"c"}');
			expect(await openJwe(again, select, cache)).toBe(await open(again));
		});
	});

	describe('one key decrypts token after token with no state carried between them', () => {
		// The AES decryptor of a key is reused for every token it opens (keys.ts). Whatever one token
		// does to it (a refused padding, an exotic length), the next must decrypt exactly.
		const header = { alg: 'dir', enc: 'A256CBC-HS512' };
		const payloads = [1, 15, 16, 17, 31, 32, 33, 255, 4000].map((length, i) =>
			JSON.stringify({ i, fill: 'é·x'.repeat(length).slice(0, length) })
		);
		const badPadding = Buffer.concat([Buffer.from('{"a":1}xxxxx'), Buffer.from([3, 4, 4, 4])]);

		it('interleaved with refused tokens, every token opens to its own plaintext, in any order', async () => {
			for (const order of [payloads, [...payloads].reverse()]) {
				for (const payload of order) {
					expect(await open(craftCbc(header, badPadding, referenceKey(64), true))).toBeNull();
					expect(await open(craftCbc(header, payload))).toBe(payload);
					expect(await open(await sealJwe(payload, keyring.current(SALT)))).toBe(payload);
				}
			}
		});

		it('matches an independent CBC decipher on random block-aligned plaintexts', async () => {
			for (let blocks = 1; blocks <= 40; blocks++) {
				const body = Buffer.from(randomBytes(blocks * 16).toString('hex').slice(0, blocks * 16 - 1));
				const padded = Buffer.concat([body, Buffer.from([1])]);
				const token = craftCbc(header, padded, referenceKey(64), true);
				expect(await open(token)).toBe(body.toString('utf8'));
			}
		});
	});
});

describe('openToken (jwt.ts over the running backend)', () => {
	const keyring = createKeyring(SECRET);

	it('openToken refuses inputs over 64 KiB and garbage of any size', async () => {
		expect(await openToken(keyring, SALT, 'A'.repeat(70 * 1024))).toBeNull();
		expect(await openToken(keyring, SALT, `${'A'.repeat(40_000)}..${'B'.repeat(40_000)}.C.D`)).toBeNull();
		expect(await openToken(keyring, SALT, '.'.repeat(100_000))).toBeNull();
		expect(await openToken(keyring, SALT, '')).toBeNull();
	});

	it('openToken refuses a genuinely sealed token that is over 64 KiB', async () => {
		const big = await sealToken(keyring, SALT, { blob: 'x'.repeat(70 * 1024) }, 60);
		expect(big.length).toBeGreaterThan(64 * 1024);
		expect(await openToken(keyring, SALT, big)).toBeNull();
	});
});

describe('a token for one purpose cannot be replayed as another', () => {
	const keyring = createKeyring(SECRET);
	it('a check cookie (salt authjs.state) does not open as a session token', async () => {
		const state = await sealToken(keyring, 'authjs.state', { value: 'x', provider: 'github' }, 900);
		expect(await openToken(keyring, 'authjs.state', state)).toMatchObject({ value: 'x' });
		expect(await openToken(keyring, SALT, state)).toBeNull();
	});

	it('an http cookie does not open under the https cookie name', async () => {
		const token = await sealToken(keyring, 'authjs.session-token', { sub: '1' }, 60);
		expect(await openToken(keyring, '__Secure-authjs.session-token', token)).toBeNull();
	});
});
