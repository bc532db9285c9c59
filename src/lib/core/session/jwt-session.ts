import type { AuthContext } from '../context.js';
import { clientSession, withFactors } from './client-session.js';
import { defaultJwtCallback } from './default-callbacks.js';
import { now } from './jwt.js';
import { chunkedValues, clearChunked, legacySessionCookie, writeChunked } from './cookies.js';
import { revokedBy, sessionCutoff } from './revocation.js';
import { decodeSessionToken, encodeSessionToken } from './token.js';
import type { JwtStrategy } from './strategy.js';
import type { SessionRead, SessionStart } from './types.js';
import type { Account, JWT } from '../types/models.js';
import type { Session } from '../types/models.js';
import type { Cookie } from '../types/internal.js';
import type { CookieOption } from '../types/config.js';

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
export function createJwtStrategy(hooks: JwtHooks): JwtStrategy<AuthContext> {
	return {
		kind: 'jwt',
		read: (ctx, cookies, update) => readJwtSession(ctx, hooks, cookies, update),
		start: (ctx, start) => startJwtSession(ctx, hooks, start),
		end: endJwtSession,
		userId: jwtUserId,
		clearCookies: clearSessionCookies,
		reissue: reissueJwtSession
	};
}

/** A session token that opened, and the cookie it came in. */
interface Opened {
	token: JWT;
	/** Auth.js's `__Secure-` cookie (on https): to be replaced by the `__Host-` one and deleted. */
	legacy?: CookieOption;
}

/**
 * Opens the request's session cookie: the whole cookie, then its chunks (a planted or stale chunk
 * set never hides a valid cookie), then Auth.js's `__Secure-` cookie where kitauth's is `__Host-`.
 * The first that opens wins; what does not open is left alone.
 */
async function openSessionCookie(ctx: AuthContext, requestCookies: Record<string, string>): Promise<Opened | undefined> {
	for (const raw of chunkedValues(requestCookies, ctx.cookies.sessionToken.name)) {
		const token = await decodeSessionToken(ctx, raw);
		if (token) return { token };
	}
	const legacy = legacySessionCookie(ctx.cookies);
	if (!legacy) return undefined;
	for (const raw of chunkedValues(requestCookies, legacy.name)) {
		const token = await decodeSessionToken(ctx, raw, legacy.name);
		if (token) return { token, legacy };
	}
	return undefined;
}

/** Deletes every session cookie the request carried: whole, chunks, and Auth.js's `__Secure-` one. */
function clearSessionCookies(ctx: AuthContext, requestCookies: Record<string, string>): Cookie[] {
	const { name, options } = ctx.cookies.sessionToken;
	const legacy = legacySessionCookie(ctx.cookies);
	return [...clearChunked(name, options, requestCookies), ...(legacy ? clearChunked(legacy.name, legacy.options, requestCookies) : [])];
}

/**
 * When the token's session started, in seconds, for its absolute lifetime: the sign-in time
 * (`auth_time`), or for a token made without one (by Auth.js) the start kitauth recorded when it
 * first read it (`kitauth_session_start`, taken from the token's `iat`). Only `auth_time` counts as
 * a sign-in (sudo mode); the other only bounds the lifetime.
 */
function sessionStart(token: JWT): number | undefined {
	if (typeof token.auth_time === 'number') return token.auth_time;
	return typeof token.kitauth_session_start === 'number' ? token.kitauth_session_start : undefined;
}

/** When the token's session must end however active it is (`absoluteMaxAge`), in seconds; none without one. */
function absoluteEnd(ctx: AuthContext, start: number | undefined): number | undefined {
	const { absoluteMaxAge } = ctx.options.session;
	return absoluteMaxAge && start !== undefined ? start + absoluteMaxAge : undefined;
}

/**
 * Reads a JWT session: one decrypt, the `jwt` and `session` callbacks, and a new cookie only when
 * one is due (`updateAge` since it was issued), when the `jwt` callback changed the token, on an
 * update, or to move Auth.js's cookie to kitauth's name. A token past its absolute lifetime, or
 * issued before the user's sessions were ended (`endSessionsOf`, with a cutoff store), reads as no
 * session and its cookie is cleared; so is one that opens nothing, unless another cookie did.
 */
async function readJwtSession(
	ctx: AuthContext,
	hooks: JwtHooks,
	requestCookies: Record<string, string>,
	update?: { data: unknown }
): Promise<SessionRead> {
	const opened = await openSessionCookie(ctx, requestCookies);
	if (!opened) {
		const cookies = clearSessionCookies(ctx, requestCookies);
		if (cookies.length) ctx.options.logger.debug('session token unreadable (malformed, foreign or expired)');
		return { session: null, cookies };
	}
	const decoded = opened.token;
	// The sign-in time and factors are the core's, not the callbacks': kept as sealed, whatever they return.
	const authTime = typeof decoded.auth_time === 'number' ? decoded.auth_time : undefined;
	const factors = sealedFactors(decoded);
	// A token without a recorded start (Auth.js's) starts its absolute lifetime when it was issued,
	// recorded from now on: replaying the original later finds the same start.
	const sealedStart = sessionStart(decoded);
	const iat = typeof decoded.iat === 'number' ? Math.min(decoded.iat, now()) : now();
	const start = sealedStart ?? (ctx.options.session.absoluteMaxAge ? iat : undefined);
	const hardEnd = absoluteEnd(ctx, start);
	if (hardEnd !== undefined && hardEnd <= now()) {
		ctx.options.logger.debug('session past its absolute lifetime');
		return { session: null, cookies: clearSessionCookies(ctx, requestCookies) };
	}
	if (typeof decoded.sub === 'string' && revokedBy(decoded.iat, await sessionCutoff(ctx, decoded.sub))) {
		ctx.options.logger.debug("session token issued before the user's sessions were ended");
		return { session: null, cookies: clearSessionCookies(ctx, requestCookies) };
	}

	const { callbacks, session: sessionOptions } = ctx.options;
	// Snapshot first: callbacks often edit the token in place and return the same object. The
	// default callback edits nothing, so only a refresh (a new object) can change the token.
	const before = callbacks.jwt === defaultJwtCallback ? undefined : JSON.stringify(decoded);
	const token = await callbacks.jwt({
		token: await hooks.refresh(ctx, decoded),
		...(update ? { trigger: 'update' as const, session: update.data } : {})
	});
	if (!token) return { session: null, cookies: clearSessionCookies(ctx, requestCookies) };

	const changed = before === undefined ? token !== decoded : JSON.stringify(token) !== before;
	const due = now() - (decoded.iat ?? 0) >= sessionOptions.updateAge;
	const moved = opened.legacy !== undefined || start !== sealedStart;
	let cookies: Cookie[] = [];
	let exp = typeof decoded.exp === 'number' ? decoded.exp : now() + ctx.options.jwt.maxAge;
	if (update || changed || due || moved) {
		const kept = authTime === undefined && start !== undefined ? { kitauth_session_start: start } : {};
		const issued = await writeJwtCookies(ctx, { ...token, auth_time: authTime, amr: factors, ...kept }, requestCookies);
		const legacy = opened.legacy;
		cookies = [...issued.cookies, ...(legacy ? clearChunked(legacy.name, legacy.options, requestCookies) : [])];
		exp = issued.exp;
	}
	const session = withFactors(clientSession(await callbacks.session({ session: defaultSession(token, exp), token })), factors);
	await ctx.options.events.session?.({ session, token });
	return { session, cookies, token, ...(authTime !== undefined ? { authTime } : {}) };
}

/** The factors a token's sign-in proved (`amr`), as sealed: strings only. */
function sealedFactors(token: JWT): string[] | undefined {
	const { amr } = token;
	return Array.isArray(amr) && amr.length && amr.every((factor) => typeof factor === 'string') ? amr : undefined;
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
	const issuedAt = now();
	// Idle lifetime, cut short by the absolute one.
	const exp = Math.min(issuedAt + ctx.options.jwt.maxAge, absoluteEnd(ctx, sessionStart(token)) ?? Infinity);
	const value = await encodeSessionToken(ctx, token, Math.max(1, exp - issuedAt));
	if (value.length > 3936) ctx.options.logger.debug('CHUNKING_SESSION_COOKIE');
	return { cookies: writeChunked(name, value, { ...options, expires: new Date(exp * 1000) }, requestCookies), exp };
}

/**
 * Issues the session token of a completed sign-in (the `jwt` callback decides its claims): always
 * a new token (a new `jti`, `iat` and `auth_time`), replacing any the browser had, Auth.js's too.
 */
async function startJwtSession(ctx: AuthContext, hooks: JwtHooks, start: SessionStart): Promise<Cookie[]> {
	const { user, account, profile, isNewUser, requestCookies } = start;
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
	if (!token) return clearSessionCookies(ctx, requestCookies);
	// `auth_time` (as in OIDC): when the user signed in, for "sudo mode" (recent sign-in checks) and
	// the absolute lifetime; `amr` (as in OIDC): what the sign-in proved (`session.factors`).
	const amr = start.factors?.length ? { amr: start.factors } : {};
	const issued = await writeJwtCookies(ctx, { ...token, auth_time: now(), ...amr }, requestCookies);
	const legacy = legacySessionCookie(ctx.cookies);
	return [...issued.cookies, ...(legacy ? clearChunked(legacy.name, legacy.options, requestCookies) : [])];
}

/** Ends a JWT session: its cookies go, and the `signOut` event sees the token it carried. */
async function endJwtSession(ctx: AuthContext, requestCookies: Record<string, string>): Promise<Cookie[]> {
	const opened = await openSessionCookie(ctx, requestCookies);
	await ctx.options.events.signOut?.({ token: opened?.token ?? null });
	return clearSessionCookies(ctx, requestCookies);
}

async function jwtUserId(ctx: AuthContext, requestCookies: Record<string, string>): Promise<string | undefined> {
	const token = (await openSessionCookie(ctx, requestCookies))?.token;
	if (typeof token?.sub !== 'string') return undefined;
	const hardEnd = absoluteEnd(ctx, sessionStart(token) ?? (typeof token.iat === 'number' ? token.iat : undefined));
	if (hardEnd !== undefined && hardEnd <= now()) return undefined;
	return revokedBy(token.iat, await sessionCutoff(ctx, token.sub)) ? undefined : token.sub;
}

/**
 * Re-issues the request's JWT session as it is (a new `iat`): after its user's other sessions were
 * revoked at this moment, this one stays. `[]` when the request has no session.
 */
async function reissueJwtSession(ctx: AuthContext, requestCookies: Record<string, string>): Promise<Cookie[]> {
	const opened = await openSessionCookie(ctx, requestCookies);
	if (!opened) return [];
	const issued = await writeJwtCookies(ctx, opened.token, requestCookies);
	const legacy = opened.legacy;
	return [...issued.cookies, ...(legacy ? clearChunked(legacy.name, legacy.options, requestCookies) : [])];
}
