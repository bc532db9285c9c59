/**
 * Ending sessions a server cannot see. A database session is a row: deleting it ends it. A JWT
 * session lives only in the browser, so "end every session of this user" needs state after all: a
 * per-user cutoff (`sessionsValidAfter`) in the adapter, and tokens issued before it no longer
 * open. Without an adapter that stores cutoffs, a JWT session cannot be ended anywhere but in the
 * browser that holds it (its cookie is cleared), and lives until it expires (`maxAge`,
 * `absoluteMaxAge`).
 *
 * Reads are cached per process for `session.revocationCheckInterval` seconds (default 30), so a
 * JWT read costs a store query at most that often per user; a cutoff set through this process
 * applies here at once.
 */
import type { AuthContext } from '../context.js';
import type { Adapter } from '../types/adapter.js';

type CutoffStore = Required<Pick<Adapter, 'getSessionsValidAfter' | 'setSessionsValidAfter'>>;

const DEFAULT_INTERVAL = 30;
const MAX_CACHED = 10_000;

/** The adapter, when it stores session cutoffs (then JWT sessions can be revoked). */
export function cutoffStore(ctx: AuthContext): CutoffStore | undefined {
	const adapter = ctx.options.adapter;
	return typeof adapter?.getSessionsValidAfter === 'function' && typeof adapter.setSessionsValidAfter === 'function'
		? (adapter as CutoffStore)
		: undefined;
}

/** The user's cutoff in milliseconds since the epoch, or `null` (no store, or none set). */
export async function sessionCutoff(ctx: AuthContext, userId: string): Promise<number | null> {
	const store = cutoffStore(ctx);
	if (!store) return null;
	const cache = ctx.options.runtime.cutoffs;
	const interval = (ctx.options.session.revocationCheckInterval ?? DEFAULT_INTERVAL) * 1000;
	const now = Date.now();
	const cached = cache.get(userId);
	if (cached && now - cached.readAt < interval) return cached.at;
	const stored = await store.getSessionsValidAfter(userId);
	const at = stored ? new Date(stored).getTime() : null;
	remember(ctx, userId, Number.isFinite(at) ? at : null, now);
	return Number.isFinite(at) ? at : null;
}

/**
 * Revokes the user's JWT session tokens issued before `at` (ms). `false` when there is no cutoff
 * store (nothing could be revoked).
 */
export async function revokeTokensBefore(ctx: AuthContext, userId: string, at: number): Promise<boolean> {
	const store = cutoffStore(ctx);
	if (!store) return false;
	await store.setSessionsValidAfter(userId, new Date(at));
	const cached = ctx.options.runtime.cutoffs.get(userId);
	remember(ctx, userId, Math.max(at, cached?.at ?? -Infinity), Date.now());
	return true;
}

/**
 * Does the cutoff revoke a token issued at `iat` (seconds)? A token issued within the cutoff's own
 * second survives: the session that asked to end the others is re-issued at that moment. A token
 * without a usable `iat` is revoked by any cutoff (fail closed).
 */
export function revokedBy(iat: unknown, cutoff: number | null): boolean {
	if (cutoff === null) return false;
	return typeof iat !== 'number' || !Number.isFinite(iat) || iat < Math.floor(cutoff / 1000);
}

function remember(ctx: AuthContext, userId: string, at: number | null, readAt: number): void {
	const cache = ctx.options.runtime.cutoffs;
	cache.delete(userId);
	if (cache.size >= MAX_CACHED) {
		const oldest = cache.keys().next();
		if (!oldest.done) cache.delete(oldest.value);
	}
	cache.set(userId, { at, readAt });
}
