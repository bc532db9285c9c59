import { randomUUID } from '../../crypto/index.js';
import { need } from '../../adapter.js';
import { type AuthContext, actionUrl, withParams } from '../../context.js';
import { limitAttempt } from '../../limit/attempt.js';
import { askSignInCallback } from '../../login.js';
import type { Adapter } from '../../types/adapter.js';
import type { Cookie, RequestInternal, ResponseInternal } from '../../types/internal.js';
import type { Account, VerificationToken } from '../../types/models.js';
import type { EmailConfig } from '../../types/provider.js';
import { beginCode } from '../code/cookie.js';
import { requestedAddress } from './normalize.js';
import { sendVerification } from './send.js';
import { codeScope, linkHash, newToken } from './tokens.js';

/** A link's default lifetime: 24 hours, as in Auth.js. */
export const DEFAULT_MAX_AGE = 24 * 60 * 60;

/**
 * POST /signin/<email-id>: the address is normalized, the request counted by the rate limiter
 * (`email-request`), the `signIn` callback asked
 * (`email: { verificationRequest: true }`), a token made and stored hashed, the message sent, and
 * the browser sent to the verify-request page.
 *
 * Known and unknown addresses take the same path (one `getUserByEmail`, the same writes, a message
 * either way, the same answer), so the answer does not tell whether someone has an account. The
 * token is stored before the message goes out (a fast click never finds it missing) and deleted
 * again when sending fails: no link stays valid that was never sent.
 */
export async function startEmailSignIn(
	req: RequestInternal,
	ctx: AuthContext,
	provider: EmailConfig,
	callbackUrl: string
): Promise<ResponseInternal> {
	const store = need(ctx.options.adapter ?? {}, 'getUserByEmail', 'createVerificationToken', 'useVerificationToken');
	const email = requestedAddress(provider, req.body.email);
	// Per address and per recipient (no mail-bombing), the same for known and unknown addresses.
	await limitAttempt(ctx, req, 'email-request', email);
	const user = (await store.getUserByEmail(email)) ?? { id: randomUUID(), email, emailVerified: null };
	const account: Account = { type: 'email', provider: provider.id, providerAccountId: email, userId: user.id };
	const elsewhere = await askSignInCallback(ctx, { user, account, email: { verificationRequest: true } });
	if (elsewhere) return { redirect: elsewhere };

	const token = await newToken(provider);
	const maxAge = provider.maxAge ?? DEFAULT_MAX_AGE;
	const expires = new Date(Date.now() + maxAge * 1000);
	const url = withParams(actionUrl(ctx, `callback/${provider.id}`), { callbackUrl, token, email });
	const hash = await linkHash(ctx, provider, token);
	const stored: VerificationToken[] = [{ identifier: email, token: hash, expires }];
	const cookies: Cookie[] = [];
	let code: string | undefined;
	if (provider.code) {
		const pending = await beginCode(ctx, codeScope(ctx, provider), { email, hash }, maxAge);
		code = pending.code;
		stored.push(pending.ticket);
		cookies.push(pending.cookie);
	}
	for (const row of stored) await store.createVerificationToken(row);
	try {
		await sendVerification({
			identifier: email,
			url,
			expires,
			provider,
			token,
			theme: ctx.options.theme,
			request: req.request,
			code,
			locale: ctx.i18n.locale,
			messages: ctx.options.i18n.messages
		});
	} catch (error) {
		await forget(ctx, store, stored);
		throw error;
	}
	return { redirect: withParams(actionUrl(ctx, 'verify-request'), { provider: provider.id, type: 'email' }), cookies };
}

/** Deletes what was stored for a message that was not sent (best effort: the send's error wins). */
async function forget(ctx: AuthContext, store: Required<Pick<Adapter, 'useVerificationToken'>>, rows: VerificationToken[]): Promise<void> {
	for (const { identifier, token } of rows) {
		try {
			await store.useVerificationToken({ identifier, token });
		} catch (error) {
			ctx.options.logger.error(error as Error);
		}
	}
}
