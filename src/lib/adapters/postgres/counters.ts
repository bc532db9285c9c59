/**
 * The rate limiter's counters in PostgreSQL. Increment-with-expiry is ONE statement, `INSERT …
 * ON CONFLICT DO UPDATE … RETURNING`: PostgreSQL locks the row for it, so concurrent hits from
 * any number of processes each get their own count, and its SET expressions read the row as it
 * was before the statement. An attempt's address and account are one statement too (two such
 * upserts in data-modifying CTEs, the second only while the first's count is within its limit).
 * A refund is one conditional UPDATE.
 * Built by drizzle once; each call binds its values.
 */
import { and, eq, fillPlaceholders, gt, inArray, lte, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { CounterRow, CounterStatements } from '../shared/statements.js';
import type { PgExec } from './exec.js';
import type { PostgresTables } from './tables.js';

const SWEEP_CHUNK = 1000;
const dialect = new PgDialect();

export function pgCounters({ db, query, run }: PgExec, counters: PostgresTables['rateLimitsTable']): CounterStatements {
	const column = (c: { name: string }) => sql.identifier(c.name);
	const upsert = (key: string, resetAt: string) => {
		const ended = sql`${counters.resetAt} <= ${sql.placeholder('now')}`;
		return sql`INSERT INTO ${counters} (${column(counters.key)}, ${column(counters.count)}, ${column(counters.resetAt)})
			VALUES (${sql.placeholder(key)}, 1, ${sql.placeholder(resetAt)})
			ON CONFLICT (${column(counters.key)}) DO UPDATE SET
			${column(counters.count)} = CASE WHEN ${ended} THEN 1 ELSE ${counters.count} + 1 END,
			${column(counters.resetAt)} = CASE WHEN ${ended} THEN excluded.${column(counters.resetAt)} ELSE ${counters.resetAt} END
			RETURNING ${column(counters.count)}, ${column(counters.resetAt)}`;
	};
	const hit = dialect.sqlToQuery(upsert('key', 'resetAt'));
	// `b` inserts from `a`'s row only, and only while `a`'s count is within the limit: the VALUES
	// of its upsert become a SELECT from `a` (whose values need their types said).
	const second = sql`INSERT INTO ${counters} (${column(counters.key)}, ${column(counters.count)}, ${column(counters.resetAt)})
		SELECT ${sql.placeholder('secondKey')}::text, 1, ${sql.placeholder('secondResetAt')}::bigint FROM a WHERE a.${column(counters.count)} <= ${sql.placeholder('firstLimit')}::numeric
		ON CONFLICT (${column(counters.key)}) DO UPDATE SET
		${column(counters.count)} = CASE WHEN ${counters.resetAt} <= ${sql.placeholder('now')} THEN 1 ELSE ${counters.count} + 1 END,
		${column(counters.resetAt)} = CASE WHEN ${counters.resetAt} <= ${sql.placeholder('now')} THEN excluded.${column(counters.resetAt)} ELSE ${counters.resetAt} END
		RETURNING ${column(counters.count)}, ${column(counters.resetAt)}`;
	const pair = dialect.sqlToQuery(
		sql`WITH a AS (${upsert('key', 'resetAt')}), b AS (${second})
		SELECT a.${column(counters.count)}, a.${column(counters.resetAt)}, b.${column(counters.count)}, b.${column(counters.resetAt)} FROM a LEFT JOIN b ON true`
	);
	// A refund: one UPDATE whose WHERE names the hit's window (so it never takes from a window that
	// started since), under the row lock the hits take too.
	const release = db
		.update(counters)
		.set({ count: sql`${counters.count} - 1` })
		.where(and(eq(counters.key, sql.placeholder('key')), eq(counters.resetAt, sql.placeholder('resetAt')), gt(counters.count, 0)))
		.toSQL();
	const reset = db.delete(counters).where(eq(counters.key, sql.placeholder('key'))).toSQL();
	const values = (compiled: { params: unknown[] }, given: Record<string, string | number>) => fillPlaceholders(compiled.params, given);
	const row = (values: unknown[] | undefined, at = 0): CounterRow | undefined =>
		values && values[at] !== null ? { count: values[at], resetAt: values[at + 1] } : undefined;

	return {
		hitCounter: ({ key, resetAt }, now) => run('hitRateLimit', async () => row((await query(hit.sql, values(hit, { key, resetAt, now })))[0])),
		hitCounterPair: (first, next, now) =>
			run('hitRateLimitPair', async () => {
				const given = { key: first.key, resetAt: first.resetAt, now, secondKey: next.key, secondResetAt: next.resetAt, firstLimit: next.firstLimit };
				const [both] = await query(pair.sql, values(pair, given));
				return [row(both), row(both, 2)];
			}),
		releaseCounter: (key, resetAt) =>
			run('releaseRateLimit', async () => {
				await query(release.sql, values(release, { key, resetAt }));
			}),
		resetCounter: (key) =>
			run('resetRateLimit', async () => {
				await query(reset.sql, values(reset, { key }));
			}),
		// In chunks: one statement deleting an attack's worth of rows would hold its locks (and the
		// sign-ins waiting on them) for as long as it takes.
		sweepCounters: async (now) => {
			let total = 0;
			for (;;) {
				const removed = await run('deleteExpiredRateLimits', async () => {
					const expired = db.select({ key: counters.key }).from(counters).where(lte(counters.resetAt, now)).limit(SWEEP_CHUNK);
					return (await db.delete(counters).where(inArray(counters.key, expired)).returning({ key: counters.key })).length;
				});
				total += removed;
				if (removed < SWEEP_CHUNK) return total;
			}
		}
	};
}
