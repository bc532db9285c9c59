/**
 * Ending every session of a user (ASVS 7.4.2, 7.4.3, 7.4.5): after a password, email or passkey
 * change, for "sign out everywhere", or from an admin tool.
 *
 * - Database sessions: the rows go (`deleteSessionsByUserId`), at once, everywhere.
 * - JWT sessions: with an adapter that stores session cutoffs (`setSessionsValidAfter`, kitauth's
 *   libSQL adapter), every token issued before now stops opening (see `revocation.ts`: at once in
 *   this process, within `session.revocationCheckInterval` seconds in others). Without one, nothing
 *   outside the asking browser can be ended: its cookie is cleared, the others live until they
 *   expire, the result says `jwtRevoked: false`, and a warning is logged.
 *
 * "All but this one" keeps the asking session: a database row is spared; a JWT session is
 * re-issued (a new `iat`) after the cutoff, so its new cookie must be set on the response.
 */
import { need } from '../adapter.js';
import type { AuthContext } from '../context.js';
import type { CredentialChange } from '../types/config.js';
import type { Cookie } from '../types/internal.js';
import { revokeTokensBefore } from './revocation.js';
import type { SessionRead } from './types.js';

export interface SessionsEnded {
	/** Database sessions deleted. */
	deleted: number;
	/** JWT sessions: whether every token issued before now stopped opening (needs a cutoff store). */
	jwtRevoked: boolean;
	/**
	 * Cookies to set on the response: the asking session's cookie cleared (`all`), or re-issued
	 * (JWT, `others`). Integrations apply them; kitauth's SvelteKit edge does.
	 */
	cookies: Cookie[];
}

/** The request whose session is asking (its cookies are the context's), when there is one. */
export interface AskingSession {
	read: SessionRead;
}

/** Ends `scope` of the user's sessions: `all`, or `others` (all but `asking`'s). */
export async function endUserSessions(
	ctx: AuthContext,
	userId: string,
	scope: 'all' | 'others',
	asking?: AskingSession
): Promise<SessionsEnded> {
	const strategy = ctx.options.strategy;
	const mine = asking !== undefined && ownSession(asking, userId) ? asking : undefined;
	if (strategy.kind === 'database') {
		const store = need(strategy.adapter, 'deleteSessionsByUserId');
		const keep = scope === 'others' && mine ? mine.read.key : undefined;
		const deleted = await store.deleteSessionsByUserId(userId, keep);
		const cookies = scope === 'all' && mine ? strategy.clearCookies(ctx) : [];
		return { deleted, jwtRevoked: false, cookies };
	}
	const jwtRevoked = await revokeTokensBefore(ctx, userId, Date.now());
	if (!jwtRevoked) ctx.options.logger.warn('jwt-sessions-not-revocable');
	let cookies: Cookie[] = [];
	if (mine && scope === 'all') cookies = strategy.clearCookies(ctx);
	else if (mine && jwtRevoked) cookies = await strategy.reissue(ctx);
	return { deleted: 0, jwtRevoked, cookies };
}

/**
 * A credential of the user changed: ends their sessions as `session.endOnCredentialChange` says
 * (default: all but the asking one; all when nobody asks, e.g. a password reset by link), or as
 * `override` says, then emits `credentialsChanged`.
 */
export async function credentialsChanged(
	ctx: AuthContext,
	userId: string,
	change: CredentialChange,
	asking?: AskingSession,
	override?: 'others' | 'all' | 'none'
): Promise<SessionsEnded> {
	const configured = ctx.options.session.endOnCredentialChange ?? 'others';
	let scope: 'all' | 'others' | 'none' = override ?? (configured === false ? 'none' : configured);
	if (scope === 'others' && !(asking && ownSession(asking, userId))) scope = 'all';
	const ended = scope === 'none' ? { deleted: 0, jwtRevoked: false, cookies: [] } : await endUserSessions(ctx, userId, scope, asking);
	// Browsers remembered for the second factor are forgotten too, whatever ends: a changed
	// credential (a password reset after a theft) must not leave a thief's browser skipping it.
	await ctx.options.twoFactor?.store.forgetTwoFactorDevices(userId, new Date());
	await ctx.options.events.credentialsChanged?.({ userId, change, ended: scope, deleted: ended.deleted, jwtRevoked: ended.jwtRevoked });
	return ended;
}

/** The id of the user a session read is signed in as (database: the stored user; JWT: `sub`). */
export function sessionUserId(read: SessionRead): string | undefined {
	if (!read.session) return undefined;
	if (read.user) return read.user.id;
	return typeof read.token?.sub === 'string' ? read.token.sub : undefined;
}

function ownSession(asking: AskingSession, userId: string): boolean {
	return sessionUserId(asking.read) === userId;
}
