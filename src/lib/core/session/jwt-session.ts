import type { AuthContext } from '../context.js';
import { clientSession, withFactors } from './client-session.js';
import { clearedSession } from './jar.js';
import { defaultJwtCallback } from './default-callbacks.js';
import { now } from './jwt.js';
import { revokedBy, sessionCutoff } from './revocation.js';
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
export function createJwtStrategy(hooks: JwtHooks): JwtStrategy<AuthContext> {
	return {
		kind: 'jwt',
		read: (ctx, update) => readJwtSession(ctx, hooks, update),
		start: (ctx, start) => startJwtSession(ctx, hooks, start),
		end: endJwtSession,
		userId: jwtUserId,
		clearCookies: cleared,
		reissue: reissueJwtSession
	};
}

/** A session token that opened, and whether it came in Auth.js's cookie (then it moves to kitauth's). */
interface Opened {
	token: JWT;
	legacy: boolean;
}

/**
 * Opens the request's session cookie, trying its values in the jar's order (a planted or stale
 * chunk set never hides a valid cookie; Auth.js's cookie comes last), each under the key of the
 * name it came in. The first that opens wins; what does not open is left alone.
 */
async function openSessionCookie(ctx: AuthContext): Promise<Opened | undefined> {
	for (const { value, name, legacy } of ctx.jar.sessionValues()) {
		const token = await decodeSessionToken(ctx, value, name);
		if (token) return { token, legacy };
	}
	return undefined;
}

/** Deletes every session cookie the request carried, and answers the cookies to set. */
const cleared = (ctx: AuthContext): Cookie[] => clearedSession(ctx.jar);

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
 * Where the token's absolute lifetime starts: its recorded start ({@link sessionStart}), else (a
 * token Auth.js issued, with `absoluteMaxAge` set) when it was issued — no later than now.
 */
function lifetimeStart(ctx: AuthContext, token: JWT): number | undefined {
	const sealed = sessionStart(token);
	if (sealed !== undefined || !ctx.options.session.absoluteMaxAge) return sealed;
	return typeof token.iat === 'number' ? Math.min(token.iat, now()) : now();
}

/**
 * The one liveness check of JWT sessions, for a token that opened (so within its `exp`): why it is
 * no session any more — past its absolute lifetime, or issued before the user's sessions were
 * ended (`endSessionsOf`, with a cutoff store) — or `undefined` while it lives.
 */
async function deadToken(ctx: AuthContext, token: JWT, start: number | undefined): Promise<string | undefined> {
	const hardEnd = absoluteEnd(ctx, start);
	if (hardEnd !== undefined && hardEnd <= now()) return 'session past its absolute lifetime';
	if (typeof token.sub === 'string' && revokedBy(token.iat, await sessionCutoff(ctx, token.sub))) {
		return "session token issued before the user's sessions were ended";
	}
	return undefined;
}

/**
 * Reads a JWT session: one decrypt, the `jwt` and `session` callbacks, and a new cookie only when
 * one is due (`updateAge` since it was issued), when the `jwt` callback changed the token, on an
 * update, or to move Auth.js's cookie to kitauth's name. A token past its absolute lifetime, or
 * issued before the user's sessions were ended (`endSessionsOf`, with a cutoff store), reads as no
 * session and its cookie is cleared; so is one that opens nothing, unless another cookie did.
 */
async function readJwtSession(ctx: AuthContext, hooks: JwtHooks, update?: { data: unknown }): Promise<SessionRead> {
	const opened = await openSessionCookie(ctx);
	if (!opened) {
		const cookies = cleared(ctx);
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
	const start = lifetimeStart(ctx, decoded);
	const dead = await deadToken(ctx, decoded, start);
	if (dead) {
		ctx.options.logger.debug(dead);
		return { session: null, cookies: cleared(ctx) };
	}

	const { callbacks, session: sessionOptions } = ctx.options;
	// Snapshot first: callbacks often edit the token in place and return the same object. The
	// default callback edits nothing, so only a refresh (a new object) can change the token.
	const before = callbacks.jwt === defaultJwtCallback ? undefined : JSON.stringify(decoded);
	const token = await callbacks.jwt({
		token: await hooks.refresh(ctx, decoded),
		...(update ? { trigger: 'update' as const, session: update.data } : {})
	});
	if (!token) return { session: null, cookies: cleared(ctx) };

	const changed = before === undefined ? token !== decoded : JSON.stringify(token) !== before;
	const due = now() - (decoded.iat ?? 0) >= sessionOptions.updateAge;
	const moved = opened.legacy || start !== sealedStart;
	let exp = typeof decoded.exp === 'number' ? decoded.exp : now() + ctx.options.jwt.maxAge;
	if (update || changed || due || moved) {
		const kept = authTime === undefined && start !== undefined ? { kitauth_session_start: start } : {};
		exp = await writeJwtCookies(ctx, { ...token, auth_time: authTime, amr: factors, ...kept });
	}
	const cookies = ctx.jar.take();
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

/** Seals `token` into the session cookie (in the jar, replacing every other form); its `exp`. */
async function writeJwtCookies(ctx: AuthContext, token: JWT): Promise<number> {
	const issuedAt = now();
	// Idle lifetime, cut short by the absolute one.
	const exp = Math.min(issuedAt + ctx.options.jwt.maxAge, absoluteEnd(ctx, sessionStart(token)) ?? Infinity);
	const value = await encodeSessionToken(ctx, token, Math.max(1, exp - issuedAt));
	if (value.length > 3936) ctx.options.logger.debug('CHUNKING_SESSION_COOKIE');
	ctx.jar.setSession(value, new Date(exp * 1000));
	return exp;
}

/**
 * Issues the session token of a completed sign-in (the `jwt` callback decides its claims): always
 * a new token (a new `jti`, `iat` and `auth_time`), replacing any the browser had, Auth.js's too.
 */
async function startJwtSession(ctx: AuthContext, hooks: JwtHooks, start: SessionStart): Promise<Cookie[]> {
	const { user, account, profile, isNewUser } = start;
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
	if (!token) return cleared(ctx);
	// `auth_time` (as in OIDC): when the user signed in, for "sudo mode" (recent sign-in checks) and
	// the absolute lifetime; `amr` (as in OIDC): what the sign-in proved (`session.factors`).
	const amr = start.factors?.length ? { amr: start.factors } : {};
	await writeJwtCookies(ctx, { ...token, auth_time: now(), ...amr });
	return ctx.jar.take();
}

/** Ends a JWT session: its cookies go, and the `signOut` event sees the token it carried. */
async function endJwtSession(ctx: AuthContext): Promise<Cookie[]> {
	const opened = await openSessionCookie(ctx);
	await ctx.options.events.signOut?.({ token: opened?.token ?? null });
	return cleared(ctx);
}

async function jwtUserId(ctx: AuthContext): Promise<string | undefined> {
	const token = (await openSessionCookie(ctx))?.token;
	if (typeof token?.sub !== 'string') return undefined;
	return (await deadToken(ctx, token, lifetimeStart(ctx, token))) ? undefined : token.sub;
}

/**
 * Re-issues the request's JWT session as it is (a new `iat`): after its user's other sessions were
 * revoked at this moment, this one stays. `[]` when the request has no session.
 */
async function reissueJwtSession(ctx: AuthContext): Promise<Cookie[]> {
	const opened = await openSessionCookie(ctx);
	if (!opened) return [];
	await writeJwtCookies(ctx, opened.token);
	return ctx.jar.take();
}
