/**
 * Who may change a password account: the signed-in user, proving it again with their current
 * password (checked as a sign-in checks it, `checkedPassword`, and counted against the same
 * `credentials` budgets: a wrong one is a failed sign-in) or, where the action allows it, with a
 * recent sign-in (sudo mode, `session/recent.ts`).
 */
import { need } from '../../adapter.js';
import type { AuthContext } from '../../context.js';
import { limitAttempt } from '../../limit/attempt.js';
import { sessionUserId } from '../../session/end.js';
import { recentlyAuthenticated } from '../../session/recent.js';
import type { SessionRead } from '../../session/types.js';
import type { Cookie, RequestInternal } from '../../types/internal.js';
import type { AdapterUser } from '../../types/models.js';
import type { PasswordOptions } from '../../types/password.js';
import { submittedPassword } from './fields.js';
import { checkedPassword } from './signin.js';

/** The fields the account forms have, for their messages. */
export type AccountField = 'currentPassword' | 'newPassword' | 'email';

/** A refused account change: its status and what to show under each field and above the form. */
export interface AccountRefusal {
	ok: false;
	status: 400 | 401 | 403;
	fieldErrors: { [F in AccountField]?: string[] };
	formErrors: string[];
	/** A recent sign-in would have done instead of the current password: sign in again, then retry. */
	reauthenticate?: true;
}

/**
 * What an account change came to: done (`data` to answer, `cookies` to set: the session
 * re-issued or cleared), or refused. The REST routes answer it as JSON; the form actions as data.
 */
export type AccountStep = { ok: true; data: { [key: string]: true }; cookies: Cookie[] } | AccountRefusal;

export interface ProvenUser {
	user: AdapterUser;
	/** The session that asked (its cookies go on the answer). */
	read: SessionRead;
}

export function refused(status: AccountRefusal['status'], fieldErrors: AccountRefusal['fieldErrors'], formErrors: string[] = []): AccountRefusal {
	return { ok: false, status, fieldErrors, formErrors };
}

/** The signed-in user, or the refusal: 401 signed out (or a user no longer stored). */
export async function signedInUser(ctx: AuthContext): Promise<ProvenUser | AccountRefusal> {
	const read = await ctx.options.strategy.read(ctx);
	const userId = sessionUserId(read);
	const user = userId ? await need(ctx.options.adapter ?? {}, 'getUser').getUser(userId) : null;
	return user ? { user, read } : refused(401, {}, [ctx.i18n.t('account.signInFirst')]);
}

/**
 * The signed-in user, proven again: `currentPassword` matches their password, or (with no
 * password given) they signed in within `recentSignIn` seconds. 403 otherwise; a wrong password
 * counts as a failed sign-in of their address.
 */
export async function provenUser(req: RequestInternal, ctx: AuthContext, options: PasswordOptions, recentSignIn: number | false): Promise<ProvenUser | AccountRefusal> {
	const signedIn = await signedInUser(ctx);
	if (!('user' in signedIn)) return signedIn;
	const { user, read } = signedIn;
	const given = req.body.currentPassword;
	if (typeof given !== 'string' || given === '' || !user.email) {
		if (recentSignIn !== false && recentlyAuthenticated(read, recentSignIn)) return signedIn;
		const refusal = refused(403, { currentPassword: [ctx.i18n.t('account.currentPasswordNeeded')] });
		return recentSignIn === false ? refusal : { ...refusal, reauthenticate: true };
	}
	const succeeded = await limitAttempt(ctx, req, 'credentials', user.email);
	// Longer than any password the rules accept: wrong, without hashing it.
	const password = submittedPassword(given, options.rules.maxLength * 8);
	const found = password === undefined ? null : await checkedPassword(ctx, options, user.email, password);
	if (!found || found.user.id !== user.id) return refused(403, { currentPassword: [ctx.i18n.t('account.wrongPassword')] });
	await succeeded();
	return signedIn;
}
