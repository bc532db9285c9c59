import type { AuthContext } from '../../context.js';
import { CHECK_COOKIE_MAX_AGE, expiredCookie } from '../../session/cookies.js';
import { openToken, sealToken } from '../../session/jwt.js';
import type { Cookie } from '../../types/internal.js';
import type { VerificationToken } from '../../types/models.js';
import { attemptTicket, codeOf, type CodeScope } from './derive.js';

/**
 * The pending code of the browser that asked for a link (an email sign-in's, or a password
 * account's confirmation, whose user it names too): which address, which stored link (its hash)
 * and which attempt comes next. Sealed under a key derived from this cookie's own name (it
 * can never pass as a session or a check cookie), bound to the provider, and as short-lived as a
 * check cookie (15 minutes, or the link's own lifetime when shorter). Nothing in it is a secret
 * the user could use elsewhere: the hash is not a token, and the attempt budget lives in the store.
 */
export interface PendingCode {
	email: string;
	hash: string;
	/** The attempt ticket to look for first (the store decides what is really left). */
	attempt: number;
	/** When the code stops working (ms since the epoch); its tickets expire then too. */
	until: number;
	/** The user whose address a `Password()` account's code confirms (its link's stored identifier names it). */
	user?: string;
}

/** How long a code may be used: a check cookie's 15 minutes, or the link's lifetime when shorter. */
export function codeLifetime(linkMaxAge: number): number {
	return Math.min(CHECK_COOKIE_MAX_AGE, linkMaxAge);
}

export async function sealPendingCode(ctx: AuthContext, providerId: string, pending: PendingCode): Promise<Cookie> {
	const { name, options } = ctx.cookies.emailVerification;
	const lifetime = Math.max(1, Math.ceil((pending.until - Date.now()) / 1000));
	const value = await sealToken(ctx.options.keyring, name, { provider: providerId, ...pending }, lifetime);
	return { name, value, options: { ...options, maxAge: lifetime } };
}

/** The pending code of `providerId` in this request, if the cookie is there, intact and current. */
export async function openPendingCode(ctx: AuthContext, cookies: Record<string, string>, providerId: string): Promise<PendingCode | undefined> {
	const raw = cookies[ctx.cookies.emailVerification.name];
	if (!raw) return undefined;
	const claims = await openToken(ctx.options.keyring, ctx.cookies.emailVerification.name, raw);
	if (!claims || claims.provider !== providerId) return undefined;
	const { email, hash, attempt, until, user } = claims;
	if (typeof email !== 'string' || typeof hash !== 'string' || typeof until !== 'number') return undefined;
	if (typeof attempt !== 'number' || !Number.isInteger(attempt) || attempt < 0) return undefined;
	if (user !== undefined && typeof user !== 'string') return undefined;
	return { email, hash, attempt, until, ...(user === undefined ? {} : { user }) };
}

/**
 * A link's code made pending, as an email sign-in and a confirmation both begin it: the code (for
 * the message), its first attempt ticket (to store beside the link), and the cookie naming it for
 * the browser that asked (`pending`: the address, the link's hash, and for a confirmation its user).
 */
export async function beginCode(
	ctx: AuthContext,
	scope: CodeScope,
	pending: Pick<PendingCode, 'email' | 'hash' | 'user'>,
	linkMaxAge: number
): Promise<{ code: string; ticket: VerificationToken; cookie: Cookie }> {
	const until = Date.now() + codeLifetime(linkMaxAge) * 1000;
	const ticket = { ...(await attemptTicket(scope, pending.hash, 0)), expires: new Date(until) };
	const cookie = await sealPendingCode(ctx, scope.providerId, { ...pending, attempt: 0, until });
	return { code: await codeOf(scope, pending.hash), ticket, cookie };
}

/** Deletes the cookie, if the request carried one (after a sign-in, or once the code is spent). */
export function clearPendingCode(ctx: AuthContext, cookies: Record<string, string>): Cookie[] {
	const { name, options } = ctx.cookies.emailVerification;
	return cookies[name] === undefined ? [] : [expiredCookie(name, options)];
}
