/**
 * Changing the signed-in user's email address (`Password({ sendAccountEmail })`):
 *
 * - POST /change-email/<id> with `email` (and `currentPassword`, or a recent sign-in where the app
 *   allows it, `account-proof.ts`): counted by the limiter (`email-request`), a 256-bit token is
 *   stored for the user, the purpose and the new address (hashed, `link-token.ts`; a day), and
 *   after the answer the link goes to the new address and a notice to the old one. A new address
 *   that already has an account gets a notice instead of the link (nothing changes), with the
 *   same answer and the same writes: the answer never says whether an address is registered.
 * - GET /confirm-email/<id>?user=…&email=…&token=…: one button (a mail scanner uses nothing up).
 * - POST /confirm-email/<id>: the token used up in one conditional statement (of concurrent uses
 *   one wins), its expiry checked, and the address changed and marked verified (event
 *   `updateUser`), unless it was taken meanwhile (the `Verification` error page, nothing changed).
 */
import { need } from '../../adapter.js';
import { type AuthContext, actionUrl, pageUrl } from '../../context.js';
import { Verification } from '../../errors.js';
import { limitAttempt } from '../../limit/attempt.js';
import { linkFormPage } from '../../pages/password-links.js';
import type { RequestInternal, ResponseInternal } from '../../types/internal.js';
import type { AccountEmailRequest, PasswordOptions } from '../../types/password.js';
import { type AccountStep, provenUser, refused } from './account-proof.js';
import { submittedEmail } from './fields.js';
import { linkValues, mailLanguage, sendAfterAnswer, storeLinkToken, useLinkToken } from './links.js';
import { invalidEmailText } from './messages.js';
import { VERIFY_MAX_AGE } from './verify-email.js';

type Sender = NonNullable<PasswordOptions['sendAccountEmail']>;

export async function requestEmailChange(req: RequestInternal, ctx: AuthContext, providerId: string, options: PasswordOptions, send: Sender): Promise<AccountStep> {
	const store = need(ctx.options.adapter ?? {}, 'getUserByEmail');
	await limitAttempt(ctx, req, 'email-request', typeof req.body.email === 'string' ? req.body.email : undefined);
	const email = submittedEmail(req.body.email);
	if (!email) return refused(400, { email: [invalidEmailText(ctx.i18n)] });
	const proven = await provenUser(req, ctx, options, options.recentSignIn);
	if (!('user' in proven)) return proven;
	const { user, read } = proven;
	if (email === user.email) return refused(400, { email: [ctx.i18n.t('account.sameEmail')] });
	const taken = await store.getUserByEmail(email);
	const expires = new Date(Date.now() + VERIFY_MAX_AGE * 1000);
	// Stored either way, so a taken address costs the same writes; nobody gets this one's link.
	const { token } = await storeLinkToken(ctx, 'email-change', providerId, user.id, expires, email);
	const common = { expires, theme: ctx.options.theme, ...mailLanguage(ctx) };
	const signIn = pageUrl(ctx, 'signIn');
	const toNew: AccountEmailRequest = taken
		? { ...common, kind: 'email-taken', identifier: email, url: signIn }
		: { ...common, kind: 'confirm-email', identifier: email, url: actionUrl(ctx, `confirm-email/${providerId}`, { user: user.id, email, token }) };
	sendAfterAnswer(ctx, 'an email change link', () => send(toNew), toNew.url);
	if (user.email) {
		const toOld: AccountEmailRequest = { ...common, kind: 'email-change-requested', identifier: user.email, url: signIn, newEmail: email };
		sendAfterAnswer(ctx, 'an email change notice', () => send(toOld), token);
	}
	return { ok: true, data: { requested: true }, cookies: [...read.cookies] };
}

/** A confirmation link's user, new address and token, bounded; `Verification` when unusable. */
function confirmationValues(source: Record<string, unknown>): { user: string; token: string; email: string } {
	const link = linkValues(source);
	const email = submittedEmail(source.email);
	if (!email) throw new Verification('The link has no usable address');
	return { ...link, email };
}

export function confirmEmailPage(req: RequestInternal, ctx: AuthContext, providerId: string): Promise<ResponseInternal> {
	const { user, token, email } = confirmationValues(req.query);
	return linkFormPage(ctx, { kind: 'confirm-email', action: actionUrl(ctx, `confirm-email/${providerId}`), fields: { user, email, token }, email });
}

export async function confirmEmail(req: RequestInternal, ctx: AuthContext, providerId: string): Promise<ResponseInternal> {
	const store = need(ctx.options.adapter ?? {}, 'getUser', 'getUserByEmail', 'updateUser');
	const { user: userId, token, email } = confirmationValues(req.body);
	await useLinkToken(ctx, 'email-change', providerId, { user: userId, token }, email);
	const user = await store.getUser(userId);
	if (!user) throw new Verification('The confirmation link names no user');
	const holder = await store.getUserByEmail(email);
	if (holder && holder.id !== user.id) throw new Verification('The new address has an account now');
	let updated;
	try {
		updated = await store.updateUser({ id: user.id, email, emailVerified: new Date() });
	} catch (error) {
		// Taken between the check and the write (the address is unique): nothing changed.
		const now = await store.getUserByEmail(email);
		if (now && now.id !== user.id) throw new Verification('The new address has an account now');
		throw error;
	}
	await ctx.options.events.updateUser?.({ user: updated });
	return { redirect: pageUrl(ctx, 'signIn') };
}
