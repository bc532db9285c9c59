/**
 * One-time codes of emailed links (an email sign-in's, a new password account's confirmation):
 * the code is derived from the link's stored hash (itself a function of the token), so the link
 * and the code are one secret, used once. Every value carries a label naming its kind and the
 * provider in what is hashed, so a code or ticket of one kind never passes as another's.
 */
import { hex, hmacSha256 } from '../../crypto/index.js';

/** How many digits a code has: 10^8 values, of which an attacker may try {@link CODE_ATTEMPTS}. */
export const CODE_DIGITS = 8;
/** Wrong codes tolerated per link before the code stops working (the link itself still does). */
export const CODE_ATTEMPTS = 5;

/**
 * Whose codes: `key` the secret they are derived under, `label` their kind (`email-code` for an
 * email sign-in), `providerId` the provider whose links they are.
 */
export interface CodeScope {
	key: string;
	label: string;
	providerId: string;
}

/** Eight decimal digits from an HMAC under the secret of (label, provider, the link's hash). */
export async function codeOf(scope: CodeScope, hash: string): Promise<string> {
	const digest = await hmacSha256(scope.key)([`kitauth/${scope.label}`, scope.providerId, hash].join('\u0000'));
	// 64 bits modulo 10^8: the bias is below 10^-10.
	const first64 = new DataView(digest.buffer, digest.byteOffset, digest.byteLength).getBigUint64(0);
	return (first64 % 10n ** BigInt(CODE_DIGITS)).toString().padStart(CODE_DIGITS, '0');
}

/**
 * The attempt tickets of a link's code, stored beside its token: attempt `n` may compare a code
 * only after consuming ticket `n`, and a wrong code leaves ticket `n + 1` (up to
 * {@link CODE_ATTEMPTS}). So the budget lives in the store, where replaying an old cookie cannot
 * refill it, and parallel attempts cannot share one ticket (`useVerificationToken` is atomic).
 * The identifier is never an address, and the token is bound to the link, the kind, the provider and `n`.
 */
export async function attemptTicket(scope: CodeScope, hash: string, attempt: number): Promise<{ identifier: string; token: string }> {
	const message = [`kitauth/${scope.label}-attempt`, scope.providerId, String(attempt), hash].join('\u0000');
	return { identifier: `kitauth:${scope.label}:${scope.providerId}`, token: hex(await hmacSha256(scope.key)(message)) };
}

/** A typed code without its spaces and dashes, if it has a code's shape; else undefined (nothing to compare). */
export function typedCode(value: unknown): string | undefined {
	if (typeof value !== 'string' || value.length > 64) return undefined;
	const typed = value.replace(/[\s-]/g, '');
	return new RegExp(`^\\d{${CODE_DIGITS}}$`).test(typed) ? typed : undefined;
}

/** `12345678` → `1234 5678`, easier to read and type (in a message). */
export function groupedCode(code: string): string {
	return code.length === 8 ? `${code.slice(0, 4)} ${code.slice(4)}` : code;
}
