import { hex, hmacSha256, randomBytes, sha256 } from '../../crypto/index.js';
import type { AuthContext } from '../../context.js';
import { EmailSignInError } from '../../errors.js';
import type { EmailConfig } from '../../types/provider.js';
import type { CodeScope } from '../code/derive.js';

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

/** The one-time codes of the provider's links (`../code/derive.ts`): under its secret, labelled `email-code`. */
export function codeScope(ctx: AuthContext, provider: EmailConfig): CodeScope {
	return { key: keys(ctx, provider)[0]!, label: 'email-code', providerId: provider.id };
}
