/**
 * The rate limiter's counters on D1: the SQLite statements (`sqlite/counters.ts`), each call's as
 * one `batch` (one transaction: a pair's second hit sees its first). Each is one conditional
 * statement, so concurrent hits from any Worker each get their own count.
 */
import type { CounterRow, CounterStatements } from '../shared/statements.js';
import { type CounterStatement, counterStatements, pairValues, sweepCounters } from '../sqlite/counters.js';
import type { SQLiteExec } from '../sqlite/statements.js';
import type { SQLiteTables } from '../sqlite/tables.js';
import type { D1Binding } from './client.js';

export function d1Counters(exec: SQLiteExec, binding: D1Binding, counters: SQLiteTables['rateLimitsTable']): CounterStatements {
	const { hit, hitPair, release, reset } = counterStatements(exec.db, counters);
	const write = (operation: string, stmts: CounterStatement[]) =>
		exec.run(operation, async () => {
			const results = await binding.batch<CounterRow>(stmts.map(({ sql, args }) => binding.prepare(sql).bind(...args)));
			return results.map((result) => result.results[0]);
		});
	return {
		hitCounter: async ({ key, resetAt }, now) => (await write('hitRateLimit', hit([{ key, now, resetAt }])))[0],
		hitCounterPair: async (first, second, now) => {
			const [a, b] = await write('hitRateLimitPair', hitPair(pairValues(first, second, now)));
			return [a, b];
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
