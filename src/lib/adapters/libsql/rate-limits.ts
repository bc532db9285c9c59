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
import { eq, fillPlaceholders, inArray, lte, sql } from 'drizzle-orm';
import type { Adapter } from '../../core/types/adapter.js';
import type { InValue } from '@libsql/client';
import type { GuardedClient } from './client.js';
import type { AdapterContext } from './context.js';
import { LibSQLAdapterError } from './errors.js';

const SWEEP_CHUNK = 1000;

type RateLimitMethods = Required<Pick<Adapter, 'hitRateLimit' | 'resetRateLimit' | 'deleteExpiredRateLimits'>>;

export function rateLimitMethods({ db, client, tables, guard }: AdapterContext): RateLimitMethods {
	const counters = tables.rateLimitsTable;
	// Built by drizzle once, run with each call's values: building the statement per call cost
	// about as much as running it (tens of µs), on every sign-in attempt.
	const now = sql.placeholder('now');
	const resetAt = sql.placeholder('resetAt');
	const ended = sql`${counters.resetAt} <= ${now}`;
	const hit = compile<'key' | 'now' | 'resetAt'>(
		client,
		db
			.insert(counters)
			.values({ key: sql.placeholder('key'), count: 1, resetAt })
			.onConflictDoUpdate({
				target: counters.key,
				set: {
					count: sql`CASE WHEN ${ended} THEN 1 ELSE ${counters.count} + 1 END`,
					resetAt: sql`CASE WHEN ${ended} THEN ${resetAt} ELSE ${counters.resetAt} END`
				}
			})
			.returning({ count: counters.count, resetAt: counters.resetAt })
	);
	const reset = compile<'key'>(client, db.delete(counters).where(eq(counters.key, sql.placeholder('key'))));

	return {
		hitRateLimit: (key, windowMs, at) =>
			guard.run('hitRateLimit', async () => {
				if (!Number.isSafeInteger(at) || !Number.isFinite(windowMs) || windowMs <= 0) {
					throw new LibSQLAdapterError('hitRateLimit', 'INVALID_ARGUMENT', 'now and windowMs must be integer milliseconds');
				}
				// A counter lost to a power cut costs nothing: no fsync per hit (see `Durability`).
				const result = await hit({ key, now: at, resetAt: at + Math.ceil(windowMs) });
				// RETURNING's columns in order: count, resetAt.
				const row = result?.rows[0];
				if (!row) throw new LibSQLAdapterError('hitRateLimit', 'UNKNOWN', 'the database returned no row');
				return { count: Number(row[0]), resetAt: Number(row[1]) };
			}),

		resetRateLimit: (key) =>
			guard.run('resetRateLimit', async () => {
				await reset({ key });
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

/**
 * A write drizzle built once with named placeholders, run as one relaxed batch (one transaction)
 * through the guarded client with each call's values.
 */
function compile<N extends string>(client: GuardedClient, query: { toSQL(): { sql: string; params: unknown[] } }) {
	const { sql: text, params } = query.toSQL();
	return async (values: Record<N, string | number>) => {
		// drizzle's own filling: each placeholder's value through its column's encoder.
		const args = fillPlaceholders(params, values) as InValue[];
		const [result] = await client.relaxed(() => client.batch([{ sql: text, args }]));
		return result;
	};
}
