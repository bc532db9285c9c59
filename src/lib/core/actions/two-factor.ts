/**
 * `GET /two-factor`: the challenge page of a sign-in waiting for its second factor (or the set-up,
 * when the account must have one and has none). `POST /two-factor` `{code, remember?}`: the code
 * is checked (counted by the limiter, kind `two-factor`, per user and per address), the pending
 * state is spent once, and only then does the session start (`login.ts`). A refused code answers
 * the form again (400: the page, or `{failed, fieldErrors, formErrors}` to JSON clients); a missing,
 * expired, spent or foreign pending state lands on the sign-in page (`TwoFactorExpired`).
 */
import type { AuthContext } from '../context.js';
import { InvalidTwoFactorCode, TwoFactorExpired } from '../errors.js';
import { acceptCode, beginSetup, confirmSetup } from '../factors/codes.js';
import { clearPending, type OpenedPending, openPending, spendPending } from '../factors/pending.js';
import { rememberDeviceCookie } from '../factors/remember.js';
import { limitAttempt } from '../limit/attempt.js';
import { startSession } from '../login.js';
import { backupCodesPage, type PageFailure, twoFactorChallengePage, twoFactorEnrollPage } from '../pages/two-factor.js';
import { NO_CACHE } from '../response.js';
import type { RequestInternal, ResponseInternal } from '../types/internal.js';
import type { SignInFactor } from '../types/two-factor.js';

async function pendingOf(ctx: AuthContext, req: RequestInternal): Promise<OpenedPending> {
	if (!ctx.options.twoFactor) throw new TwoFactorExpired('two-factor authentication is not configured');
	const opened = await openPending(ctx, req);
	if (!opened) throw new TwoFactorExpired('no pending sign-in in this browser (none, expired, or another browser\'s)');
	return opened;
}

/** Does the client want JSON (a script's `fetch`), rather than a page? */
export function wantsJson(req: RequestInternal): boolean {
	return req.headers.has('x-auth-return-redirect') || (req.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json');
}

export async function twoFactorGet(req: RequestInternal, ctx: AuthContext): Promise<ResponseInternal> {
	const { pending } = await pendingOf(ctx, req);
	if (ctx.options.pages.twoFactor) return { redirect: `${ctx.origin}${ctx.options.pages.twoFactor}` };
	if (!pending.enroll) return twoFactorChallengePage(ctx);
	const setup = await beginSetup(ctx, pending.user);
	// Turned on meanwhile (another tab finished the set-up): the challenge asks for a code instead.
	return setup ? twoFactorEnrollPage(ctx, setup) : twoFactorChallengePage(ctx);
}

/** What the second step came to: the session started (its answer), or the code refused. */
export type SecondStep =
	| { ok: true; started: ResponseInternal; backupCodes?: string[] }
	| { ok: false; message: string; enroll: boolean };

/**
 * The second step of a sign-in, for the REST action and the server API alike: the code checked
 * (limited per user and address), the pending state spent once, then the session started with
 * what the sign-in proved. `remember` asks for the remembered-browser cookie.
 */
export async function secondStep(req: RequestInternal, ctx: AuthContext): Promise<SecondStep> {
	const opened = await pendingOf(ctx, req);
	const { pending } = opened;
	const userId = pending.user.id;
	const succeeded = await limitAttempt(ctx, req, 'two-factor', userId);
	let factor: SignInFactor;
	let backupCodes: string[] | undefined;
	try {
		if (pending.enroll && !(await ctx.options.twoFactor!.store.getTwoFactor(userId))?.enabledAt) {
			backupCodes = await confirmSetup(ctx, userId, req.body.code);
			factor = 'totp';
		} else {
			factor = await acceptCode(ctx, userId, req.body.code);
		}
	} catch (error) {
		if (!(error instanceof InvalidTwoFactorCode)) throw error;
		return { ok: false, message: error.message, enroll: pending.enroll };
	}
	// Spent once, whatever else happens: a copied or replayed cookie finds it spent.
	if (!(await spendPending(ctx, opened))) throw new TwoFactorExpired('this pending sign-in was completed already');
	await succeeded();
	const started = await startSession(ctx, req, { ...pending, factors: [...pending.factors, factor] });
	const remembered = req.body.remember === 'on' || req.body.remember === true ? await rememberDeviceCookie(ctx, userId) : undefined;
	const cookies = [...(started.cookies ?? []), ...clearPending(ctx, req.cookies), ...(remembered ? [remembered] : [])];
	return { ok: true, started: { ...started, cookies }, ...(backupCodes ? { backupCodes } : {}) };
}

export async function twoFactorPost(req: RequestInternal, ctx: AuthContext): Promise<ResponseInternal> {
	const step = await secondStep(req, ctx);
	if (!step.ok) return refused(req, ctx, step.enroll, step.message);
	const { started, backupCodes } = step;
	if (!backupCodes) return started;
	// Set up during the sign-in: the new backup codes are shown once, on the way to where it lands.
	const to = started.redirect ?? ctx.origin;
	if (wantsJson(req)) return { headers: { ...NO_CACHE }, body: { url: to, backupCodes }, cookies: started.cookies };
	return { ...(await backupCodesPage(ctx, backupCodes, to)), cookies: started.cookies };
}

/** A refused code: the form again, with why. */
async function refused(req: RequestInternal, ctx: AuthContext, enroll: boolean, message: string): Promise<ResponseInternal> {
	const failure: PageFailure = { fieldErrors: { code: [message] }, formErrors: [] };
	if (wantsJson(req)) return { status: 400, headers: { ...NO_CACHE }, body: { failed: true, ...failure } };
	if (enroll) {
		const setup = await beginSetup(ctx, (await pendingOf(ctx, req)).pending.user);
		if (setup) return twoFactorEnrollPage(ctx, setup, failure);
	}
	return twoFactorChallengePage(ctx, failure);
}
