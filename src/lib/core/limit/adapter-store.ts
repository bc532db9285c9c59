/**
 * The adapter as a store, when it implements kitauth's counter methods (`hitRateLimit`,
 * `resetRateLimit`, `releaseRateLimit`, optionally `hitRateLimitPair` and
 * `deleteExpiredRateLimits`): counters then live in the app's own database and hold across
 * instances with nothing more to run. Without `releaseRateLimit` the store's `release` rejects:
 * enough for one-time records (`once.ts`), which never refund, while the limiter refuses such an
 * adapter at start-up (`resolve.ts`).
 */
import type { Adapter } from '../types/adapter.js';
import type { LimitCount, LimitStore } from '../types/limit.js';

export function adapterStore(adapter: Adapter | undefined): LimitStore | undefined {
	const hit = adapter?.hitRateLimit;
	const reset = adapter?.resetRateLimit;
	if (!adapter || typeof hit !== 'function' || typeof reset !== 'function') return undefined;
	const sweep = adapter.deleteExpiredRateLimits;
	const pair = adapter.hitRateLimitPair;
	const release = adapter.releaseRateLimit;
	return {
		hit: async (key, windowMs, now): Promise<LimitCount> => await hit.call(adapter, key, windowMs, now),
		release: async (key, resetAt) => {
			if (typeof release !== 'function') throw new TypeError('the adapter has no releaseRateLimit');
			await release.call(adapter, key, resetAt);
		},
		...(typeof pair === 'function'
			? { hitPair: async (first, second, firstLimit, now) => await pair.call(adapter, first, second, firstLimit, now) }
			: {}),
		reset: async (key) => {
			await reset.call(adapter, key);
		},
		sweep: async (now) => (typeof sweep === 'function' ? await sweep.call(adapter, now) : 0)
	};
}
