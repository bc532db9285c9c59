import { base64, base64url, fromBase64, fromBase64url } from '../../crypto/index.js';

/**
 * Credential ids and keys as the adapter stores them: standard base64 (with padding), as Auth.js
 * stores them; the browser and SimpleWebAuthn speak base64url.
 */
export function base64urlToBase64(value: string): string {
	return base64(fromBase64url(value) ?? new Uint8Array());
}

export function base64ToBase64url(value: string): string {
	return base64url(fromBase64(value) ?? new Uint8Array());
}

export function bytesToBase64(bytes: Uint8Array): string {
	return base64(bytes);
}

export function base64ToBytes(value: string): Uint8Array<ArrayBuffer> {
	return fromBase64(value) ?? new Uint8Array();
}

/** Is `value` base64url (no padding), the form a browser's credential id takes? */
export function isBase64url(value: unknown, maxLength = 4096): value is string {
	return typeof value === 'string' && value.length > 0 && value.length <= maxLength && /^[A-Za-z0-9_-]+$/.test(value);
}
