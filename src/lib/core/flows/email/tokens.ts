import { hex, hmacSha256, randomBytes, sha256 } from '../../crypto/index.js';
import type { AuthContext } from '../../context.js';
import { EmailSignInError } from '../../errors.js';
import type { EmailConfig } from '../../types/provider.js';

/**
 * The secrets of an email link. The raw token exists only in the message (and its link); the
 * store holds a keyed hash of it, and every other value derived from it carries its purpose and
 * provider in what is hashed, so no token of another kind (a CSRF token, a state, a challenge,
 * a session token) can ever match one of these, nor one of these pass as anything else.
 */

/** Longest token accepted from a link (our own are 64 hex characters). */
export const MAX_TOKEN_LENGTH = 512;

/** The token of a new link: the provider's `generateVerificationToken()`, else 256 random bits. */
export async function newToken(provider: EmailConfig): Promise<string> {
	if (!provider.generateVerificationToken) return hex(randomBytes(32));
	const token = await provider.generateVerificationToken();
	if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) {
		throw new EmailSignInError(`generateVerificationToken() of "${provider.id}" returned no usable token`);
	}
	return token;
}

/** The keys tokens are hashed with: the provider's own secret, else the configuration's (newest first). */
function keys(ctx: AuthContext, provider: EmailConfig): readonly string[] {
	return provider.secret ? [provider.secret] : ctx.options.secrets;
}

async function hmac(key: string, ...parts: string[]): Promise<string> {
	return hex(await hmacSha256(key)(parts.join('\u0000')));
}

/**
 * What the store keeps for a link kitauth sends: HMAC-SHA256 under the secret of
 * (purpose, provider id, token), so the link signs in through that provider only.
 */
export function linkHash(ctx: AuthContext, provider: EmailConfig, token: string): Promise<string> {
	return hmac(keys(ctx, provider)[0]!, 'kitauth/email-link', provider.id, token);
}

/**
 * Every stored form a link's token may have, newest first: kitauth's own under each secret (a
 * rotated secret keeps pending links working), then Auth.js's `sha256(token + secret)` (the
 * secret as Auth.js writes it, a list comma-joined), so links Auth.js sent before a switch
 * still sign in. Nothing kitauth stores has the Auth.js form.
 */
export async function storedForms(ctx: AuthContext, provider: EmailConfig, token: string): Promise<string[]> {
	const own = await Promise.all(keys(ctx, provider).map((key) => hmac(key, 'kitauth/email-link', provider.id, token)));
	const authjs = await sha256(`${token}${provider.secret ?? ctx.options.secrets.join(',')}`, 'hex');
	return [...new Set([...own, authjs])];
}

/** How many digits a code has: 10^8 values, of which an attacker may try {@link CODE_ATTEMPTS}. */
export const CODE_DIGITS = 8;
/** Wrong codes tolerated per link before the code stops working (the link itself still does). */
export const CODE_ATTEMPTS = 5;

/**
 * The one-time code of a link, derived from its stored hash (itself a function of the token): the
 * link and the code are one secret. Eight decimal digits from an HMAC under the secret.
 */
export async function codeOf(ctx: AuthContext, provider: EmailConfig, hash: string): Promise<string> {
	const digest = await hmacSha256(keys(ctx, provider)[0]!)(['kitauth/email-code', provider.id, hash].join('\u0000'));
	// 64 bits modulo 10^8: the bias is below 10^-10.
	const first64 = new DataView(digest.buffer, digest.byteOffset, digest.byteLength).getBigUint64(0);
	return (first64 % 10n ** BigInt(CODE_DIGITS)).toString().padStart(CODE_DIGITS, '0');
}

/**
 * The attempt tickets of a link's code, stored beside its token: attempt `n` may compare a code
 * only after consuming ticket `n`, and a wrong code leaves ticket `n + 1` (up to
 * {@link CODE_ATTEMPTS}). So the budget lives in the store, where replaying an old cookie cannot
 * refill it, and parallel attempts cannot share one ticket (`useVerificationToken` is atomic).
 * The identifier is never an address, and the token is bound to the link, the provider and `n`.
 */
export async function attemptTicket(ctx: AuthContext, provider: EmailConfig, hash: string, attempt: number): Promise<{ identifier: string; token: string }> {
	return {
		identifier: `kitauth:email-code:${provider.id}`,
		token: await hmac(keys(ctx, provider)[0]!, 'kitauth/email-code-attempt', provider.id, String(attempt), hash)
	};
}
