import { AccessDenied, AuthError } from './errors.js';
import { type AuthContext } from './context.js';
import { absoluteRedirect } from './redirect.js';
import { startSession } from './session/index.js';
import type { Cookie, RequestInternal, ResponseInternal } from './types/internal.js';
import type { Account, Profile, User } from './types/models.js';

/** What a sign-in flow proves: who the user is, through which account. */
export interface Identity {
	user: User;
	account: Account;
	profile?: Profile;
	/** Credentials flow: the submitted fields, for the `signIn` callback. */
	credentials?: Record<string, unknown>;
}

/**
 * The single "complete sign-in" step every flow ends in: `signIn` callback → session → `signIn`
 * event → redirect. No flow writes its own copy of any of it.
 */
export async function completeSignIn(
	ctx: AuthContext,
	req: Pick<RequestInternal, 'cookies' | 'headers'>,
	identity: Identity,
	callbackUrl: string
): Promise<ResponseInternal> {
	const { user, account, profile, credentials } = identity;
	const denied = await askSignInCallback(ctx, { user, account, profile, credentials });
	if (denied) return { redirect: denied, cookies: [] };

	const isNewUser = false;
	const cookies: Cookie[] = await startSession(ctx, {
		user,
		account,
		profile,
		isNewUser,
		requestCookies: req.cookies,
		userAgent: req.headers.get('user-agent')
	});
	await ctx.options.events.signIn?.({ user, account, profile, isNewUser });
	return { redirect: callbackUrl, cookies };
}

/**
 * Runs the `signIn` callback: `true` continues (returns undefined), a string is a redirect
 * target (returned), `false` or a throw stops with `AccessDenied` carrying the reason.
 */
async function askSignInCallback(
	ctx: AuthContext,
	params: Parameters<AuthContext['options']['callbacks']['signIn']>[0]
): Promise<string | undefined> {
	let decision: boolean | string;
	try {
		decision = await ctx.options.callbacks.signIn(params);
	} catch (error) {
		if (error instanceof AuthError) throw error;
		throw new AccessDenied((error as Error)?.message ?? 'signIn callback threw', { cause: error as Error });
	}
	if (decision === true) return undefined;
	if (typeof decision === 'string') {
		const target = await ctx.options.callbacks.redirect({ url: decision, baseUrl: ctx.origin });
		return absoluteRedirect(target, ctx.origin) ?? ctx.origin;
	}
	throw new AccessDenied('The signIn callback refused the sign-in');
}
