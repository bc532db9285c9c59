/**
 * Confirming a new account's address (`Password({ sendSignUpEmail })`): sign-up stores a token
 * (`link-token.ts`) and mails the link; GET /verify-email/<id>?user=…&token=… shows one button
 * (nothing used up: a mail scanner burns nothing); its POST uses the token up in one conditional
 * statement, checks its expiry, and marks the address verified (`updateUser`, event
 * `updateUser`). Without a token the GET is "check your email", where sign-up lands.
 * POST /resend-verification/<id> with `email` asks for a new link (the old one expired): counted
 * as sign-up is (`email-request`), a token stored whoever asks, the link sent (after the answer)
 * only to an unconfirmed password account; every address gets the same answer.
 */
import { need } from '../../adapter.js';
import { type AuthContext, actionUrl, pageUrl } from '../../context.js';
import { randomUUID } from '../../crypto/index.js';
import { Verification } from '../../errors.js';
import { limitAttempt } from '../../limit/attempt.js';
import { linkFormPage, linkSentPage } from '../../pages/password-links.js';
import type { RequestInternal, ResponseInternal } from '../../types/internal.js';
import type { PasswordOptions } from '../../types/password.js';
import { type PasswordStep, submittedEmail } from './fields.js';
import { linkValues, mailLanguage, sendAfterAnswer, storeLinkToken, useLinkToken } from './links.js';
import { invalidEmailText } from './messages.js';

/** How long a confirmation link works: a day, as a sign-in link. */
export const VERIFY_MAX_AGE = 24 * 60 * 60;

export function verifyEmailPage(req: RequestInternal, ctx: AuthContext, providerId: string): Promise<ResponseInternal> {
	if (req.query.token === undefined && req.query.user === undefined) return linkSentPage(ctx, 'verify');
	const { user, token } = linkValues(req.query);
	return linkFormPage(ctx, { kind: 'confirm', action: actionUrl(ctx, `verify-email/${providerId}`), fields: { user, token } });
}

export async function verifyEmail(req: RequestInternal, ctx: AuthContext, providerId: string): Promise<ResponseInternal> {
	const store = need(ctx.options.adapter ?? {}, 'getUser', 'updateUser');
	const link = linkValues(req.body);
	await useLinkToken(ctx, 'email-verification', providerId, link);
	const user = await store.getUser(link.user);
	if (!user) throw new Verification('The confirmation link names no user');
	if (!user.emailVerified) {
		const updated = await store.updateUser({ id: user.id, emailVerified: new Date() });
		await ctx.options.events.updateUser?.({ user: updated });
	}
	return { redirect: pageUrl(ctx, 'signIn') };
}

export async function resendVerification(req: RequestInternal, ctx: AuthContext, providerId: string, send: NonNullable<PasswordOptions['sendSignUpEmail']>): Promise<PasswordStep> {
	const store = need(ctx.options.adapter ?? {}, 'getPasswordUser');
	await limitAttempt(ctx, req, 'email-request', typeof req.body.email === 'string' ? req.body.email : undefined);
	const email = submittedEmail(req.body.email);
	if (!email) return { ok: false, failure: { fieldErrors: { email: [invalidEmailText(ctx.i18n)] } } };
	const found = await store.getPasswordUser(email);
	const waiting = found && !found.user.emailVerified ? found.user : undefined;
	const expires = new Date(Date.now() + VERIFY_MAX_AGE * 1000);
	// The same writes for every address: a token for a user who does not exist expires unused.
	const token = await storeLinkToken(ctx, 'email-verification', providerId, waiting?.id ?? randomUUID(), expires);
	if (waiting) {
		const url = actionUrl(ctx, `verify-email/${providerId}`, { user: waiting.id, token });
		sendAfterAnswer(ctx, 'a confirmation link', () => send({ identifier: email, kind: 'verify-email', url, expires, theme: ctx.options.theme, ...mailLanguage(ctx) }), url);
	}
	return { ok: true, done: { redirect: actionUrl(ctx, `verify-email/${providerId}`) } };
}
