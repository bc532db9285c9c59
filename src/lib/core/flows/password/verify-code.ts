/**
 * A new account's address confirmed by the one-time code of its confirmation message, besides its
 * link (`verify-email.ts`): the code is derived from the link's stored hash (`../code/derive.ts`),
 * so link and code are one secret, used once. Sign-up and resend seal the pending code in the
 * browser that asked (set whether the address was free or not), whose "check your email" page
 * takes the code and posts it to /verify-email/<id>. Each guess consumes an attempt ticket from
 * the store first (at most CODE_ATTEMPTS per code, however replayed or raced) and is counted by
 * the limiter (`email-code`) per client address and per address; a right code uses the link up.
 */
import { need } from '../../adapter.js';
import { type AuthContext, actionUrl, pageUrl } from '../../context.js';
import { Verification } from '../../errors.js';
import { limitAttempt } from '../../limit/attempt.js';
import type { Cookie, RequestInternal, ResponseInternal } from '../../types/internal.js';
import { beginCode, clearPendingCode, openPendingCode, type PendingCode, sealPendingCode } from '../code/cookie.js';
import { CODE_ATTEMPTS, type CodeScope, typedCode } from '../code/derive.js';
import { guessCode } from '../code/guess.js';
import { linkIdentifier } from './link-token.js';
import { storeLinkToken, useStoredLink } from './links.js';

/** Why "check your email" asks again: a wrong code (attempts left), or a code that is spent or expired. */
export type ConfirmationCodeError = 'wrong' | 'spent';

/** The codes of a provider's confirmation links: under the newest secret, labelled apart from any other code. */
function confirmationScope(ctx: AuthContext, providerId: string): CodeScope {
	return { key: ctx.options.secrets[0]!, label: 'email-verification-code', providerId };
}

/**
 * Stores a confirmation link's token for `userId` (a random one when the address was taken: it
 * expires unused) with its code's first attempt ticket; the raw token and the code for the
 * message, and the cookie naming the pending code for the browser that asked.
 */
export async function storeConfirmation(
	ctx: AuthContext,
	providerId: string,
	userId: string,
	email: string,
	expires: Date
): Promise<{ token: string; code: string; cookie: Cookie }> {
	const store = need(ctx.options.adapter ?? {}, 'createVerificationToken');
	const { token, hash } = await storeLinkToken(ctx, 'email-verification', providerId, userId, expires);
	const linkMaxAge = Math.round((expires.getTime() - Date.now()) / 1000);
	const { code, ticket, cookie } = await beginCode(ctx, confirmationScope(ctx, providerId), { email, hash, user: userId }, linkMaxAge);
	await store.createVerificationToken(ticket);
	return { token, code, cookie };
}

/** The pending code of this browser for the provider's confirmation, if any (`user` set: not an email sign-in's). */
export async function pendingConfirmation(ctx: AuthContext, cookies: Record<string, string>, providerId: string): Promise<(PendingCode & { user: string }) | undefined> {
	const pending = await openPendingCode(ctx, cookies, providerId);
	return pending?.user === undefined ? undefined : { ...pending, user: pending.user };
}

/** The attempts a pending code has left (the store may have fewer: it decides). */
export const attemptsLeft = (pending: PendingCode): number => Math.max(CODE_ATTEMPTS - pending.attempt, 0);

/** POST /verify-email/<id> with `code`: the address of the pending code's user confirmed, or "check your email" again. */
export async function verifyEmailCode(req: RequestInternal, ctx: AuthContext, providerId: string): Promise<ResponseInternal> {
	const store = need(ctx.options.adapter ?? {}, 'useVerificationToken', 'createVerificationToken');
	const pending = await pendingConfirmation(ctx, req.cookies, providerId);
	if (!pending) return askAgain(ctx, providerId, 'spent', clearPendingCode(ctx, req.cookies));
	const typed = typedCode(req.body.code);
	// Not even the shape of a code: nothing to compare, so no attempt is spent on it.
	if (!typed) return askAgain(ctx, providerId, 'wrong');
	const succeeded = await limitAttempt(ctx, req, 'email-code', pending.email);
	const guess = await guessCode(store, confirmationScope(ctx, providerId), pending, typed);
	if (guess.result === 'wrong') return askAgain(ctx, providerId, 'wrong', [await sealPendingCode(ctx, providerId, { ...pending, attempt: guess.next })]);
	const cleared = clearPendingCode(ctx, req.cookies);
	if (guess.result === 'spent') return askAgain(ctx, providerId, 'spent', cleared);
	try {
		await useStoredLink(ctx, linkIdentifier('email-verification', providerId, pending.user), [pending.hash]);
	} catch (error) {
		// The link was used (or expired) meanwhile: its code went with it.
		if (error instanceof Verification) return askAgain(ctx, providerId, 'spent', cleared);
		throw error;
	}
	await markVerified(ctx, pending.user);
	await succeeded();
	return { redirect: pageUrl(ctx, 'signIn'), cookies: cleared };
}

/** Marks the user's address verified (once: event `updateUser`), by its link or its code. */
export async function markVerified(ctx: AuthContext, userId: string): Promise<void> {
	const store = need(ctx.options.adapter ?? {}, 'getUser', 'updateUser');
	const user = await store.getUser(userId);
	if (!user) throw new Verification('The confirmation link names no user');
	if (user.emailVerified) return;
	const updated = await store.updateUser({ id: user.id, emailVerified: new Date() });
	await ctx.options.events.updateUser?.({ user: updated });
}

/** Back to "check your email", which says why (the values are ours, never the input). */
function askAgain(ctx: AuthContext, providerId: string, error: ConfirmationCodeError, cookies: Cookie[] = []): ResponseInternal {
	return { redirect: actionUrl(ctx, `verify-email/${providerId}`, { codeError: error }), cookies };
}
