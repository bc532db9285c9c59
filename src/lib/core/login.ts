import { AccessDenied, AuthError } from './errors.js';
import { type AuthContext, customPage, withParams } from './context.js';
import type { FirstFactor } from './factors/pending.js';
import { secondFactorStep } from './factors/step.js';
import { absoluteRedirect } from './redirect.js';
import type { RequestInternal, ResponseInternal } from './types/internal.js';
import type { Account, Profile, User } from './types/models.js';
import type { SignInFactor } from './types/two-factor.js';
import type { UserResolution } from './users.js';

/** What a sign-in flow proves: who the user is, through which account. */
export interface Identity {
	/** The user as the provider knows them; `id` is the provider's (the account's) id. */
	user: User & { id: string };
	account: Account;
	profile?: Profile;
	/** Credentials flow: the submitted fields, for the `signIn` callback. */
	credentials?: Record<string, unknown>;
	/** The provider lets an account join an existing user with the same email. */
	allowDangerousEmailAccountLinking?: boolean;
	/**
	 * What the flow proved, when more than its provider type (`session.factors`): a passkey that
	 * verified its user is `['webauthn', 'user-verification']`, two factors in one.
	 */
	factors?: SignInFactor[];
	/**
	 * What the flow stores once the user is known (found, created or linked) and before the
	 * session starts: a new passkey's authenticator, which needs the user's id.
	 */
	onUser?(user: User & { id: string }): Promise<void>;
}

/**
 * The single "complete sign-in" step every flow ends in: `signIn` callback → user lookup,
 * creation and linking (as the flow's `users` resolution says) → second factor when the policy
 * asks (`factors/step.ts`: then the answer is the challenge, and no session exists until it
 * passes) → session → `signIn` event → redirect (to `pages.newUser` the first time). No flow
 * writes its own copy of any of it.
 */
export async function completeSignIn(
	ctx: AuthContext,
	req: Pick<RequestInternal, 'cookies' | 'headers'>,
	identity: Identity,
	users: UserResolution,
	callbackUrl: string
): Promise<ResponseInternal> {
	const { account, profile, credentials } = identity;
	const known = await users.existing(ctx, account);
	const denied = await askSignInCallback(ctx, { user: known ?? identity.user, account, profile, credentials });
	if (denied) return { redirect: denied, cookies: [] };

	const signedInAs = users.linksToSignedIn && ctx.options.adapter ? await ctx.options.strategy.userId(ctx) : undefined;
	const { user, isNewUser } = await users.resolve(ctx, identity, known, signedInAs);
	await identity.onUser?.(user);
	const first: FirstFactor = { user, account, profile, isNewUser, callbackUrl, factors: identity.factors ?? [account.type] };
	const step = await secondFactorStep(ctx, req, first);
	if ('challenge' in step) return step.challenge;
	return startSession(ctx, req, { ...first, factors: step.factors });
}

/**
 * The end of every sign-in, once its factors are all in (straight from `completeSignIn`, or from
 * the second-factor challenge): session → `signIn` event → redirect.
 */
export async function startSession(
	ctx: AuthContext,
	req: Pick<RequestInternal, 'cookies' | 'headers'>,
	signIn: FirstFactor
): Promise<ResponseInternal> {
	const { user, account, profile, isNewUser, callbackUrl, factors } = signIn;
	const cookies = await ctx.options.strategy.start(ctx, {
		user,
		account,
		profile,
		isNewUser,
		// Recorded (`session.factors`) only where two-factor is on: without it a session is exactly
		// Auth.js's, so both builds answer alike while an app moves over.
		factors: ctx.options.twoFactor ? factors : undefined,
		userAgent: req.headers.get('user-agent')
	});
	await ctx.options.events.signIn?.({ user, account, profile, isNewUser });
	const newUserPage = isNewUser ? customPage(ctx, 'newUser') : undefined;
	const redirect = newUserPage ? withParams(newUserPage, { callbackUrl }) : callbackUrl;
	return { redirect, cookies };
}

/**
 * Runs the `signIn` callback: `true` continues (returns undefined), a string is a redirect
 * target (returned), `false` or a throw stops with `AccessDenied` carrying the reason. Also asked
 * by the email flow before it sends a link (`email: { verificationRequest: true }`).
 */
export async function askSignInCallback(
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
