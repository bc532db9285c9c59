/**
 * The rate limiter's counters (kitauth's `hitRateLimit`, `hitRateLimitPair`, `releaseRateLimit`,
 * `resetRateLimit`, `deleteExpiredRateLimits`), over a dialect's statements: the arguments checked, the windows
 * turned into their end times, the rows checked on the way back.
 */
import type { Adapter, RateLimitCounter } from '../../core/types/adapter.js';
import type { CounterRow, DialectParts, Fail } from './statements.js';

type CounterMethods = Required<
	Pick<Adapter, 'hitRateLimit' | 'hitRateLimitPair' | 'releaseRateLimit' | 'resetRateLimit' | 'deleteExpiredRateLimits' | 'acquireLease'>
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

		deleteExpiredRateLimits: (now) => st.sweepCounters(now),

		// A lease is a counter whose window is the lease: the one hit that starts the window (count
		// 1) holds it; any hit while it runs counts 2 and more. One conditional upsert, as a hit is.
		acquireLease: async (key, leaseMs, at) => {
			checkTimes('acquireLease', at, leaseMs);
			const row = await st.hitCounter({ key, resetAt: at + Math.ceil(leaseMs) }, at);
			return (counted('acquireLease', row, fail) ?? noRow('acquireLease', fail)).count === 1;
		}
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
