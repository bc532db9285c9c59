/**
 * Byte encodings without `Buffer` (which runtimes other than Node lack): base64url, hex and
 * UTF-8 for the crypto module and for the few places in the core that decode a token part.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function utf8(text: string): Uint8Array<ArrayBuffer> {
	return encoder.encode(text);
}

/** UTF-8 to text; invalid sequences become U+FFFD, as `Buffer#toString('utf8')` does. */
export function utf8Text(bytes: Uint8Array): string {
	return decoder.decode(bytes);
}

export function hex(bytes: Uint8Array): string {
	let out = '';
	for (let i = 0; i < bytes.length; i++) out += (bytes[i] as number).toString(16).padStart(2, '0');
	return out;
}

/** Standard base64, padded (what `Buffer#toString('base64')` gives). */
export function base64(bytes: Uint8Array): string {
	let binary = '';
	for (let i = 0; i < bytes.length; i += 0x8000) {
		binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
	}
	return btoa(binary);
}

export function base64url(bytes: Uint8Array): string {
	return base64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;
const BASE64 = /^[A-Za-z0-9+/]*$/;

function decode(unpadded: string): Uint8Array<ArrayBuffer> | null {
	if (unpadded.length % 4 === 1) return null;
	let binary: string;
	try {
		binary = atob(unpadded);
	} catch {
		return null;
	}
	const bytes = new Uint8Array(binary.length);
	for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
	return bytes;
}

/**
 * base64url (unpadded, or padded) to bytes; `null` when it is not base64url. Trailing bits of
 * the last character are ignored, as `Buffer.from(text, 'base64url')` ignores them.
 */
export function fromBase64url(text: string): Uint8Array<ArrayBuffer> | null {
	const unpadded = text.replace(/={1,2}$/, '');
	if (!BASE64URL.test(unpadded)) return null;
	return decode(unpadded.replace(/-/g, '+').replace(/_/g, '/'));
}

/**
 * Standard base64 (padded or not) to bytes; `null` when it is not base64. The URL-safe alphabet
 * is accepted too, as `Buffer.from(text, 'base64')` accepts it.
 */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
	const unpadded = text.replace(/={1,2}$/, '').replace(/-/g, '+').replace(/_/g, '/');
	if (!BASE64.test(unpadded)) return null;
	return decode(unpadded);
}

/** base64url to text (UTF-8); `null` when it is not base64url. */
export function fromBase64urlText(text: string): string | null {
	const bytes = fromBase64url(text);
	return bytes && utf8Text(bytes);
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
	let length = 0;
	for (const part of parts) length += part.length;
	const out = new Uint8Array(length);
	let offset = 0;
	for (const part of parts) {
		out.set(part, offset);
		offset += part.length;
	}
	return out;
}
