/**
 * TOTP codes as an authenticator app computes them, for tests that play the user's phone: the
 * secret as the set-up shows it (base32), the code of the current step or one either side.
 */
import { generateHOTP } from '@oslojs/otp';

export function base32Decode(text: string): Uint8Array {
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
	const out: number[] = [];
	let buffer = 0;
	let bits = 0;
	for (const char of text.replace(/[\s=]/g, '').toUpperCase()) {
		const value = alphabet.indexOf(char);
		if (value < 0) throw new Error(`not base32: ${char}`);
		buffer = (buffer << 5) | value;
		bits += 5;
		if (bits >= 8) {
			out.push((buffer >>> (bits - 8)) & 0xff);
			bits -= 8;
		}
	}
	return new Uint8Array(out);
}

/** The code an app shows now (`offset` steps of 30 s later or earlier). */
export function totpCode(secret: string, offset = 0, nowMs = Date.now()): string {
	const step = Math.floor(nowMs / 1000 / 30) + offset;
	return generateHOTP(base32Decode(secret), BigInt(step), 6);
}
