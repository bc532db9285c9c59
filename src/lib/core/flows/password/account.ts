/**
 * The signed-in user's password account: changing the password, and deleting the account.
 *
 * - Change: the new password meets the rules, the user proves themself (`account-proof.ts`: the
 *   current password, or a sign-in within `recentSignIn` where the app allows it), the new hash is
 *   stored, and their sessions end as a credential change ends them (`credentialsChanged`,
 *   `password`: by default every other one, this one kept — re-issued, for a JWT). With
 *   `sendAccountEmail`, a notice goes to the account's address after the answer.
 * - Delete: the current password or a sign-in within 10 minutes (or `recentSignIn`); every
 *   session ends (JWT ones revoked where the adapter stores cutoffs), the adapter's `deleteUser`
 *   removes the user with their sessions, accounts, passkeys, password, two-factor record and
 *   link tokens, this browser's cookie is cleared, and `events.deleteUser` fires.
 */
import { need } from '../../adapter.js';
import { type AuthContext, pageUrl } from '../../context.js';
import { passwordProblem } from '../../passwords/policy.js';
import { credentialsChanged, endUserSessions } from '../../session/end.js';
import { DEFAULT_REAUTHENTICATE_AGE } from '../../session/recent.js';
import { revokeTokensBefore } from '../../session/revocation.js';
import type { RequestInternal } from '../../types/internal.js';
import type { PasswordOptions } from '../../types/password.js';
import { type AccountStep, provenUser, refused, signedInUser } from './account-proof.js';
import { submittedPassword } from './fields.js';
import { mailLanguage, sendAfterAnswer } from './links.js';
import { passwordProblemText } from './messages.js';

export async function changePassword(req: RequestInternal, ctx: AuthContext, options: PasswordOptions): Promise<AccountStep> {
	const store = need(ctx.options.adapter ?? {}, 'setPasswordHash');
	const signedIn = await signedInUser(ctx);
	if (!('user' in signedIn)) return signedIn;
	// The rules first: a refused new password costs no hash and no attempt of the budget.
	const password = submittedPassword(req.body.newPassword, options.rules.maxLength * 8) ?? '';
	const problem = passwordProblem(password, options.rules);
	if (problem) return refused(400, { newPassword: [passwordProblemText(ctx.i18n, problem, options.rules)] });
	const proven = await provenUser(req, ctx, options, options.recentSignIn);
	if (!('user' in proven)) return proven;
	const { user, read } = proven;
	if (!(await store.setPasswordHash(user.id, await options.hasher.hash(password)))) {
		return refused(400, {}, [ctx.i18n.t('account.noPassword')]);
	}
	const ended = await credentialsChanged(ctx, user.id, 'password', { read });
	const send = options.sendAccountEmail;
	if (send && user.email) {
		const notice = { kind: 'password-changed' as const, identifier: user.email, url: pageUrl(ctx, 'signIn'), expires: new Date(), theme: ctx.options.theme, ...mailLanguage(ctx) };
		sendAfterAnswer(ctx, 'a password change notice', () => send(notice), notice.url);
	}
	return { ok: true, data: { changed: true }, cookies: [...read.cookies, ...ended.cookies] };
}

export async function deleteAccount(req: RequestInternal, ctx: AuthContext, options: PasswordOptions): Promise<AccountStep> {
	const store = need(ctx.options.adapter ?? {}, 'deleteUser');
	const proven = await provenUser(req, ctx, options, options.recentSignIn === false ? DEFAULT_REAUTHENTICATE_AGE : options.recentSignIn);
	if (!('user' in proven)) return proven;
	const { user, read } = proven;
	// Sessions end first: a JWT outlives the user's row unless its cutoff is stored.
	const ended = await endUserSessions(ctx, user.id, 'all', { read });
	// The cutoff spares tokens of its own second (for the asker's re-issue); nobody is re-issued
	// here, so the whole second goes: a JWT signed in a moment ago must not outlive its user.
	if (ctx.options.strategy.kind === 'jwt') await revokeTokensBefore(ctx, user.id, (Math.floor(Date.now() / 1000) + 1) * 1000);
	await store.deleteUser(user.id);
	await ctx.options.events.deleteUser?.({ user });
	return { ok: true, data: { deleted: true }, cookies: ended.cookies };
}
