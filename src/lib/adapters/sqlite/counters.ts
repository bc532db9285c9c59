/**
 * The rate limiter's counters in SQLite (libSQL, D1): the statements, built by drizzle once and
 * filled with each call's values. Building a statement per call cost about as much as running it
 * (tens of µs), on every sign-in attempt. How they run is the engine's (libSQL groups a turn's
 * hits into one transaction; D1 sends them as one batch).
 *
 * A hit is ONE statement, `INSERT … ON CONFLICT DO UPDATE … RETURNING`: SQLite runs it under the
 * database's write lock, so concurrent hits from any number of processes each see their own
 * count. Every SET expression reads the row as it was before the statement, so the window test is
 * the same in both assignments.
 */
import { and, eq, fillPlaceholders, gt, inArray, lte, sql } from 'drizzle-orm';
import { SQLiteAsyncDialect } from 'drizzle-orm/sqlite-core';
import type { CounterHit } from '../shared/statements.js';
import type { SQLiteExec, SQLiteDb } from './statements.js';
import type { SQLiteTables } from './tables.js';

const SWEEP_CHUNK = 1000;

/** Renders the raw statement below as drizzle renders its builders (placeholders kept). */
const dialect = new SQLiteAsyncDialect();

/** One statement with its values; each touches one key, so returns one row at most. */
export interface CounterStatement {
	sql: string;
	args: unknown[];
}

/**
 * The counters' statements, built once per adapter (the limiter bench also runs them bare, as
 * SQLite's own share of the limiter's cost). Each returns `count, resetAt` in that order.
 */
export function counterStatements(db: SQLiteDb, counters: SQLiteTables['rateLimitsTable']) {
	const now = sql.placeholder('now');
	const resetAt = sql.placeholder('resetAt');
	const ended = sql`${counters.resetAt} <= ${now}`;
	// An existing row's next values: a window that ended starts over.
	const nextCount = sql`CASE WHEN ${ended} THEN 1 ELSE ${counters.count} + 1 END`;
	const nextResetAt = sql`CASE WHEN ${ended} THEN ${resetAt} ELSE ${counters.resetAt} END`;
	const hitQuery = db
		.insert(counters)
		.values({ key: sql.placeholder('key'), count: 1, resetAt })
		.onConflictDoUpdate({ target: counters.key, set: { count: nextCount, resetAt: nextResetAt } })
		.returning({ count: counters.count, resetAt: counters.resetAt });
	// The pair's second hit: the same upsert, inserting only while the first key's count (as the
	// first statement of the same transaction left it) is at most `firstLimit`. SQLite needs the
	// SELECT's WHERE here anyway: it tells the upsert's ON CONFLICT from a join's ON.
	const column = (c: { name: string }) => sql.identifier(c.name);
	const ifFirstPassed = sql`INSERT INTO ${counters} (${column(counters.key)}, ${column(counters.count)}, ${column(counters.resetAt)})
		SELECT ${sql.placeholder('key')}, 1, ${resetAt}
		WHERE (SELECT ${counters.count} FROM ${counters} WHERE ${counters.key} = ${sql.placeholder('first')}) <= ${sql.placeholder('firstLimit')}
		ON CONFLICT (${column(counters.key)}) DO UPDATE SET ${column(counters.count)} = ${nextCount}, ${column(counters.resetAt)} = ${nextResetAt}
		RETURNING ${column(counters.count)}, ${column(counters.resetAt)}`;
	return {
		hit: compile<'key' | 'now' | 'resetAt'>([hitQuery]),
		hitPair: compile<'key' | 'now' | 'resetAt' | 'first' | 'firstLimit'>([hitQuery, { toSQL: () => dialect.sqlToQuery(ifFirstPassed) }]),
		// A refund: one UPDATE whose WHERE names the hit's window, so it never takes from a window
		// that started since.
		release: compile<'key' | 'resetAt'>([
			db
				.update(counters)
				.set({ count: sql`${counters.count} - 1` })
				.where(and(eq(counters.key, sql.placeholder('key')), eq(counters.resetAt, resetAt), gt(counters.count, 0)))
		]),
		reset: compile<'key'>([db.delete(counters).where(eq(counters.key, sql.placeholder('key')))])
	};
}

/** The values of a pair's two statements (`hitPair`): the second counted only while the first is within `firstLimit`. */
export function pairValues(first: CounterHit, second: CounterHit & { firstLimit: number }, now: number) {
	return [
		{ key: first.key, now, resetAt: first.resetAt },
		{ key: second.key, now, resetAt: second.resetAt, first: first.key, firstLimit: second.firstLimit }
	];
}

type Compilable = { toSQL(): { sql: string; params: unknown[] } };

/** Writes drizzle built once with named placeholders: the statements with each call's values. */
function compile<N extends string>(queries: Compilable[]) {
	const compiled = queries.map((query) => query.toSQL());
	return (values: Partial<Record<N, string | number>>[]): CounterStatement[] =>
		// drizzle's own filling: each placeholder's value through its column's encoder.
		compiled.map(({ sql: text, params }, i) => ({ sql: text, args: fillPlaceholders(params, values[i] ?? {}) }));
}

/**
 * Deletes the counters whose window ended at or before `now`, in chunks: one statement deleting
 * an attack's worth of rows would hold the write lock (and every sign-in behind it) for as long
 * as it takes.
 */
export async function sweepCounters(exec: SQLiteExec, counters: SQLiteTables['rateLimitsTable'], now: number): Promise<number> {
	const { db, run, batch } = exec;
	let total = 0;
	for (;;) {
		const removed = await run('deleteExpiredRateLimits', async () => {
			const expired = db.select({ key: counters.key }).from(counters).where(lte(counters.resetAt, now)).limit(SWEEP_CHUNK);
			const [rows] = await batch([db.delete(counters).where(inArray(counters.key, expired)).returning({ key: counters.key })]);
			return (rows as unknown[]).length;
		});
		total += removed;
		if (removed < SWEEP_CHUNK) return total;
	}
}
