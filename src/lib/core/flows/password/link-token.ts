/**
 * The secrets of the links the `Password()` provider emails (a password reset, an address
 * confirmation). The raw token exists only in the message; the store keeps an HMAC under the
 * secret of (purpose, provider, user, token) beside an identifier naming the purpose, the provider
 * and the user, so a token works once, for that user, through that provider, for that purpose and
 * nothing else (no email sign-in token, CSRF token or session token can pass as one). An email
 * change's token is bound to the new address too (`bound`), which its link carries.
 */
import { hex, hmacSha256, randomBytes } from '../../crypto/index.js';
import type { AuthContext } from '../../context.js';

/** Longest token or user id looked at from a link (ours: 64 hex characters, a UUID). */
export const MAX_LINK_VALUE = 256;

export type LinkPurpose = 'password-reset' | 'email-verification' | 'email-change';

export function newLinkToken(): string {
	return hex(randomBytes(32));
}

/** Where a user's tokens of a purpose are stored (`VerificationToken.identifier`): never an address. */
export function linkIdentifier(purpose: LinkPurpose, providerId: string, userId: string): string {
	return `kitauth:${purpose}:${providerId}:${userId}`;
}

/**
 * The stored forms of a token under each secret, newest first (a rotated secret keeps links
 * working); `bound`: a value the token is for besides its user (an email change's new address).
 */
export function linkHashes(ctx: AuthContext, purpose: LinkPurpose, providerId: string, userId: string, token: string, bound?: string): Promise<string[]> {
	const message = [`kitauth/${purpose}`, providerId, userId, token, ...(bound === undefined ? [] : [bound])].join('\u0000');
	return Promise.all(ctx.options.secrets.map(async (secret) => hex(await hmacSha256(secret)(message))));
}
