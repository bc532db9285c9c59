/**
 * The limiter's calls to its store. Every call has a deadline; a failure or a timeout is logged and
 * answered from this process's memory (`failOpen`) or taken as a refusal, and the rest of that
 * attempt skips the store. A refund goes to whichever of the two counted the hit.
 */
import { RateLimitStoreError } from '../errors.js';
import type { LoggerInstance } from '../types/config.js';
import type { LimitCount, LimitHit, LimitKind, LimitStore } from '../types/limit.js';
import type { MemoryStore } from './memory.js';

/** A counter after a hit, and where it was counted. */
export interface Counted extends LimitCount {
	/** In this process's memory (the store is memory, or failed): a refund goes there too. */
	memory: boolean;
}

export interface StoreCalls {
	store: LimitStore;
	memory: MemoryStore;
	failOpen: boolean;
	/** Milliseconds per store call. */
	timeout: number;
	logger: LoggerInstance;
}

/** Logs a store failure as `RateLimitStoreError` (never throws: the decision stands without the log). */
export function storeFailed(logger: LoggerInstance, what: string, kind: LimitKind | undefined, error: unknown, answer = ''): void {
	const cause = error instanceof Error ? error : new Error(String(error));
	const where = kind ? ` (${kind})` : '';
	try {
		logger.error(new RateLimitStoreError(`Rate limiting failed to ${what}${where}${answer}`, { cause }));
	} catch {
		// The decision still stands when the log sink is down too.
	}
}

/**
 * An attempt's store hits; `undefined` means refuse (store failed, failing closed). After one
 * failure the rest of the attempt skips the store.
 */
export function attemptHits(calls: StoreCalls, kind: LimitKind, now: number) {
	const { store, memory, failOpen, timeout, logger } = calls;
	const shared = store !== memory;
	let down = false;
	const failed = (error: unknown) => {
		down = true;
		storeFailed(logger, 'count an attempt', kind, error, failOpen ? "; answered from this process's memory" : '; the attempt was refused');
	};
	const inMemory = (key: string, windowMs: number): Counted | undefined =>
		down && !failOpen ? undefined : { ...memory.hitNow(key, windowMs, now), memory: true };

	const one = async (key: string, windowMs: number): Promise<Counted | undefined> => {
		if (!down && shared) {
			try {
				return { ...checked(await withDeadline(() => store.hit(key, windowMs, now), timeout)), memory: false };
			} catch (error) {
				failed(error);
			}
		}
		return inMemory(key, windowMs);
	};
	/** `first`, then `second` only if `first` counts at most `firstLimit`: one round trip where the store can. */
	const pair = async (first: LimitHit, second: LimitHit, firstLimit: number): Promise<[Counted | undefined, Counted | undefined]> => {
		if (!down && shared && store.hitPair) {
			try {
				const [a, b] = await withDeadline(() => store.hitPair!(first, second, firstLimit, now), timeout);
				const counted = { ...checked(a), memory: false };
				if (counted.count > firstLimit) return [counted, undefined];
				return [counted, { ...checked(b as LimitCount), memory: false }];
			} catch (error) {
				failed(error);
			}
		}
		const counted = await one(first.key, first.windowMs);
		if (!counted || counted.count > firstLimit) return [counted, undefined];
		return [counted, await one(second.key, second.windowMs)];
	};
	return { one, pair };
}

/** Takes back a hit where it was counted. A failure is logged: the refund is lost, nothing else. */
export async function refund(calls: StoreCalls, kind: LimitKind, hit: { key: string; resetAt: number; memory: boolean }): Promise<void> {
	const { store, memory, timeout, logger } = calls;
	if (hit.memory || store === memory) return memory.release(hit.key, hit.resetAt);
	try {
		await withDeadline(() => store.release(hit.key, hit.resetAt), timeout);
	} catch (error) {
		storeFailed(logger, 'refund an attempt', kind, error);
	}
}

/** Forgets counters, in memory and in the store (all at once: one commit where the store groups them). */
export async function resetAll(calls: StoreCalls, kind: LimitKind, keys: readonly string[]): Promise<void> {
	const { store, memory, timeout, logger } = calls;
	for (const key of keys) await memory.reset(key);
	if (store === memory) return;
	try {
		await Promise.all(keys.map((key) => withDeadline(() => store.reset(key), timeout)));
	} catch (error) {
		storeFailed(logger, 'reset a counter', kind, error);
	}
}

/** A store's answer, checked: a broken store must not make every attempt pass (NaN > limit is false). */
function checked(counter: LimitCount): LimitCount {
	const count = Number(counter?.count);
	const resetAt = Number(counter?.resetAt);
	if (!Number.isFinite(count) || !Number.isFinite(resetAt) || count < 1) {
		throw new TypeError('the store answered a hit without a positive count and a reset time');
	}
	return { count, resetAt };
}

/** Runs `call` (which may throw synchronously) and rejects when it takes longer than `ms`. */
export function withDeadline<T>(call: () => Promise<T>, ms: number): Promise<T> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const deadline = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
	});
	const pending = new Promise<T>((resolve) => resolve(call()));
	pending.catch(() => {}); // a late failure after the deadline is not an unhandled rejection
	return Promise.race([pending, deadline]).finally(() => clearTimeout(timer));
}
