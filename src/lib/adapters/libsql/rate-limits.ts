/**
 * The rate limiter's counters (kitauth's `hitRateLimit`, `hitRateLimitPair`, `releaseRateLimit`,
 * `resetRateLimit`, `deleteExpiredRateLimits`).
 *
 * A hit is ONE statement, `INSERT … ON CONFLICT DO UPDATE … RETURNING`, run in a transaction
 * through the guard like every other write: SQLite runs it under the database's write lock, so
 * concurrent hits from any number of processes each see their own count, and a busy database is
 * retried by the guard, never answered with a count that was not stored. Every SET expression
 * reads the row as it was before the statement, so the window test is the same in both
 * assignments. A refund is one UPDATE whose WHERE names the hit's window, so it never takes from a
 * window that started since. The hits, refunds and resets asked for in one turn of the event loop
 * share one transaction (`commit-group.ts`): under load one commit serves many sign-in attempts.
 */
import { and, eq, fillPlaceholders, gt, inArray, lte, sql } from 'drizzle-orm';
import type { Adapter } from '../../core/types/adapter.js';
import type { InValue, ResultSet } from '@libsql/client';
import { SQLiteAsyncDialect } from 'drizzle-orm/sqlite-core';
import { commitGroup } from './commit-group.js';
import type { LibSQLDatabase } from 'drizzle-orm/libsql';
import type { AdapterContext } from './context.js';
import { forOperation, LibSQLAdapterError } from './errors.js';
import type { OneRowStatement, Statements } from './local-statements.js';
import type { LibSQLTables } from './tables.js';

const SWEEP_CHUNK = 1000;

type RateLimitMethods = Required<
	Pick<Adapter, 'hitRateLimit' | 'hitRateLimitPair' | 'releaseRateLimit' | 'resetRateLimit' | 'deleteExpiredRateLimits'>
>;

/** Renders the raw statement below as drizzle renders its builders (placeholders kept). */
const dialect = new SQLiteAsyncDialect();

export function rateLimitMethods({ db, client, tables, guard }: AdapterContext): RateLimitMethods {
	const counters = tables.rateLimitsTable;
	const { hit, hitPair, release, reset } = counterStatements(db, counters);
	// Every counter write of a turn in one relaxed transaction (`commit-group.ts`), retried by the
	// guard as one; each caller's error names its own operation.
	const grouped = commitGroup((stmts) => guard.run('rateLimits', () => client.relaxed(() => client.batch(stmts))));
	const write = async (operation: string, stmts: Statements) => {
		try {
			return await grouped(stmts);
		} catch (error) {
			throw forOperation(operation, error);
		}
	};

	return {
		hitRateLimit: async (key, windowMs, at) => {
			checkTimes('hitRateLimit', at, windowMs);
			// A counter lost to a power cut costs nothing: no fsync per hit (see `Durability`).
			const [result] = await write('hitRateLimit', hit([{ key, now: at, resetAt: at + Math.ceil(windowMs) }]));
			return counted('hitRateLimit', result) ?? noRow('hitRateLimit');
		},

		hitRateLimitPair: async (first, second, firstLimit, at) => {
			checkTimes('hitRateLimitPair', at, first.windowMs);
			checkTimes('hitRateLimitPair', at, second.windowMs);
			if (!Number.isFinite(firstLimit)) throw new LibSQLAdapterError('hitRateLimitPair', 'INVALID_ARGUMENT', 'firstLimit must be a number');
			// Both in the same transaction, the second right after the first.
			const [a, b] = await write(
				'hitRateLimitPair',
				hitPair([
					{ key: first.key, now: at, resetAt: at + Math.ceil(first.windowMs) },
					{ key: second.key, now: at, resetAt: at + Math.ceil(second.windowMs), first: first.key, firstLimit }
				])
			);
			return [counted('hitRateLimitPair', a) ?? noRow('hitRateLimitPair'), counted('hitRateLimitPair', b)];
		},

		releaseRateLimit: async (key, resetAt) => {
			if (!Number.isSafeInteger(resetAt)) throw new LibSQLAdapterError('releaseRateLimit', 'INVALID_ARGUMENT', 'resetAt must be integer milliseconds');
			await write('releaseRateLimit', release([{ key, resetAt }]));
		},

		resetRateLimit: async (key) => {
			await write('resetRateLimit', reset([{ key }]));
		},

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
 * The counters' statements, built by drizzle once and run with each call's values: building a
 * statement per call cost about as much as running it (tens of µs), on every sign-in attempt.
 * (The limiter bench also runs them bare, as SQLite's own share of the limiter's cost.)
 */
export function counterStatements(db: LibSQLDatabase, counters: LibSQLTables['rateLimitsTable']) {
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
		release: compile<'key' | 'resetAt'>([
			db
				.update(counters)
				.set({ count: sql`${counters.count} - 1` })
				.where(and(eq(counters.key, sql.placeholder('key')), eq(counters.resetAt, resetAt), gt(counters.count, 0)))
		]),
		reset: compile<'key'>([db.delete(counters).where(eq(counters.key, sql.placeholder('key')))])
	};
}

type Compilable = { toSQL(): { sql: string; params: unknown[] } };

/**
 * Writes drizzle built once with named placeholders: returns the statements with each call's
 * values, one record per statement. Each touches one key, so returns one row at most (`oneRow`).
 */
function compile<N extends string>(queries: Compilable[]) {
	const compiled = queries.map((query) => query.toSQL());
	return (values: Partial<Record<N, string | number>>[]): OneRowStatement[] =>
		// drizzle's own filling: each placeholder's value through its column's encoder.
		compiled.map(({ sql: text, params }, i) => ({ sql: text, args: fillPlaceholders(params, values[i] ?? {}) as InValue[], oneRow: true }));
}

/** A hit's RETURNING row (count, resetAt, in that order); `undefined` when it returned none. */
function counted(operation: string, result: ResultSet | undefined) {
	const row = result?.rows[0];
	if (!row) return undefined;
	const counter = { count: Number(row[0]), resetAt: Number(row[1]) };
	if (!Number.isFinite(counter.count) || !Number.isFinite(counter.resetAt)) {
		throw new LibSQLAdapterError(operation, 'UNKNOWN', 'the database returned a counter that is not a number');
	}
	return counter;
}

function noRow(operation: string): never {
	throw new LibSQLAdapterError(operation, 'UNKNOWN', 'the database returned no row');
}

function checkTimes(operation: string, now: number, windowMs: number): void {
	if (!Number.isSafeInteger(now) || !Number.isFinite(windowMs) || windowMs <= 0) {
		throw new LibSQLAdapterError(operation, 'INVALID_ARGUMENT', 'now and windowMs must be integer milliseconds');
	}
}
