import type { CallbackUrl, ProviderContext } from '../context.js';
import { InvalidRequest } from '../errors.js';
import type { PasswordFormAction, PasswordStep } from '../flows/password/fields.js';
import { forgotPasswordPage, requestPasswordReset, resetPassword, resetPasswordPage, resetRefusedPage } from '../flows/password/reset.js';
import { signUp, signUpPage } from '../flows/password/signup.js';
import { resendVerification, verifyEmail, verifyEmailPage } from '../flows/password/verify-email.js';
import type { RequestInternal, ResponseInternal } from '../types/internal.js';
import type { PasswordOptions } from '../types/provider.js';

/** The password options of the route's provider: `Password()` providers only; any other is a 404. */
export function passwordOf(ctx: ProviderContext): PasswordOptions {
	const { provider } = ctx;
	if (provider.type !== 'credentials' || !provider.password) throw new InvalidRequest(`"${provider.id}" has no password accounts`, 404);
	return provider.password;
}

/** …and its sign-up messages: without them there is no address confirmation (404). */
function verificationOf(ctx: ProviderContext): NonNullable<PasswordOptions['sendSignUpEmail']> {
	const { sendSignUpEmail } = passwordOf(ctx);
	if (!sendSignUpEmail) throw new InvalidRequest(`"${ctx.provider.id}" confirms no addresses`, 404);
	return sendSignUpEmail;
}

/** …and its reset sender: without one there is no reset (404). */
function resetOf(ctx: ProviderContext): [PasswordOptions, NonNullable<PasswordOptions['sendPasswordReset']>] {
	const options = passwordOf(ctx);
	if (!options.sendPasswordReset) throw new InvalidRequest(`"${ctx.provider.id}" offers no password reset`, 404);
	return [options, options.sendPasswordReset];
}

/**
 * A submitted password form of the route's provider: sign-up, "forgot your password?", or the new
 * password of a reset link. The REST routes below and the server API's form actions both take it.
 */
export async function passwordStep(action: PasswordFormAction, req: RequestInternal, ctx: ProviderContext, callbackUrl: CallbackUrl): Promise<PasswordStep> {
	if (action === 'signup') return signUp(req, ctx, ctx.provider.id, passwordOf(ctx), await callbackUrl());
	if (action === 'resend-verification') return resendVerification(req, ctx, ctx.provider.id, verificationOf(ctx));
	const [options, send] = resetOf(ctx);
	return action === 'forgot-password' ? requestPasswordReset(req, ctx, ctx.provider.id, options, send) : resetPassword(req, ctx, ctx.provider.id, options);
}

/** POST /signup/<id>: a new account with a password (refused: the page again, 400). */
export async function signUpPost(req: RequestInternal, ctx: ProviderContext, callbackUrl: CallbackUrl): Promise<ResponseInternal> {
	const step = await passwordStep('signup', req, ctx, callbackUrl);
	return step.ok ? step.done : signUpPage(ctx, ctx.provider.id, passwordOf(ctx), await callbackUrl(), step.failure);
}

/** GET /signup/<id>: the built-in "create an account" page. */
export async function signUpGet(_req: RequestInternal, ctx: ProviderContext, callbackUrl: CallbackUrl): Promise<ResponseInternal> {
	return signUpPage(ctx, ctx.provider.id, passwordOf(ctx), await callbackUrl());
}

/** GET /forgot-password/<id>: the built-in "forgot your password?" page. */
export function forgotPasswordGet(_req: RequestInternal, ctx: ProviderContext): Promise<ResponseInternal> {
	const [options] = resetOf(ctx);
	return forgotPasswordPage(ctx, ctx.provider.id, options);
}

/** POST /forgot-password/<id>: asks for a reset link. */
export async function forgotPasswordPost(req: RequestInternal, ctx: ProviderContext, callbackUrl: CallbackUrl): Promise<ResponseInternal> {
	const step = await passwordStep('forgot-password', req, ctx, callbackUrl);
	return step.ok ? step.done : forgotPasswordPage(ctx, ctx.provider.id, passwordOf(ctx), step.failure);
}

/** GET /reset-password/<id>: "check your email", or the new password's form a link opens. */
export function resetPasswordGet(req: RequestInternal, ctx: ProviderContext): Promise<ResponseInternal> {
	const [options] = resetOf(ctx);
	return resetPasswordPage(req, ctx, ctx.provider.id, options);
}

/** POST /reset-password/<id>: sets the new password with a link's token. */
export async function resetPasswordPost(req: RequestInternal, ctx: ProviderContext, callbackUrl: CallbackUrl): Promise<ResponseInternal> {
	const step = await passwordStep('reset-password', req, ctx, callbackUrl);
	return step.ok ? step.done : resetRefusedPage(req, ctx, ctx.provider.id, passwordOf(ctx), step.failure);
}


/** GET /verify-email/<id>: "check your email" after sign-up, or the button a confirmation link opens. */
export function verifyEmailGet(req: RequestInternal, ctx: ProviderContext): Promise<ResponseInternal> {
	verificationOf(ctx);
	return verifyEmailPage(req, ctx, ctx.provider.id);
}

/** POST /verify-email/<id>: confirms the address with a link's token. */
export function verifyEmailPost(req: RequestInternal, ctx: ProviderContext): Promise<ResponseInternal> {
	verificationOf(ctx);
	return verifyEmail(req, ctx, ctx.provider.id);
}

/** POST /resend-verification/<id>: a new confirmation link; a refused address is a 400 error page. */
export async function resendVerificationPost(req: RequestInternal, ctx: ProviderContext, callbackUrl: CallbackUrl): Promise<ResponseInternal> {
	const step = await passwordStep('resend-verification', req, ctx, callbackUrl);
	if (step.ok) return step.done;
	throw new InvalidRequest(step.failure.fieldErrors.email?.[0] ?? 'No usable address', 400);
}
