/**
 * Confirming a new account's address (`Password({ sendSignUpEmail })`): sign-up stores a token
 * (`link-token.ts`) and mails the link; GET /verify-email/<id>?user=…&token=… shows one button
 * (nothing used up: a mail scanner burns nothing); its POST uses the token up in one conditional
 * statement, checks its expiry, and marks the address verified (`updateUser`, event
 * `updateUser`). Without a token the GET is "check your email", where sign-up lands.
 */
import { need } from '../../adapter.js';
import { type AuthContext, actionUrl, pageUrl } from '../../context.js';
import { Verification } from '../../errors.js';
import { linkFormPage, linkSentPage } from '../../pages/password-links.js';
import type { RequestInternal, ResponseInternal } from '../../types/internal.js';
import { linkValues, useLinkToken } from './links.js';

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
