import { randomUUID } from '../../crypto/index.js';
import { current, need } from '../../adapter.js';
import { type AuthContext, actionUrl } from '../../context.js';
import { Verification } from '../../errors.js';
import type { Identity } from '../../login.js';
import { confirmSignInPage } from '../../pages/index.js';
import type { RequestInternal, ResponseInternal } from '../../types/internal.js';
import type { VerificationToken } from '../../types/models.js';
import type { EmailConfig } from '../../types/provider.js';
import { clearPendingCode } from '../code/cookie.js';
import { MAX_TOKEN_LENGTH, storedForms } from './tokens.js';

/** The token and address of a link (Auth.js's shape: `?callbackUrl=…&token=…&email=…`). */
function linkParams(source: Record<string, unknown>): { token: string; email: string } {
	const { token, email } = source;
	if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) {
		throw new Verification('The sign-in link has no usable token');
	}
	if (typeof email !== 'string' || email.length === 0 || email.length > 320) {
		throw new Verification('The sign-in link has no usable address');
	}
	return { token, email };
}

/**
 * GET /callback/<email-id>?token=…&email=…: a page asking the user to confirm, whose button posts
 * the link's values back. Nothing is used up by the GET, so a mail scanner that fetches every link
 * burns nothing; the sign-in is the POST, which carries the CSRF token the page holds.
 */
export function confirmation(req: RequestInternal, ctx: AuthContext, provider: EmailConfig): Promise<ResponseInternal> {
	const { token, email } = linkParams(req.query);
	const callbackUrl = typeof req.query.callbackUrl === 'string' && req.query.callbackUrl.length <= 2048 ? req.query.callbackUrl : undefined;
	return confirmSignInPage(ctx, { action: actionUrl(ctx, `callback/${provider.id}`), email, token, callbackUrl });
}

/**
 * POST /callback/<email-id> with the link's `token` and `email`: the stored token is used up
 * (identifier and hash must both match, once), and must not have expired. Anything else is
 * `Verification`, whatever the reason.
 */
export async function verifyLink(req: RequestInternal, ctx: AuthContext, provider: EmailConfig): Promise<Identity> {
	const { token, email } = linkParams(req.body);
	const store = need(ctx.options.adapter ?? {}, 'useVerificationToken');
	let found: VerificationToken | null = null;
	for (const hash of await storedForms(ctx, provider, token)) {
		found = await store.useVerificationToken({ identifier: email, token: hash });
		if (found) break;
	}
	if (!found) throw new Verification('The sign-in link is unknown or was used already');
	ctx.pendingCookies.push(...clearPendingCode(ctx, req.cookies));
	return emailIdentity(provider, usable(found, email));
}

/** The address of a stored token that is the one asked for and still current. */
export function usable(found: VerificationToken, email: string): string {
	if (found.identifier !== email) throw new Verification('The stored token names another address');
	if (!current(found)) throw new Verification('The sign-in link has expired');
	return found.identifier;
}

/** What an email sign-in proves: the owner of this address, through this provider. */
export function emailIdentity(provider: EmailConfig, email: string): Identity {
	return {
		user: { id: randomUUID(), email },
		account: { type: 'email', provider: provider.id, providerAccountId: email }
	};
}
