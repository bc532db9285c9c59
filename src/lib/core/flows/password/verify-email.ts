/**
 * Confirming a new account's address (`Password({ sendSignUpEmail })`): sign-up stores a token
 * (`link-token.ts`) and mails the link with its one-time code (`verify-code.ts`); GET
 * /verify-email/<id>?user=…&token=… shows one button (nothing used up: a mail scanner burns
 * nothing); its POST uses the token up in one conditional statement, checks its expiry, and marks
 * the address verified (`updateUser`, event `updateUser`). Without a token the GET is "check your
 * email", where sign-up lands: in the browser that signed up, with a field for the code, posting
 * `code` to the same action. POST /resend-verification/<id> with `email` asks for a new link (the
 * old one expired): counted as sign-up is (`email-request`), a token stored and a code pending
 * whoever asks, the message sent (after the answer) only to an unconfirmed password account;
 * every address gets the same answer.
 */
import { need } from '../../adapter.js';
import { type AuthContext, actionUrl, pageUrl } from '../../context.js';
import { randomUUID } from '../../crypto/index.js';
import { limitAttempt } from '../../limit/attempt.js';
import { linkFormPage, linkSentPage } from '../../pages/password-links.js';
import type { RequestInternal, ResponseInternal } from '../../types/internal.js';
import type { PasswordOptions } from '../../types/password.js';
import { type PasswordStep, submittedEmail } from './fields.js';
import { linkValues, mailLanguage, sendAfterAnswer, useLinkToken } from './links.js';
import { invalidEmailText } from './messages.js';
import { attemptsLeft, markVerified, pendingConfirmation, storeConfirmation, verifyEmailCode } from './verify-code.js';

/** How long a confirmation link works: a day, as a sign-in link (its code: 15 minutes). */
export const VERIFY_MAX_AGE = 24 * 60 * 60;

export function verifyEmailPage(req: RequestInternal, ctx: AuthContext, providerId: string): Promise<ResponseInternal> {
	if (req.query.token === undefined && req.query.user === undefined) return checkYourEmailPage(req, ctx, providerId);
	const { user, token } = linkValues(req.query);
	return linkFormPage(ctx, { kind: 'confirm', action: actionUrl(ctx, `verify-email/${providerId}`), fields: { user, token } });
}

/**
 * "Check your email": with the code's field in the browser whose code is pending (a wrong code
 * said under it, with the attempts left), or, once the code is spent, that and a form asking for
 * a new message; elsewhere only the sentence (the same for every address).
 */
async function checkYourEmailPage(req: RequestInternal, ctx: AuthContext, providerId: string): Promise<ResponseInternal> {
	const pending = await pendingConfirmation(ctx, req.cookies, providerId);
	const fields = { csrfToken: ctx.csrf.token };
	if (pending) {
		const errors = req.query.codeError === 'wrong' ? [ctx.i18n.t('verify.codeWrong', { count: attemptsLeft(pending) })] : [];
		return linkSentPage(ctx, 'verify', { code: { action: actionUrl(ctx, `verify-email/${providerId}`), fields, errors } });
	}
	if (req.query.codeError !== 'spent' && req.query.codeError !== 'wrong') return linkSentPage(ctx, 'verify');
	return linkSentPage(ctx, 'verify', { notice: ctx.i18n.t('verify.codeSpent'), resend: { action: actionUrl(ctx, `resend-verification/${providerId}`), fields } });
}

/** POST /verify-email/<id>: confirms the address with a link's token, or with the pending `code`. */
export async function verifyEmail(req: RequestInternal, ctx: AuthContext, providerId: string): Promise<ResponseInternal> {
	if (req.body.code !== undefined && req.body.token === undefined) return verifyEmailCode(req, ctx, providerId);
	const link = linkValues(req.body);
	await useLinkToken(ctx, 'email-verification', providerId, link);
	await markVerified(ctx, link.user);
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
	// The same writes and cookie for every address: a token for a user who does not exist expires unused.
	const { token, code, cookie } = await storeConfirmation(ctx, providerId, waiting?.id ?? randomUUID(), email, expires);
	if (waiting) {
		const url = actionUrl(ctx, `verify-email/${providerId}`, { user: waiting.id, token });
		sendAfterAnswer(ctx, 'a confirmation link', () => send({ identifier: email, kind: 'verify-email', url, code, expires, theme: ctx.options.theme, ...mailLanguage(ctx) }), [url, code]);
	}
	return { ok: true, done: { redirect: actionUrl(ctx, `verify-email/${providerId}`), cookies: [cookie] } };
}
