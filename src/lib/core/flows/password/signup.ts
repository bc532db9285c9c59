/**
 * Sign-up with a password kept by kitauth (`Password()`): the address and the password's rules are
 * checked, the password hashed, and the user created with it in one atomic step. The answer is the
 * same whether the address was free or already taken (the sign-in page; with `sendSignUpEmail`,
 * "check your email" with a pending code's cookie, and the message says what happened): it never
 * says which. An address already taken is left as it was. A refused address or password is the step's failure: the
 * reason under its field (the REST route shows the sign-up page again, 400).
 */
import { need } from '../../adapter.js';
import { type AuthContext, actionUrl, pageUrl } from '../../context.js';
import { randomUUID } from '../../crypto/index.js';
import { limitAttempt } from '../../limit/attempt.js';
import { passwordFormPage, type PasswordFormFailure } from '../../pages/password-forms.js';
import { passwordProblem } from '../../passwords/policy.js';
import type { Cookie, RequestInternal, ResponseInternal } from '../../types/internal.js';
import type { PasswordOptions, SignUpEmailRequest } from '../../types/provider.js';
import { type PasswordStep, submittedEmail, submittedName, submittedPassword } from './fields.js';
import { mailLanguage, sendAfterAnswer } from './links.js';
import { invalidEmailText, passwordProblemText } from './messages.js';
import { storeConfirmation } from './verify-code.js';
import { VERIFY_MAX_AGE } from './verify-email.js';

export async function signUp(
	req: RequestInternal,
	ctx: AuthContext,
	providerId: string,
	options: PasswordOptions,
	callbackUrl: string
): Promise<PasswordStep> {
	const store = need(ctx.options.adapter ?? {}, 'createPasswordUser');
	// Counted as a request for mail to an address: sign-up is what sends one (verification).
	await limitAttempt(ctx, req, 'email-request', typeof req.body.email === 'string' ? req.body.email : undefined);
	const email = submittedEmail(req.body.email);
	const password = submittedPassword(req.body.password, options.rules.maxLength * 8) ?? '';
	const problem = passwordProblem(password, options.rules);
	if (!email || problem) {
		const typed = typeof req.body.email === 'string' && req.body.email.length <= 320 ? req.body.email : undefined;
		const fieldErrors = { ...(email ? {} : { email: [invalidEmailText(ctx.i18n)] }), ...(problem ? { password: [passwordProblemText(ctx.i18n, problem, options.rules)] } : {}) };
		return { ok: false, failure: { fieldErrors, values: { email: typed } } };
	}
	const name = submittedName(req.body.name);
	const user = { id: randomUUID(), email, emailVerified: null, ...(name ? { name } : {}) };
	const created = await store.createPasswordUser(user, await options.hasher.hash(password));
	if (created) await ctx.options.events.createUser?.({ user: created });
	if (!options.sendSignUpEmail) return { ok: true, done: { redirect: pageUrl(ctx, 'signIn', { callbackUrl }) } };
	const cookie = await mailSignUp(ctx, providerId, options.sendSignUpEmail, email, created?.id);
	return { ok: true, done: { redirect: actionUrl(ctx, `verify-email/${providerId}`), cookies: [cookie] } };
}

/**
 * The message says what happened: a confirmation link and its code to a new account, a notice to
 * an address already registered. A token is stored and a code made pending either way (for a
 * user that does not exist when the address was taken: they expire unused), so both take the same
 * writes and set the same cookie (returned); the message goes after the answer.
 */
async function mailSignUp(ctx: AuthContext, providerId: string, send: NonNullable<PasswordOptions['sendSignUpEmail']>, email: string, userId: string | undefined): Promise<Cookie> {
	const expires = new Date(Date.now() + VERIFY_MAX_AGE * 1000);
	const { token, code, cookie } = await storeConfirmation(ctx, providerId, userId ?? randomUUID(), email, expires);
	const common = { identifier: email, expires, theme: ctx.options.theme, ...mailLanguage(ctx) };
	const request: SignUpEmailRequest = userId
		? { ...common, kind: 'verify-email', url: actionUrl(ctx, `verify-email/${providerId}`, { user: userId, token }), code }
		: { ...common, kind: 'already-registered', url: pageUrl(ctx, 'signIn') };
	sendAfterAnswer(ctx, 'a sign-up message', () => send(request), [request.url, request.code ?? '']);
	return cookie;
}

/** GET /signup/<id>: the built-in "create an account" page (and the same page with a refusal, 400). */
export function signUpPage(ctx: AuthContext, providerId: string, options: PasswordOptions, callbackUrl: string, failure?: PasswordFormFailure): Promise<ResponseInternal> {
	return passwordFormPage(ctx, { kind: 'signup', action: actionUrl(ctx, `signup/${providerId}`), fields: { callbackUrl }, rules: options.rules, failure });
}
