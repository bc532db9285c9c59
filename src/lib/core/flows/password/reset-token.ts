/**
 * The secret of a password reset link. The raw token exists only in the message; the store keeps
 * an HMAC under the secret of (purpose, provider, user, token) beside an identifier naming the
 * provider and the user, so a token works once, for that user, through that provider, for a
 * reset and nothing else (no email sign-in token, CSRF token or session token can pass as one).
 */
import { hex, hmacSha256, randomBytes } from '../../crypto/index.js';
import type { AuthContext } from '../../context.js';

/** Longest token or user id looked at from a link (ours: 64 hex characters, a UUID). */
export const MAX_LINK_VALUE = 256;

export function newResetToken(): string {
	return hex(randomBytes(32));
}

/** Where a user's reset tokens are stored (`VerificationToken.identifier`): never an address. */
export function resetIdentifier(providerId: string, userId: string): string {
	return `kitauth:password-reset:${providerId}:${userId}`;
}

/** The stored form of a token under the newest secret. */
export async function resetHash(ctx: AuthContext, providerId: string, userId: string, token: string): Promise<string> {
	return (await resetHashes(ctx, providerId, userId, token))[0]!;
}

/** The stored forms of a token under each secret, newest first (a rotated secret keeps links working). */
export function resetHashes(ctx: AuthContext, providerId: string, userId: string, token: string): Promise<string[]> {
	const message = ['kitauth/password-reset', providerId, userId, token].join('\u0000');
	return Promise.all(ctx.options.secrets.map(async (secret) => hex(await hmacSha256(secret)(message))));
}
