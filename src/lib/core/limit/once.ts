/**
 * "Seen once": a short-lived record of values that may be used only once (an OAuth callback's
 * state), kept in the rate limiter's store so that it holds across instances wherever the counters
 * do. A claim is one `hit` on the value's key: the first hit in its window counts 1, and any later
 * one more. So every store kitauth has (memory, the adapter's `hitRateLimit`, Redis, PostgreSQL)
 * works unchanged, atomically, and the record disappears with its window.
 *
 * Which store: `rateLimit.store` when configured, else the adapter's counters (kitauth's libSQL
 * adapter), else this process's memory (one instance only: several instances without a shared
 * store each keep their own record). The limiter need not be on. When the store fails, the claim
 * is answered from this process's memory (and logged): a store outage never opens the door to a
 * replay within one process, and never blocks every sign-in.
 *
 * Values are never stored: only a keyed hash of the purpose and the value.
 */
import { RateLimitStoreError } from '../errors.js';
import type { LoggerInstance } from '../types/config.js';
import type { LimitStore } from '../types/limit.js';
import type { Hasher } from './hash.js';
import { withDeadline } from './calls.js';
import type { MemoryStore } from './memory.js';

/** What may be claimed once (each purpose has its own keys). */
export type OncePurpose = 'oauth-state' | 'two-factor-pending';

export interface Once {
	/**
	 * Records `value` for `purpose` and says whether this is its first use within `ttlMs`
	 * milliseconds. Never throws.
	 */
	claim(purpose: OncePurpose, value: string, ttlMs: number): Promise<boolean>;
}

export interface OnceOptions {
	/** The shared store, when there is one; `undefined` keeps the record in `memory`. */
	store: LimitStore | undefined;
	/** This process's record: the store without a shared one, and the fallback when it fails. */
	memory: MemoryStore;
	hash: Hasher;
	logger: LoggerInstance;
	/** Milliseconds a store call may take. */
	timeout: number;
	now?: () => number;
}

export function createOnce(options: OnceOptions): Once {
	const { store, memory, hash, logger, timeout } = options;
	const clock = options.now ?? Date.now;
	return Object.freeze({
		async claim(purpose: OncePurpose, value: string, ttlMs: number): Promise<boolean> {
			const key = `once:${purpose}:${hash(`${purpose}\u0000${value}`)}`;
			const now = clock();
			if (store && store !== memory) {
				try {
					const { count } = await withDeadline(() => store.hit(key, ttlMs, now), timeout);
					const seen = Number(count);
					if (!Number.isFinite(seen) || seen < 1) throw new TypeError('the store answered a hit without a positive count');
					// Kept in memory too: should the store fail later, this process still remembers.
					memory.hitNow(key, ttlMs, now);
					return seen === 1;
				} catch (error) {
					try {
						logger.error(
							new RateLimitStoreError(`Recording a one-time ${purpose} failed; answered from this process's memory`, {
								cause: error instanceof Error ? error : new Error(String(error))
							})
						);
					} catch {
						// The answer stands when the log sink fails too.
					}
				}
			}
			return memory.hitNow(key, ttlMs, now).count === 1;
		}
	});
}
