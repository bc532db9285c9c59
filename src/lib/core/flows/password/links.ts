/**
 * Storing and using up the `Password()` provider's emailed links (`link-token.ts` says what is
 * stored): the same for a password reset and an address confirmation.
 */
import { current, need } from '../../adapter.js';
import type { AuthContext } from '../../context.js';
import { Verification } from '../../errors.js';
import type { VerificationToken } from '../../types/models.js';
import type { PasswordMailLanguage } from '../../types/password.js';
import { type LinkPurpose, linkHashes, linkIdentifier, MAX_LINK_VALUE, newLinkToken } from './link-token.js';

/**
 * Stores a new token of `purpose` for the user (and `bound`, see `linkHashes`): the raw token, for
 * the link, and the hash stored (what a confirmation's one-time code is derived from).
 */
export async function storeLinkToken(
	ctx: AuthContext,
	purpose: LinkPurpose,
	providerId: string,
	userId: string,
	expires: Date,
	bound?: string
): Promise<{ token: string; hash: string }> {
	const store = need(ctx.options.adapter ?? {}, 'createVerificationToken');
	const token = newLinkToken();
	const [hash] = await linkHashes(ctx, purpose, providerId, userId, token, bound);
	await store.createVerificationToken({ identifier: linkIdentifier(purpose, providerId, userId), token: hash!, expires });
	return { token, hash: hash! };
}

/** A link's user and token, bounded; `Verification` when unusable. */
export function linkValues(source: Record<string, unknown>): { user: string; token: string } {
	const { user, token } = source;
	const usable = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= MAX_LINK_VALUE;
	if (!usable(user) || !usable(token)) throw new Verification('The link has no usable user or token');
	return { user, token };
}

/**
 * Uses the link's token up, in one conditional statement (`useVerificationToken`: of concurrent
 * uses one wins), and checks it has not expired. `Verification` for anything else.
 */
export async function useLinkToken(ctx: AuthContext, purpose: LinkPurpose, providerId: string, link: { user: string; token: string }, bound?: string): Promise<void> {
	await useStoredLink(ctx, linkIdentifier(purpose, providerId, link.user), await linkHashes(ctx, purpose, providerId, link.user, link.token, bound));
}

/** …by its stored forms (`hashes`, as `linkHashes` gives them, or the one a pending code names). */
export async function useStoredLink(ctx: AuthContext, identifier: string, hashes: string[]): Promise<void> {
	const store = need(ctx.options.adapter ?? {}, 'useVerificationToken');
	let found: VerificationToken | null = null;
	for (const hash of hashes) {
		found = await store.useVerificationToken({ identifier, token: hash });
		if (found) break;
	}
	if (!found) throw new Verification('The link is unknown or was used already');
	if (!current(found)) throw new Verification('The link has expired');
}

/**
 * Sends a message after the answer, so whether one goes out (a known address or not) does not
 * show in the answer's time. A failure is logged without its `secrets` (the link, a code: the user
 * may ask again). Where the platform stops a request's work once it is answered (Cloudflare
 * Workers), the promise is handed to its `waitUntil`.
 */
export function sendAfterAnswer(ctx: AuthContext, what: string, send: () => unknown, secrets: string | readonly string[]): void {
	const hidden = (typeof secrets === 'string' ? [secrets] : secrets).filter((secret) => secret !== '');
	const sending = Promise.resolve()
		.then(send)
		.catch((error: unknown) => {
			const message = error instanceof Error ? hidden.reduce((text, secret) => text.split(secret).join('[redacted]'), error.message) : 'unknown error';
			ctx.options.logger.error(new Error(`Sending ${what} failed: ${message}`));
		});
	ctx.waitUntil?.(sending);
}

/** The language of a message: the request's that asked for it, with the app's messages. */
export function mailLanguage(ctx: AuthContext): PasswordMailLanguage {
	const messages = ctx.options.i18n.messages;
	return { locale: ctx.i18n.locale, ...(messages ? { messages } : {}) };
}
