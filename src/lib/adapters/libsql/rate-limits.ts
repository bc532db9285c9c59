/**
 * The rate limiter's counters on libSQL: the SQLite statements (`sqlite/counters.ts`) run through
 * the guard like every other write, so a busy database is retried, never answered with a count
 * that was not stored. The hits, refunds and resets asked for in one turn of the event loop share one
 * transaction (`engine/commit-group.ts`): under load one commit serves many sign-in attempts. A
 * counter lost to a power cut costs nothing: no fsync per hit (see `Durability`).
 */
import type { InValue, ResultSet } from '@libsql/client';
import type { CounterRow, CounterStatements } from '../shared/statements.js';
import { type CounterStatement, counterStatements, pairValues, sweepCounters } from '../sqlite/counters.js';
import type { SQLiteExec } from '../sqlite/statements.js';
import type { SQLiteTables } from '../sqlite/tables.js';
import type { GuardedClient } from './engine/client.js';
import { commitGroup } from './engine/commit-group.js';
import type { Guard } from './engine/guard.js';
import type { OneRowStatement } from './engine/local-statements.js';
import { forOperation } from './errors.js';

export function libsqlCounters(exec: SQLiteExec, client: GuardedClient, guard: Guard, counters: SQLiteTables['rateLimitsTable']): CounterStatements {
	const { hit, hitPair, release, reset } = counterStatements(exec.db, counters);
	// Every counter write of a turn in one relaxed transaction (`commit-group.ts`), retried by the
	// guard as one; each caller's error names its own operation.
	const grouped = commitGroup((stmts) => guard.run('rateLimits', () => client.relaxed(() => client.batch(stmts))));
	const write = async (operation: string, stmts: CounterStatement[]) => {
		try {
			return await grouped(stmts.map(oneRow));
		} catch (error) {
			throw forOperation(operation, error);
		}
	};

	return {
		hitCounter: async ({ key, resetAt }, now) => {
			const [result] = await write('hitRateLimit', hit([{ key, now, resetAt }]));
			return counterRow(result);
		},
		// Both in the same transaction, the second right after the first.
		hitCounterPair: async (first, second, now) => {
			const [a, b] = await write('hitRateLimitPair', hitPair(pairValues(first, second, now)));
			return [counterRow(a), counterRow(b)];
		},
		releaseCounter: async (key, resetAt) => {
			await write('releaseRateLimit', release([{ key, resetAt }]));
		},
		resetCounter: async (key) => {
			await write('resetRateLimit', reset([{ key }]));
		},
		sweepCounters: (now) => sweepCounters(exec, counters, now)
	};
}

/** A statement that returns one row at most, as the local connection runs it in one step. */
function oneRow({ sql, args }: CounterStatement): OneRowStatement {
	return { sql, args: args as InValue[], oneRow: true };
}

/** A hit's RETURNING row (count, resetAt, in that order); `undefined` when it returned none. */
function counterRow(result: ResultSet | undefined): CounterRow | undefined {
	const row = result?.rows[0];
	return row ? { count: row[0], resetAt: row[1] } : undefined;
}
