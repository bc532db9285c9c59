/**
 * Password reset by email (`Password({ sendPasswordReset })`):
 *
 * - POST /forgot-password/<id> with `email`: counted by the limiter (`email-request`: per address
 *   and per account); a 256-bit token is stored (hashed, see `link-token.ts`) and, for an
 *   address with a password, the link sent. Known and unknown addresses get the same answer and
 *   the same reads and writes, at once: the message is sent after the answer, so its time says
 *   nothing either.
 * - GET /reset-password/<id>?user=…&token=…: the form for the new password (nothing used up: a
 *   mail scanner that fetches the link burns nothing). Without a token: "check your email".
 * - POST /reset-password/<id>: the new password is checked first (a refused one keeps the link
 *   working), then the token used up in one conditional statement (`useVerificationToken`: of
 *   concurrent uses one wins), its expiry checked, the hash replaced, and every session of the
 *   user ended (`credentialsChanged`, `password`).
 */
import { need } from '../../adapter.js';
import { type AuthContext, actionUrl, pageUrl } from '../../context.js';
import { randomUUID } from '../../crypto/index.js';
import { Verification } from '../../errors.js';
import { limitAttempt } from '../../limit/attempt.js';
import { linkFormPage, linkSentPage } from '../../pages/password-links.js';
import { passwordFormPage, type PasswordFormFailure } from '../../pages/password-forms.js';
import { passwordProblem } from '../../passwords/policy.js';
import { credentialsChanged } from '../../session/end.js';
import type { RequestInternal, ResponseInternal } from '../../types/internal.js';
import type { PasswordOptions } from '../../types/provider.js';
import { type PasswordStep, submittedEmail, submittedPassword } from './fields.js';
import { linkValues, mailLanguage, sendAfterAnswer, storeLinkToken, useLinkToken } from './links.js';
import { invalidEmailText, passwordProblemText } from './messages.js';

type Sender = NonNullable<PasswordOptions['sendPasswordReset']>;

export async function requestPasswordReset(req: RequestInternal, ctx: AuthContext, providerId: string, options: PasswordOptions, send: Sender): Promise<PasswordStep> {
	const store = need(ctx.options.adapter ?? {}, 'getPasswordUser');
	await limitAttempt(ctx, req, 'email-request', typeof req.body.email === 'string' ? req.body.email : undefined);
	const email = submittedEmail(req.body.email);
	if (!email) return { ok: false, failure: { fieldErrors: { email: [invalidEmailText(ctx.i18n)] } } };
	const found = await store.getPasswordUser(email);
	// The same work for an unknown address: a token stored for a user who does not exist (it
	// expires unused: nobody ever sees it), only no message.
	const userId = found?.user.id ?? randomUUID();
	const expires = new Date(Date.now() + options.resetMaxAge * 1000);
	const { token } = await storeLinkToken(ctx, 'password-reset', providerId, userId, expires);
	if (found) {
		const url = actionUrl(ctx, `reset-password/${providerId}`, { user: userId, token });
		sendAfterAnswer(ctx, 'a password reset link', () => send({ identifier: email, url, expires, theme: ctx.options.theme, ...mailLanguage(ctx) }), url);
	}
	return { ok: true, done: { redirect: actionUrl(ctx, `reset-password/${providerId}`) } };
}

export function resetPasswordPage(req: RequestInternal, ctx: AuthContext, providerId: string, options: PasswordOptions): Promise<ResponseInternal> {
	if (req.query.token === undefined && req.query.user === undefined) return linkSentPage(ctx);
	const { user, token } = linkValues(req.query);
	return linkFormPage(ctx, { kind: 'reset', action: actionUrl(ctx, `reset-password/${providerId}`), fields: { user, token }, rules: options.rules });
}

export async function resetPassword(req: RequestInternal, ctx: AuthContext, providerId: string, options: PasswordOptions): Promise<PasswordStep> {
	const store = need(ctx.options.adapter ?? {}, 'setPasswordHash');
	const { user, token } = linkValues(req.body);
	const password = submittedPassword(req.body.password, options.rules.maxLength * 8) ?? '';
	const problem = passwordProblem(password, options.rules);
	if (problem) return { ok: false, failure: { fieldErrors: { password: [passwordProblemText(ctx.i18n, problem, options.rules)] } } };
	await useLinkToken(ctx, 'password-reset', providerId, { user, token });
	if (!(await store.setPasswordHash(user, await options.hasher.hash(password)))) throw new Verification('The reset link names no password account');
	const ended = await credentialsChanged(ctx, user, 'password');
	return { ok: true, done: { redirect: pageUrl(ctx, 'signIn'), cookies: ended.cookies } };
}

/** The new password's form again, with why it was refused (400): the link keeps working. */
export function resetRefusedPage(req: RequestInternal, ctx: AuthContext, providerId: string, options: PasswordOptions, failure: PasswordFormFailure): Promise<ResponseInternal> {
	const { user, token } = linkValues(req.body);
	const action = actionUrl(ctx, `reset-password/${providerId}`);
	return linkFormPage(ctx, { kind: 'reset', action, fields: { user, token }, rules: options.rules, failure }, 400);
}

/** GET /forgot-password/<id>: the built-in "forgot your password?" page (and with a refusal, 400). */
export function forgotPasswordPage(ctx: AuthContext, providerId: string, options: PasswordOptions, failure?: PasswordFormFailure): Promise<ResponseInternal> {
	return passwordFormPage(ctx, { kind: 'forgot', action: actionUrl(ctx, `forgot-password/${providerId}`), rules: options.rules, failure });
}
