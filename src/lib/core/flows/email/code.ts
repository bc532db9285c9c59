import { need } from '../../adapter.js';
import { type AuthContext, actionUrl, withParams } from '../../context.js';
import { Verification } from '../../errors.js';
import { limitAttempt } from '../../limit/attempt.js';
import type { CallbackOutcome } from '../flow.js';
import type { Cookie, RequestInternal } from '../../types/internal.js';
import type { EmailConfig } from '../../types/provider.js';
import { clearPendingCode, openPendingCode, sealPendingCode } from '../code/cookie.js';
import { typedCode } from '../code/derive.js';
import { guessCode } from '../code/guess.js';
import { emailIdentity, usable } from './link.js';
import { codeScope } from './tokens.js';

/** Why the verify-request page asks again: a wrong code (attempts left), or a code that is spent. */
export type CodeError = 'wrong' | 'spent';

/**
 * POST /callback/<email-id> with `code`: the one-time code typed on the verify-request page of the
 * browser that asked for the link (its sealed cookie names the address and the link). Each
 * comparison first consumes one attempt ticket from the store (`guessCode`), so at most CODE_ATTEMPTS
 * codes are ever compared per link, however the cookie is replayed or the requests interleaved;
 * a right code then uses up the link itself (the link and the code are one secret, used once).
 */
export async function verifyCode(req: RequestInternal, ctx: AuthContext, provider: EmailConfig): Promise<CallbackOutcome> {
	const store = need(ctx.options.adapter ?? {}, 'useVerificationToken', 'createVerificationToken');
	const pending = provider.code ? await openPendingCode(ctx, req.cookies, provider.id) : undefined;
	if (!pending) return askAgain(ctx, provider, 'spent', clearPendingCode(ctx, req.cookies));
	const typed = typedCode(req.body.code);
	// Not even the shape of a code: nothing to compare, so no attempt is spent on it.
	if (!typed) return askAgain(ctx, provider, 'wrong');

	// The store's tickets bound the guesses per link; the rate limiter (`email-code`) bounds them
	// per client address and per address across links.
	const succeeded = await limitAttempt(ctx, req, 'email-code', pending.email);
	const guess = await guessCode(store, codeScope(ctx, provider), pending, typed);
	if (guess.result === 'spent') return askAgain(ctx, provider, 'spent', clearPendingCode(ctx, req.cookies));
	if (guess.result === 'wrong') return askAgain(ctx, provider, 'wrong', [await sealPendingCode(ctx, provider.id, { ...pending, attempt: guess.next })]);
	const found = await store.useVerificationToken({ identifier: pending.email, token: pending.hash });
	ctx.pendingCookies.push(...clearPendingCode(ctx, req.cookies));
	if (!found) throw new Verification('The code is right but its link was used already');
	const identity = emailIdentity(provider, usable(found, pending.email));
	await succeeded();
	return { identity };
}

/** Back to the verify-request page, which says why (the values are ours, never the input). */
function askAgain(ctx: AuthContext, provider: EmailConfig, error: CodeError, cookies: Cookie[] = []): CallbackOutcome {
	const redirect = withParams(actionUrl(ctx, 'verify-request'), { provider: provider.id, type: 'email', codeError: error });
	return { response: { redirect, cookies } };
}
