import { defaultJwtCallback } from '../config.js';
import type { AuthContext } from '../context.js';
import { now } from './jwt.js';
import { clearChunked, readChunked, writeChunked } from './cookies.js';
import { decodeSessionToken, encodeSessionToken } from './token.js';
import type { JwtStrategy } from './strategy.js';
import type { SessionRead, SessionStart } from './types.js';
import type { Account, JWT } from '../types/models.js';
import type { Session } from '../types/models.js';
import type { Cookie } from '../types/internal.js';

/**
 * What JWT sessions need from above the session layer: provider tokens are kept in the token when
 * there is no adapter to keep them, and refreshed as they expire (the OAuth flow knows how).
 */
export interface JwtHooks {
	/** The provider tokens worth keeping in the session token after a sign-in through `account`. */
	keepTokens(account: Account): object | undefined;
	/** The token with its provider tokens refreshed when due (the same object when nothing was). */
	refresh(ctx: AuthContext, token: JWT): Promise<JWT>;
}

/** JWT sessions: the whole session lives in an encrypted cookie. */
export function createJwtStrategy(hooks: JwtHooks): JwtStrategy {
	return {
		kind: 'jwt',
		read: (ctx, cookies, update) => readJwtSession(ctx, hooks, cookies, update),
		start: (ctx, start) => startJwtSession(ctx, hooks, start),
		end: endJwtSession,
		userId: jwtUserId
	};
}

/**
 * Reads a JWT session: one decrypt, the `jwt` and `session` callbacks, and a new cookie only when
 * one is due (`updateAge` since it was issued), when the `jwt` callback changed the token, or on
 * an update. Anything unreadable clears the cookie and reads as no session.
 */
async function readJwtSession(
	ctx: AuthContext,
	hooks: JwtHooks,
	requestCookies: Record<string, string>,
	update?: { data: unknown }
): Promise<SessionRead> {
	const { name, options } = ctx.cookies.sessionToken;
	const raw = readChunked(requestCookies, name);
	if (!raw) return { session: null, cookies: [] };
	const decoded = await decodeSessionToken(ctx, raw);
	if (!decoded) {
		ctx.options.logger.debug('session token unreadable (malformed, foreign or expired)');
		return { session: null, cookies: clearChunked(name, options, requestCookies) };
	}
	const { callbacks, session: sessionOptions } = ctx.options;
	// Snapshot first: callbacks often edit the token in place and return the same object. The
	// default callback edits nothing, so only a refresh (a new object) can change the token.
	const before = callbacks.jwt === defaultJwtCallback ? undefined : JSON.stringify(decoded);
	const token = await callbacks.jwt({
		token: await hooks.refresh(ctx, decoded),
		...(update ? { trigger: 'update' as const, session: update.data } : {})
	});
	if (!token) return { session: null, cookies: clearChunked(name, options, requestCookies) };

	const changed = before === undefined ? token !== decoded : JSON.stringify(token) !== before;
	const due = now() - (decoded.iat ?? 0) >= sessionOptions.updateAge;
	let cookies: Cookie[] = [];
	let exp = typeof decoded.exp === 'number' ? decoded.exp : now() + ctx.options.jwt.maxAge;
	// The sign-in time is the core's, not the callbacks': kept as it was sealed, whatever they return.
	const authTime = typeof decoded.auth_time === 'number' ? decoded.auth_time : undefined;
	if (update || changed || due) {
		const issued = await writeJwtCookies(ctx, { ...token, auth_time: authTime }, requestCookies);
		cookies = issued.cookies;
		exp = issued.exp;
	}
	const session = await callbacks.session({
		session: defaultSession(token, exp),
		token
	});
	await ctx.options.events.session?.({ session, token });
	return { session, cookies, token, ...(authTime !== undefined ? { authTime } : {}) };
}

/** The session a JWT yields before the `session` callback: name, email, image (and an error). */
function defaultSession(token: JWT, exp: number): Session {
	return {
		user: { name: token.name, email: token.email, image: token.picture as string | null | undefined },
		expires: new Date(exp * 1000).toISOString(),
		...(typeof token.error === 'string' ? { error: token.error } : {})
	};
}

async function writeJwtCookies(
	ctx: AuthContext,
	token: JWT,
	requestCookies: Record<string, string>
): Promise<{ cookies: Cookie[]; exp: number }> {
	const { name, options } = ctx.cookies.sessionToken;
	const exp = now() + ctx.options.jwt.maxAge;
	const value = await encodeSessionToken(ctx, token);
	if (value.length > 3936) ctx.options.logger.debug('CHUNKING_SESSION_COOKIE');
	return { cookies: writeChunked(name, value, { ...options, expires: new Date(exp * 1000) }, requestCookies), exp };
}

/** Issues the session token of a completed sign-in (the `jwt` callback decides its claims). */
async function startJwtSession(ctx: AuthContext, hooks: JwtHooks, start: SessionStart): Promise<Cookie[]> {
	const { user, account, profile, isNewUser, requestCookies } = start;
	const { name, options } = ctx.cookies.sessionToken;
	// Without an adapter, the token is the only place a provider's tokens can be kept for refresh.
	const oauth = !ctx.options.adapter && account ? hooks.keepTokens(account) : undefined;
	const token = await ctx.options.callbacks.jwt({
		token: { name: user.name, email: user.email, picture: user.image, sub: user.id, ...(oauth ? { oauth } : {}) },
		user,
		account,
		profile,
		isNewUser,
		trigger: isNewUser ? 'signUp' : 'signIn'
	});
	if (!token) return clearChunked(name, options, requestCookies);
	// `auth_time` (as in OIDC): when the user signed in, for "sudo mode" (recent sign-in checks).
	return (await writeJwtCookies(ctx, { ...token, auth_time: now() }, requestCookies)).cookies;
}

/** Ends a JWT session: the cookie goes, and the `signOut` event sees the token it carried. */
async function endJwtSession(ctx: AuthContext, requestCookies: Record<string, string>): Promise<Cookie[]> {
	const { name, options } = ctx.cookies.sessionToken;
	const raw = readChunked(requestCookies, name);
	const token = raw ? await decodeSessionToken(ctx, raw) : null;
	await ctx.options.events.signOut?.({ token });
	return clearChunked(name, options, requestCookies);
}

async function jwtUserId(ctx: AuthContext, requestCookies: Record<string, string>): Promise<string | undefined> {
	const raw = readChunked(requestCookies, ctx.cookies.sessionToken.name);
	const token = raw ? await decodeSessionToken(ctx, raw) : null;
	return typeof token?.sub === 'string' ? token.sub : undefined;
}
