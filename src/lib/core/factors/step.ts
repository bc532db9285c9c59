/**
 * The second-factor step of `login.ts`: after the first factor, does this sign-in need a second
 * one? Yes when the user has two-factor on, or must have it (`twoFactor.required`) — unless the
 * first factor was already two (a passkey that verified its user) or this browser was remembered.
 * Then the answer is the challenge: a pending state (`pending.ts`) and a redirect to the challenge
 * page, and no session. The policy is asked of every first factor alike: no flow can skip it.
 */
import { type AuthContext, actionUrl } from '../context.js';
import type { RequestInternal, ResponseInternal } from '../types/internal.js';
import type { User } from '../types/models.js';
import type { SignInFactor } from '../types/two-factor.js';
import type { TwoFactorSetup } from './options.js';
import { type FirstFactor, pendingCookies } from './pending.js';
import { rememberedFor } from './remember.js';

export type SecondFactorStep = { factors: SignInFactor[] } | { challenge: ResponseInternal };

export async function secondFactorStep(
	ctx: AuthContext,
	req: Pick<RequestInternal, 'cookies' | 'headers'>,
	first: FirstFactor
): Promise<SecondFactorStep> {
	const setup = ctx.options.twoFactor;
	if (!setup || first.factors.includes('user-verification')) return { factors: first.factors };
	const record = await setup.store.getTwoFactor(first.user.id);
	const enabled = !!record?.enabledAt;
	if (!enabled && !(await mustHave(setup, first.user))) return { factors: first.factors };
	if (enabled && (await rememberedFor(ctx, req.cookies, record!))) return { factors: [...first.factors, 'remembered-device'] };
	const cookies = await pendingCookies(ctx, req, { ...first, enroll: !enabled });
	return { challenge: { redirect: challengeUrl(ctx), cookies } };
}

/** Must this user have a second factor? A throwing policy fails the sign-in (never skips the factor). */
export async function mustHave(setup: TwoFactorSetup, user: User & { id: string }): Promise<boolean> {
	const { required } = setup;
	if (typeof required === 'function') return (await required(user)) === true;
	return required === 'always';
}

/** The challenge page: the app's own (`pages.twoFactor`) or the built-in one. */
export function challengeUrl(ctx: AuthContext): string {
	const custom = ctx.options.pages.twoFactor;
	return custom ? `${ctx.origin}${custom}` : actionUrl(ctx, 'two-factor');
}
