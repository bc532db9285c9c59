/**
 * Credential ids and keys as the adapter stores them: standard base64 (with padding), as Auth.js
 * stores them; the browser and SimpleWebAuthn speak base64url.
 */
export function base64urlToBase64(value: string): string {
	return Buffer.from(value, 'base64url').toString('base64');
}

export function base64ToBase64url(value: string): string {
	return Buffer.from(value, 'base64').toString('base64url');
}

export function bytesToBase64(bytes: Uint8Array): string {
	return Buffer.from(bytes).toString('base64');
}

export function base64ToBytes(value: string): Uint8Array<ArrayBuffer> {
	const buffer = Buffer.from(value, 'base64');
	const bytes = new Uint8Array(new ArrayBuffer(buffer.byteLength));
	bytes.set(buffer);
	return bytes;
}

/** Is `value` base64url (no padding), the form a browser's credential id takes? */
export function isBase64url(value: unknown, maxLength = 4096): value is string {
	return typeof value === 'string' && value.length > 0 && value.length <= maxLength && /^[A-Za-z0-9_-]+$/.test(value);
}
