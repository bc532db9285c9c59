import { sha256 } from '../crypto/index.js';
import type { AuthContext } from '../context.js';
import { AdapterError } from '../errors.js';
import type { Cookie } from '../types/internal.js';
import type { AdapterSession } from '../types/models.js';
import { clientSession, withFactors } from './client-session.js';
import { clearedSession } from './jar.js';
import type { DatabaseStrategy, SessionAdapter } from './strategy.js';
import type { SessionRead, SessionStart } from './types.js';

/** Longest session cookie worth a database lookup; anything longer is garbage. */
const MAX_TOKEN_LENGTH = 512;

/**
 * What the database stores for a session token: its SHA-256 (default), so a leaked table holds no
 * usable session; the raw token itself only with `session.hashTokens: false` (Auth.js tables).
 */
export async function storedSessionKey(ctx: AuthContext, token: string): Promise<string> {
	return ctx.options.session.hashTokens ? sha256(token, 'hex') : token;
}

/**
 * What a stored hash looks like: 64 hex digits (any case, for databases that compare without it).
 * A cookie of that shape is never looked up as it is: with hashing on, the table holds such hashes,
 * and a leaked table's hashes must not work as cookies.
 */
const STORED_HASH = /^[0-9a-f]{64}$/i;

/**
 * The other key a cookie's session may be stored under, in the form `hashTokens` does not use:
 * - hashing on: the token itself, where Auth.js wrote the session — whatever its shape (its
 *   default `randomUUID()`, or an app's own `generateSessionToken`), except one shaped like our
 *   hashes. So a cookie that is neither ours nor a session costs two lookups (ours, 64 hex, one).
 * - hashing off (a rollout beside Auth.js, or the way back to it): the token's hash, where kitauth
 *   stored it with hashing on.
 */
async function otherKey(ctx: AuthContext, raw: string): Promise<string | undefined> {
	if (!ctx.options.session.hashTokens) return sha256(raw, 'hex');
	return STORED_HASH.test(raw) ? undefined : raw;
}

/**
 * The session of a cookie and the key it is stored under: by its key in the current form, else by
 * the other form (`otherKey`) — then moved to the current form in place (`rekeySession`, one
 * atomic update: no sign-out, no duplicate; a concurrent request that moved it first leaves it
 * found under the new key). So sessions Auth.js wrote move to their hash, and with
 * `hashTokens: false` hashed ones move back to the token, which Auth.js can read again. Adapters
 * without `rekeySession` keep such rows as they are, still readable.
 */
async function findSession(ctx: AuthContext, adapter: SessionAdapter, raw: string) {
	const key = await storedSessionKey(ctx, raw);
	const found = await adapter.getSessionAndUser(key);
	if (found) return { key, found };
	const other = await otherKey(ctx, raw);
	const old = other === undefined ? null : await adapter.getSessionAndUser(other);
	if (!old || other === undefined) return undefined;
	if (!adapter.rekeySession) return { key: other, found: old };
	const moved = await adapter.rekeySession(other, key);
	return { key, found: moved ? { session: moved, user: old.user } : old };
}

/** Deletes a cookie's session wherever it is stored; the deleted row, when the adapter says. */
async function deleteSession(ctx: AuthContext, adapter: SessionAdapter, raw: string) {
	const deleted = await adapter.deleteSession(await storedSessionKey(ctx, raw));
	const other = await otherKey(ctx, raw);
	return deleted || other === undefined ? deleted : adapter.deleteSession(other);
}

/** Deletes every session cookie the request carried, and answers the cookies to set. */
const cleared = (ctx: AuthContext): Cookie[] => clearedSession(ctx.jar);

/**
 * The session tokens the request carries, in the jar's order: kitauth's cookie first, then (on
 * https) Auth.js's `__Secure-` one, which a read moves to kitauth's `__Host-` cookie. A database
 * session's token fits one cookie, so chunks are never one; garbage (too long to be a token) is
 * never looked up.
 */
function tokensOf(ctx: AuthContext): { raw: string; legacy: boolean }[] {
	return ctx.jar
		.sessionValues()
		.filter((value) => !value.chunked && value.value.length <= MAX_TOKEN_LENGTH)
		.map(({ value, legacy }) => ({ raw: value, legacy }));
}

/** Does the request carry a session cookie (kitauth's or Auth.js's), readable or not? */
function carriesSession(ctx: AuthContext): boolean {
	return ctx.jar.sessionValues().some((value) => !value.chunked);
}

/** The first of the request's session tokens with a stored session. */
async function findRequestSession(ctx: AuthContext, adapter: SessionAdapter) {
	for (const candidate of tokensOf(ctx)) {
		const stored = await findSession(ctx, adapter, candidate.raw);
		if (stored) return { ...stored, ...candidate };
	}
	return undefined;
}

/** When a session must end regardless of activity (`absoluteMaxAge`), if it has one. */
function absoluteEnd(ctx: AuthContext, session: AdapterSession): number | undefined {
	const { absoluteMaxAge } = ctx.options.session;
	if (!absoluteMaxAge || !session.createdAt) return undefined;
	return session.createdAt.getTime() + absoluteMaxAge * 1000;
}

/**
 * The one liveness check of database sessions: is the stored session neither expired nor past its
 * absolute lifetime at `now` (ms)? (A deleted, revoked one is not found at all.)
 */
export function sessionAlive(ctx: AuthContext, session: AdapterSession, now: number): boolean {
	const hardEnd = absoluteEnd(ctx, session);
	return session.expires.getTime() > now && (hardEnd === undefined || hardEnd > now);
}

/** Database sessions in `adapter`: a row per session, the cookie carries a random token. */
export function createDatabaseStrategy(adapter: SessionAdapter): DatabaseStrategy<AuthContext> {
	return {
		kind: 'database',
		adapter,
		read: (ctx, update) => readDatabaseSession(ctx, adapter, update),
		start: (ctx, start) => startDatabaseSession(ctx, adapter, start),
		end: (ctx) => endDatabaseSession(ctx, adapter),
		userId: (ctx) => databaseUserId(ctx, adapter),
		clearCookies: cleared
	};
}

/**
 * Reads a database session: one `getSessionAndUser` lookup (a cookie that is no session costs at
 * most two indexed queries, see `otherKey`). Expired or past its absolute lifetime → deleted, cookie cleared, `null`.
 * Otherwise `expires` slides by `maxAge` at most once per `updateAge`, and only then is the cookie
 * re-issued.
 */
export async function readDatabaseSession(ctx: AuthContext, adapter: SessionAdapter, update?: { data: unknown }): Promise<SessionRead> {
	if (!carriesSession(ctx)) return { session: null, cookies: [] };
	const stored = await findRequestSession(ctx, adapter);
	if (!stored) return { session: null, cookies: cleared(ctx) };
	const { key, found, raw, legacy } = stored;

	const now = Date.now();
	if (!sessionAlive(ctx, found.session, now)) {
		await adapter.deleteSession(key);
		return { session: null, cookies: cleared(ctx) };
	}
	const hardEnd = absoluteEnd(ctx, found.session);

	const { maxAge, updateAge } = ctx.options.session;
	let expires = found.session.expires;
	const lastExtended = expires.getTime() - maxAge * 1000;
	// Once the expiry sits at the absolute end there is nothing left to extend.
	const capped = hardEnd !== undefined && expires.getTime() >= hardEnd;
	if (!capped && lastExtended + updateAge * 1000 <= now) {
		expires = new Date(Math.min(now + maxAge * 1000, hardEnd ?? Infinity));
		await adapter.updateSession({ sessionToken: key, expires });
		ctx.jar.setSession(raw, expires);
	}
	// Auth.js's `__Secure-` cookie: the same token moves to kitauth's `__Host-` cookie, once.
	else if (legacy) ctx.jar.setSession(raw, expires);
	const cookies = ctx.jar.take();
	// As Auth.js: the stored session with its user (its `expires` as extended by this read).
	const session = withFactors(clientSession(
		await ctx.options.callbacks.session({
			session: { ...found.session, expires, user: found.user },
			user: found.user,
			...(update ? { trigger: 'update' as const, newSession: update.data } : {})
		})
	), found.session.factors);
	await ctx.options.events.session?.({ session });
	// Every sign-in (re-authentication included) starts a new session row, so its creation is the
	// time the user last proved who they are.
	const created = found.session.createdAt?.getTime();
	return { session, cookies, user: found.user, key, ...(created ? { authTime: Math.floor(created / 1000) } : {}) };
}

/**
 * Creates the session row of a completed sign-in and sets its cookie. The token has 256 random
 * bits (default generator); only its hash is stored. A session the browser already had is ended
 * first: a new sign-in always gets a new token (no session fixation).
 */
async function startDatabaseSession(ctx: AuthContext, adapter: SessionAdapter, start: SessionStart): Promise<Cookie[]> {
	for (const previous of tokensOf(ctx)) await deleteSession(ctx, adapter, previous.raw);
	const token = ctx.options.session.generateSessionToken();
	const now = new Date();
	const { maxAge, absoluteMaxAge } = ctx.options.session;
	const expires = new Date(now.getTime() + Math.min(maxAge, absoluteMaxAge ?? Infinity) * 1000);
	const sessionToken = await storedSessionKey(ctx, token);
	// A client that gave up gets no session: none is stored for it (an adapter that may wait, as
	// kitauth's libSQL one does on a locked database, also gives up when the signal aborts).
	if (ctx.signal?.aborted) throw new AdapterError('The client gave up before its session was stored; none was created');
	await adapter.createSession(
		{ sessionToken, userId: start.user.id, expires, createdAt: now, userAgent: start.userAgent?.slice(0, 256) ?? null, factors: start.factors ?? null },
		{ signal: ctx.signal }
	);
	ctx.jar.setSession(token, expires);
	return ctx.jar.take();
}

/** Ends a database session: the row and the cookie go; `signOut` sees the deleted session. */
async function endDatabaseSession(ctx: AuthContext, adapter: SessionAdapter): Promise<Cookie[]> {
	let session: AdapterSession | null | undefined | void = null;
	let tried = false;
	for (const { raw } of tokensOf(ctx)) {
		// What the adapter answers (some answer nothing), unless a later cookie's row is found.
		const deleted = await deleteSession(ctx, adapter, raw);
		if (!tried || deleted) session = deleted;
		tried = true;
	}
	await ctx.options.events.signOut?.({ session });
	return cleared(ctx);
}

async function databaseUserId(ctx: AuthContext, adapter: SessionAdapter): Promise<string | undefined> {
	const found = (await findRequestSession(ctx, adapter))?.found;
	return found && sessionAlive(ctx, found.session, Date.now()) ? found.user.id : undefined;
}
