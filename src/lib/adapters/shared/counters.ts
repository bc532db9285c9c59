/**
 * The rate limiter's counters (kitauth's `hitRateLimit`, `hitRateLimitPair`, `releaseRateLimit`,
 * `resetRateLimit`, `deleteExpiredRateLimits`), over a dialect's statements: the arguments checked, the windows
 * turned into their end times, the rows checked on the way back.
 */
import type { Adapter, RateLimitCounter } from '../../core/types/adapter.js';
import type { CounterRow, DialectParts, Fail } from './statements.js';

type CounterMethods = Required<
	Pick<Adapter, 'hitRateLimit' | 'hitRateLimitPair' | 'releaseRateLimit' | 'resetRateLimit' | 'deleteExpiredRateLimits'>
>;

export function counterMethods({ statements, fail }: DialectParts): CounterMethods {
	const st = statements.counters;
	const checkTimes = (operation: string, now: number, windowMs: number): void => {
		if (!Number.isSafeInteger(now) || !Number.isFinite(windowMs) || windowMs <= 0) {
			throw fail(operation, 'INVALID_ARGUMENT', 'now and windowMs must be integer milliseconds');
		}
	};

	return {
		hitRateLimit: async (key, windowMs, at) => {
			checkTimes('hitRateLimit', at, windowMs);
			const row = await st.hitCounter({ key, resetAt: at + Math.ceil(windowMs) }, at);
			return counted('hitRateLimit', row, fail) ?? noRow('hitRateLimit', fail);
		},

		hitRateLimitPair: async (first, second, firstLimit, at) => {
			checkTimes('hitRateLimitPair', at, first.windowMs);
			checkTimes('hitRateLimitPair', at, second.windowMs);
			if (!Number.isFinite(firstLimit)) throw fail('hitRateLimitPair', 'INVALID_ARGUMENT', 'firstLimit must be a number');
			const [a, b] = await st.hitCounterPair(
				{ key: first.key, resetAt: at + Math.ceil(first.windowMs) },
				{ key: second.key, resetAt: at + Math.ceil(second.windowMs), firstLimit },
				at
			);
			return [counted('hitRateLimitPair', a, fail) ?? noRow('hitRateLimitPair', fail), counted('hitRateLimitPair', b, fail)];
		},

		releaseRateLimit: async (key, resetAt) => {
			if (!Number.isSafeInteger(resetAt)) throw fail('releaseRateLimit', 'INVALID_ARGUMENT', 'resetAt must be integer milliseconds');
			await st.releaseCounter(key, resetAt);
		},

		resetRateLimit: (key) => st.resetCounter(key),

		deleteExpiredRateLimits: (now) => st.sweepCounters(now)
	};
}

/** A hit's row as a counter; `undefined` when there was none. */
function counted(operation: string, row: CounterRow | undefined, fail: Fail): RateLimitCounter | undefined {
	if (!row) return undefined;
	const counter = { count: Number(row.count), resetAt: Number(row.resetAt) };
	if (!Number.isFinite(counter.count) || !Number.isFinite(counter.resetAt)) {
		throw fail(operation, 'UNKNOWN', 'the database returned a counter that is not a number');
	}
	return counter;
}

function noRow(operation: string, fail: Fail): never {
	throw fail(operation, 'UNKNOWN', 'the database returned no row');
}
