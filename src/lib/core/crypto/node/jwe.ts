import type * as NodeCrypto from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { checkJweHeader, type HeaderCache, jweEnvelope, plausibleHeader } from '../jwe-header.js';
import type { JweHeader } from '../types.js';
import { nodeCrypto } from './builtin.js';
import type { DerivedKey, HmacPads, OpenedHeader } from './keys.js';

// Bound once: this backend only runs on Node (`auto.ts` checks), where these are node:crypto's.
const { createCipheriv, createDecipheriv, hash, randomBytes, timingSafeEqual } = nodeCrypto() ?? ({} as typeof NodeCrypto);

/**
 * Compact JWE with `alg: dir` (RFC 7516/7518): A256CBC-HS512 to seal, A256CBC-HS512 or A256GCM to
 * open. Written on node:crypto because it is the hot path of every session read: jose's
 * WebCrypto JWE costs ~1 ms a call, this ~70 µs. `jwe.test.ts` checks it against jose both ways.
 */

export type { JweHeader };

export function sealJwe(plaintext: string, key: DerivedKey): string {
	const header = b64u(JSON.stringify({ alg: 'dir', enc: 'A256CBC-HS512', kid: key.kid }));
	const aad = Buffer.from(header, 'ascii');
	const iv = randomBytes(16);
	const { macPads, cipherKey } = cbcKeys(key);
	const cipher = createCipheriv('aes-256-cbc', cipherKey, iv);
	const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
	const tag = cbcTag(macPads, aad, iv, ciphertext);
	return `${header}..${b64u(iv)}.${b64u(ciphertext)}.${b64u(tag)}`;
}

function readJweHeader(raw: string): JweHeader | null {
	if (!plausibleHeader(raw)) return null;
	let header: unknown;
	try {
		header = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
	} catch {
		return null;
	}
	return checkJweHeader(header);
}

function openHeader(raw: string): OpenedHeader | null {
	const header = readJweHeader(raw);
	if (!header) return null;
	const aad = Buffer.from(raw, 'ascii');
	return { header, aad, al: aadLength(aad) };
}

/**
 * Opens a token with the first key (chosen from its header's `enc` and `kid`) that authenticates
 * it; `null` for anything malformed, forged or sealed with an unknown key.
 */
export function openJwe(
	token: string,
	selectKeys: (header: JweHeader) => Iterable<DerivedKey>,
	headers?: HeaderCache<OpenedHeader>
): string | null {
	const envelope = jweEnvelope(token, headers, openHeader);
	if (!envelope) return null;
	const { rawHeader, opened, cached } = envelope;
	const iv = Buffer.from(envelope.iv, 'base64url');
	const ciphertext = Buffer.from(envelope.ciphertext, 'base64url');
	const tag = Buffer.from(envelope.tag, 'base64url');
	for (const key of selectKeys(opened.header)) {
		const plaintext =
			opened.header.enc === 'A256CBC-HS512'
				? openCbc(key, opened, iv, ciphertext, tag)
				: openGcm(key, opened.aad, iv, ciphertext, tag);
		if (plaintext !== null) {
			if (!cached) headers?.remember(rawHeader, opened);
			return plaintext;
		}
	}
	return null;
}

/** The two halves of an A256CBC-HS512 key; throws for a key of another size (a caller's bug). */
function cbcKeys(key: DerivedKey): { macPads: HmacPads; cipherKey: KeyObject } {
	if (key.key.length !== 64 || !key.macPads) throw new TypeError('A256CBC-HS512 needs a 64-byte key');
	return { macPads: key.macPads, cipherKey: key.cipherKey };
}

function openCbc(key: DerivedKey, { aad, al }: OpenedHeader, iv: Buffer, ct: Buffer, tag: Buffer): string | null {
	const { macPads, blockDecipher } = key;
	if (key.key.length !== 64 || !macPads || !blockDecipher || iv.length !== 16 || tag.length !== 32 || ct.length === 0 || ct.length % 16 !== 0) {
		return null;
	}
	const expected = cbcTag(macPads, aad, iv, ct, al);
	if (!timingSafeEqual(expected, tag)) return null;
	// CBC decryption (NIST SP 800-38A §6.2): P[i] = D(C[i]) XOR C[i-1], C[-1] = IV. The key's
	// reusable ECB decryptor gives D(C[i]) for every block in one call (whole blocks only, checked
	// above, so it holds nothing back for the next token); the chaining is done here. The tag was
	// verified first, so no padding oracle arises from checking PKCS#7 ourselves.
	const padded = blockDecipher.update(ct);
	if (padded.length !== ct.length) throw new Error('AES block decryption returned a partial result');
	for (let i = 0; i < 16; i++) padded[i] = (padded[i] as number) ^ (iv[i] as number);
	for (let i = 16; i < padded.length; i++) padded[i] = (padded[i] as number) ^ (ct[i - 16] as number);
	const pad = padded[padded.length - 1] as number;
	if (pad < 1 || pad > 16) return null;
	for (let i = padded.length - pad; i < padded.length; i++) if (padded[i] !== pad) return null;
	return padded.toString('utf8', 0, padded.length - pad);
}

function openGcm(key: DerivedKey, aad: Buffer, iv: Buffer, ct: Buffer, tag: Buffer): string | null {
	if (key.key.length !== 32 || iv.length !== 12 || tag.length !== 16) return null;
	try {
		const decipher = createDecipheriv('aes-256-gcm', key.cipherKey, iv);
		decipher.setAAD(aad);
		decipher.setAuthTag(tag);
		return Buffer.concat([decipher.update(ct), decipher.final()]).toString('utf8');
	} catch {
		return null;
	}
}

/**
 * RFC 7518 §5.2.2.1: HMAC-SHA-512 over AAD ‖ IV ‖ ciphertext ‖ AL, truncated to 32 bytes. HMAC
 * as RFC 2104 defines it, H(K ⊕ opad ‖ H(K ⊕ ipad ‖ m)), on two one-shot hashes: an `Hmac`
 * object (key import, context, four updates) costs about twice as much per session read.
 */
function cbcTag(pads: HmacPads, aad: Buffer, iv: Buffer, ciphertext: Buffer, al = aadLength(aad)): Buffer {
	const inner = hash('sha512', Buffer.concat([pads.inner, aad, iv, ciphertext, al]), 'buffer') as unknown as Buffer;
	const outer = hash('sha512', Buffer.concat([pads.outer, inner]), 'buffer') as unknown as Buffer;
	return outer.subarray(0, 32);
}

/** AL: the AAD's length in bits, as a 64-bit big-endian integer. */
function aadLength(aad: Buffer): Buffer {
	const al = Buffer.alloc(8);
	al.writeBigUInt64BE(BigInt(aad.length * 8));
	return al;
}

function b64u(value: string | Buffer): string {
	return Buffer.from(value).toString('base64url');
}
