/**
 * The state between the two factors of a sign-in: what the first proved (the user, the account,
 * the method, where to land), sealed into a cookie of its own (`authjs.two-factor`: encrypted under
 * a key derived from its name, so it never opens as a session token nor a session token as it),
 * living `twoFactor.pendingMaxAge` seconds, bound to the browser's user agent, and spent on the
 * server once (`once`, the rate limiter's store) when the second factor passes. No session exists
 * while it does: not a cookie, not a row, not a token.
 */
import type { AuthContext } from '../context.js';
import { sha256 } from '../crypto/index.js';
import { chunkedValues, clearChunked, writeChunked } from '../session/cookies.js';
import { openToken, sealToken } from '../session/jwt.js';
import type { Cookie } from '../types/internal.js';
import type { Account, Profile, User } from '../types/models.js';
import type { SignInFactor } from '../types/two-factor.js';

/** What a first factor established: everything the session start needs, once a second one passes. */
export interface FirstFactor {
	user: User & { id: string };
	account: Account;
	profile?: Profile;
	isNewUser: boolean;
	/** Where the sign-in lands. */
	callbackUrl: string;
	/** What the sign-in proved so far (`session.factors`). */
	factors: SignInFactor[];
}

/** A sign-in waiting for its second factor. */
export interface PendingSignIn extends FirstFactor {
	/** The user has no second factor yet and must set one up before the session starts. */
	enroll: boolean;
}

/** A pending sign-in as read from the request: with its single-use id. */
export interface OpenedPending {
	pending: PendingSignIn;
	/** The seal's `jti`: spent once when the sign-in completes. */
	id: string;
}

/** The user agent's hash: the state is refused by any other browser. */
async function browserOf(headers: Headers): Promise<string> {
	return (await sha256(`kitauth two-factor browser\u0000${(headers.get('user-agent') ?? '').slice(0, 1024)}`, 'base64url')).slice(0, 22);
}

/** The cookies that carry a new pending sign-in (chunked when the account's tokens make it long). */
export async function pendingCookies(
	ctx: AuthContext,
	req: { cookies: Record<string, string>; headers: Headers },
	pending: PendingSignIn
): Promise<Cookie[]> {
	const { name, options } = ctx.cookies.twoFactor;
	const maxAge = ctx.options.twoFactor!.pendingMaxAge;
	const value = await sealToken(ctx.options.keyring, name, { sub: pending.user.id, browser: await browserOf(req.headers), pending }, maxAge);
	return writeChunked(name, value, { ...options, maxAge }, req.cookies);
}

/** Deletions of the pending cookie (and its chunks) the request carried. */
export function clearPending(ctx: AuthContext, requestCookies: Record<string, string>): Cookie[] {
	const { name, options } = ctx.cookies.twoFactor;
	return clearChunked(name, options, requestCookies);
}

/**
 * The request's pending sign-in: unexpired, well-formed, sealed by this app and from this
 * browser; `undefined` otherwise. It is not spent here (a wrong code may be retried): see
 * {@link spendPending}.
 */
export async function openPending(ctx: AuthContext, req: { cookies: Record<string, string>; headers: Headers }): Promise<OpenedPending | undefined> {
	const { name } = ctx.cookies.twoFactor;
	const browser = await browserOf(req.headers);
	for (const raw of chunkedValues(req.cookies, name)) {
		const claims = await openToken(ctx.options.keyring, name, raw);
		if (!claims || typeof claims.jti !== 'string' || claims.browser !== browser) continue;
		const pending = claims.pending as PendingSignIn | undefined;
		if (!isPending(pending) || pending.user.id !== claims.sub) continue;
		return { pending, id: claims.jti };
	}
	return undefined;
}

/**
 * Spends a pending sign-in on the server: `true` the first time its id is spent, `false` ever
 * after (a replayed or copied cookie), from any instance sharing the store.
 */
export function spendPending(ctx: AuthContext, opened: OpenedPending): Promise<boolean> {
	return ctx.options.once.claim('two-factor-pending', opened.id, (ctx.options.twoFactor!.pendingMaxAge + 60) * 1000);
}

/** The sealed state is the app's own, but checked all the same: a bug must not become a session. */
function isPending(value: unknown): value is PendingSignIn {
	const pending = value as PendingSignIn | null | undefined;
	return (
		!!pending &&
		typeof pending === 'object' &&
		typeof pending.user?.id === 'string' &&
		pending.user.id !== '' &&
		typeof pending.account?.provider === 'string' &&
		typeof pending.account.type === 'string' &&
		typeof pending.callbackUrl === 'string' &&
		typeof pending.isNewUser === 'boolean' &&
		typeof pending.enroll === 'boolean' &&
		Array.isArray(pending.factors) &&
		pending.factors.every((factor) => typeof factor === 'string')
	);
}
