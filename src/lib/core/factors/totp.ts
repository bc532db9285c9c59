/**
 * TOTP (RFC 6238) as authenticator apps compute it: HMAC-SHA-1, 6 digits, 30-second steps from the
 * Unix epoch (T0 = 0), over a 20-byte random secret (RFC 4226 §4 R6 asks for at least 128 bits,
 * recommends 160). The HOTP arithmetic (RFC 4226 §5.3, dynamic truncation) is `@oslojs/otp`'s;
 * which step a code belongs to, and that each step is accepted once, is decided here and in the
 * store (`useTwoFactorStep`).
 */
import { createTOTPKeyURI, generateHOTP } from '@oslojs/otp';
import { randomBytes, timingSafeEqual } from '../crypto/index.js';

/** RFC 6238 §4.1 X: the time step, in seconds. */
export const TOTP_PERIOD = 30;
/** Digits of a code (RFC 4226 §5.3: at least 6). */
export const TOTP_DIGITS = 6;
/**
 * Steps either side of the current one that are accepted (RFC 6238 §5.2 recommends at most one
 * step of delay): a code typed as it rolled over, or a phone's clock a little off.
 */
export const TOTP_WINDOW = 1;
/** Bytes of a new secret: 160 bits, RFC 4226's recommendation (and what apps expect). */
const SECRET_BYTES = 20;

/** A new random TOTP secret. */
export function newTotpSecret(): Uint8Array {
	return randomBytes(SECRET_BYTES);
}

/** RFC 6238 §4.2: the time step of a moment, `floor((unixSeconds - T0) / X)`. */
export function timeStep(unixMs: number): number {
	return Math.floor(unixMs / 1000 / TOTP_PERIOD);
}

/** The code of one time step (RFC 6238 §4.2: HOTP with the step as the counter). */
export function totpAt(secret: Uint8Array, step: number): string {
	return generateHOTP(secret, BigInt(step), TOTP_DIGITS);
}

/** What a typed code may look like: digits, with spaces or dashes an app shows between groups. */
export function normalizeTotp(input: unknown): string | undefined {
	if (typeof input !== 'string' || input.length > 32) return undefined;
	const digits = input.replace(/[\s-]/g, '');
	return /^\d{6}$/.test(digits) ? digits : undefined;
}

/**
 * The time step whose code `code` is, among the current one and `TOTP_WINDOW` either side
 * (newest first, so a code valid for two steps is recorded at the later); `undefined` when it is
 * none of them. Every candidate is computed and compared in constant time.
 */
export function matchTotp(secret: Uint8Array, code: string, nowMs: number): number | undefined {
	const now = timeStep(nowMs);
	let matched: number | undefined;
	for (let step = now + TOTP_WINDOW; step >= now - TOTP_WINDOW; step--) {
		if (step < 0) continue;
		if (timingSafeEqual(totpAt(secret, step), code) && matched === undefined) matched = step;
	}
	return matched;
}

/**
 * The `otpauth://totp/` URI an app reads from a QR code (Google Authenticator's key URI format:
 * issuer prefix and parameter, base32 secret without padding, SHA1, 6 digits, period 30).
 */
export function totpUri(issuer: string, accountName: string, secret: Uint8Array): string {
	return createTOTPKeyURI(issuer, accountName, secret, TOTP_PERIOD, TOTP_DIGITS);
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding: the secret as a person types it into an app. */
export function base32(bytes: Uint8Array): string {
	let out = '';
	let buffer = 0;
	let bits = 0;
	for (const byte of bytes) {
		buffer = (buffer << 8) | byte;
		bits += 8;
		while (bits >= 5) {
			out += BASE32[(buffer >>> (bits - 5)) & 31];
			bits -= 5;
		}
	}
	if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31];
	return out;
}
