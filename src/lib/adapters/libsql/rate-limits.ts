/**
 * The rate limiter's counters (kitauth's `hitRateLimit`, `resetRateLimit`,
 * `deleteExpiredRateLimits`).
 *
 * A hit is ONE statement, `INSERT … ON CONFLICT DO UPDATE … RETURNING`, in one batch through the
 * guard like every other write: SQLite runs it under the database's write lock, so concurrent hits
 * from any number of processes each see their own count, and a busy database is retried by the
 * guard, never answered with a count that was not stored. Every SET expression reads the row as it
 * was before the statement, so the window test is the same in both assignments.
 */
import { eq, inArray, lte, sql } from 'drizzle-orm';
import type { Adapter } from '../../core/types/adapter.js';
import type { AdapterContext } from './context.js';
import { LibSQLAdapterError } from './errors.js';
import { single } from './rows.js';

const SWEEP_CHUNK = 1000;

type RateLimitMethods = Required<Pick<Adapter, 'hitRateLimit' | 'resetRateLimit' | 'deleteExpiredRateLimits'>>;

export function rateLimitMethods({ db, client, tables, guard }: AdapterContext): RateLimitMethods {
	const counters = tables.rateLimitsTable;

	return {
		hitRateLimit: (key, windowMs, now) =>
			guard.run('hitRateLimit', async () => {
				if (!Number.isSafeInteger(now) || !Number.isFinite(windowMs) || windowMs <= 0) {
					throw new LibSQLAdapterError('hitRateLimit', 'INVALID_ARGUMENT', 'now and windowMs must be integer milliseconds');
				}
				const resetAt = now + Math.ceil(windowMs);
				const ended = sql`${counters.resetAt} <= ${now}`;
				// A counter lost to a power cut costs nothing: no fsync per hit (see `Durability`).
				const [rows] = await client.relaxed(() => db.batch([
					db
						.insert(counters)
						.values({ key, count: 1, resetAt })
						.onConflictDoUpdate({
							target: counters.key,
							set: {
								count: sql`CASE WHEN ${ended} THEN 1 ELSE ${counters.count} + 1 END`,
								resetAt: sql`CASE WHEN ${ended} THEN ${resetAt} ELSE ${counters.resetAt} END`
							}
						})
						.returning({ count: counters.count, resetAt: counters.resetAt })
				]));
				const row = single(rows, 'hitRateLimit');
				return { count: Number(row['count']), resetAt: Number(row['resetAt']) };
			}),

		resetRateLimit: (key) =>
			guard.run('resetRateLimit', async () => {
				await client.relaxed(() => db.batch([db.delete(counters).where(eq(counters.key, key))]));
			}),

		// In chunks: one statement deleting an attack's worth of rows would hold the write lock (and
		// every sign-in behind it) for as long as it takes.
		deleteExpiredRateLimits: async (now) => {
			let total = 0;
			for (;;) {
				const removed = await guard.run('deleteExpiredRateLimits', async () => {
					const expired = db
						.select({ key: counters.key })
						.from(counters)
						.where(lte(counters.resetAt, now))
						.limit(SWEEP_CHUNK);
					const [result] = await db.batch([db.delete(counters).where(inArray(counters.key, expired))]);
					return result.rowsAffected;
				});
				total += removed;
				if (removed < SWEEP_CHUNK) return total;
			}
		}
	};
}
