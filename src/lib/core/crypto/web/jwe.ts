import { base64url, concatBytes, fromBase64url, utf8, utf8Text } from '../encoding.js';
import { checkJweHeader, type HeaderCache, jweEnvelope, plausibleHeader } from '../jwe-header.js';
import type { Awaitable, JweHeader } from '../types.js';
import type { OpenedHeader, WebKey } from './keys.js';

/**
 * Compact JWE with `alg: dir` (RFC 7516/7518) on Web Crypto: A256CBC-HS512 to seal,
 * A256CBC-HS512 or A256GCM to open; the same tokens as `node/jwe.ts` (tests seal on one and open
 * on the other). Asynchronous, as Web Crypto is.
 */

export type { JweHeader };

const subtle = () => globalThis.crypto.subtle;

export async function sealJwe(plaintext: string, key: Awaitable<WebKey>): Promise<string> {
	const { kid, cipherKey, macKey } = await key;
	if (!macKey) throw new TypeError('A256CBC-HS512 needs a 64-byte key');
	const header = base64url(utf8(JSON.stringify({ alg: 'dir', enc: 'A256CBC-HS512', kid })));
	const aad = utf8(header);
	const iv = globalThis.crypto.getRandomValues(new Uint8Array(16));
	// Web Crypto's AES-CBC pads with PKCS#7, as RFC 7518 §5.2.2.1 asks.
	const ciphertext = new Uint8Array(await subtle().encrypt({ name: 'AES-CBC', iv }, cipherKey, utf8(plaintext)));
	const tag = await cbcTag(macKey, aad, iv, ciphertext, aadLength(aad));
	return `${header}..${base64url(iv)}.${base64url(ciphertext)}.${base64url(tag)}`;
}

function openHeader(raw: string): OpenedHeader | null {
	if (!plausibleHeader(raw)) return null;
	const bytes = fromBase64url(raw);
	if (!bytes) return null;
	let header: unknown;
	try {
		header = JSON.parse(utf8Text(bytes));
	} catch {
		return null;
	}
	const checked = checkJweHeader(header);
	if (!checked) return null;
	const aad = utf8(raw);
	return { header: checked, aad, al: aadLength(aad) };
}

/**
 * Opens a token with the first key (chosen from its header's `enc` and `kid`) that authenticates
 * it; `null` for anything malformed, forged or sealed with an unknown key.
 */
export async function openJwe(
	token: string,
	selectKeys: (header: JweHeader) => AsyncIterable<WebKey> | Iterable<Awaitable<WebKey>>,
	headers?: HeaderCache<OpenedHeader>
): Promise<string | null> {
	const envelope = jweEnvelope(token, headers, openHeader);
	if (!envelope) return null;
	const { rawHeader, opened, cached } = envelope;
	const iv = fromBase64url(envelope.iv);
	const ciphertext = fromBase64url(envelope.ciphertext);
	const tag = fromBase64url(envelope.tag);
	if (!iv || !ciphertext || !tag) return null;
	for await (const key of selectKeys(opened.header)) {
		const plaintext =
			opened.header.enc === 'A256CBC-HS512'
				? await openCbc(key, opened, iv, ciphertext, tag)
				: await openGcm(key, opened.aad, iv, ciphertext, tag);
		if (plaintext !== null) {
			if (!cached) headers?.remember(rawHeader, opened);
			return plaintext;
		}
	}
	return null;
}

async function openCbc(
	key: WebKey,
	{ aad, al }: OpenedHeader,
	iv: Uint8Array<ArrayBuffer>,
	ct: Uint8Array<ArrayBuffer>,
	tag: Uint8Array
): Promise<string | null> {
	const { macKey, cipherKey } = key;
	if (key.enc !== 'A256CBC-HS512' || !macKey || iv.length !== 16 || tag.length !== 32 || ct.length === 0 || ct.length % 16 !== 0) {
		return null;
	}
	const expected = await cbcTag(macKey, aad, iv, ct, al);
	if (!equalBytes(expected, tag)) return null;
	// The tag was verified first, so a padding failure here is no oracle.
	try {
		return utf8Text(new Uint8Array(await subtle().decrypt({ name: 'AES-CBC', iv }, cipherKey, ct)));
	} catch {
		return null;
	}
}

async function openGcm(
	key: WebKey,
	aad: Uint8Array<ArrayBuffer>,
	iv: Uint8Array<ArrayBuffer>,
	ct: Uint8Array,
	tag: Uint8Array
): Promise<string | null> {
	if (key.enc !== 'A256GCM' || iv.length !== 12 || tag.length !== 16) return null;
	try {
		const sealed = concatBytes(ct, tag);
		return utf8Text(new Uint8Array(await subtle().decrypt({ name: 'AES-GCM', iv, additionalData: aad, tagLength: 128 }, key.cipherKey, sealed)));
	} catch {
		return null;
	}
}

/** RFC 7518 §5.2.2.1: HMAC-SHA-512 over AAD ‖ IV ‖ ciphertext ‖ AL, truncated to 32 bytes. */
async function cbcTag(
	macKey: CryptoKey,
	aad: Uint8Array,
	iv: Uint8Array,
	ciphertext: Uint8Array,
	al: Uint8Array
): Promise<Uint8Array<ArrayBuffer>> {
	const mac = await subtle().sign('HMAC', macKey, concatBytes(aad, iv, ciphertext, al));
	return new Uint8Array(mac, 0, 32);
}

/** AL: the AAD's length in bits, as a 64-bit big-endian integer. */
function aadLength(aad: Uint8Array): Uint8Array<ArrayBuffer> {
	const al = new Uint8Array(8);
	new DataView(al.buffer).setBigUint64(0, BigInt(aad.length * 8));
	return al;
}

/** Constant-time comparison of two byte strings (their lengths are not secret). */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
	if (a.length !== b.length) return false;
	let diff = 0;
	for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
	return diff === 0;
}
