/**
 * Counters in this process's memory: the store of a single instance, and every instance's fallback
 * when its shared store fails (`rateLimit.failOpen`). It does not hold across instances or
 * restarts.
 *
 * Bounded: at `maxKeys` counters, a hit on a new key first sweeps the expired ones (at most once a
 * second: a sweep walks every counter), then, if still full, drops the oldest (a Map iterates in
 * insertion order, and a key is re-inserted when its window restarts). An attacker who makes
 * `maxKeys` new keys (e.g. from many IPv6 /64s) can therefore push other counters out: a shared
 * store has no such bound.
 */
import type { LimitCount, LimitStore } from '../types/limit.js';

export interface MemoryStoreOptions {
	/** Default 50 000 (a few MB). */
	maxKeys?: number;
}

export class MemoryStore implements LimitStore {
	readonly #counters = new Map<string, LimitCount>();
	readonly #maxKeys: number;
	#sweptAt = -Infinity;

	constructor(options: MemoryStoreOptions = {}) {
		this.#maxKeys = Math.max(1, Math.floor(options.maxKeys ?? 50_000));
	}

	/** How many counters are held (expired ones included until swept). */
	get size(): number {
		return this.#counters.size;
	}

	hit(key: string, windowMs: number, now: number): Promise<LimitCount> {
		return Promise.resolve(this.hitNow(key, windowMs, now));
	}

	/** The same, synchronously. */
	hitNow(key: string, windowMs: number, now: number): LimitCount {
		const current = this.#counters.get(key);
		if (current && current.resetAt > now) {
			current.count++;
			return { count: current.count, resetAt: current.resetAt };
		}
		if (current) this.#counters.delete(key);
		else if (this.#counters.size >= this.#maxKeys) this.#makeRoom(now);
		const fresh = { count: 1, resetAt: now + windowMs };
		this.#counters.set(key, fresh);
		return { ...fresh };
	}

	/** Takes back one hit, only within the window it was counted in (`LimitStore.release`). */
	release(key: string, resetAt: number): Promise<void> {
		const current = this.#counters.get(key);
		if (current && current.resetAt === resetAt && current.count > 0) current.count--;
		return Promise.resolve();
	}

	reset(key: string): Promise<void> {
		this.#counters.delete(key);
		return Promise.resolve();
	}

	sweep(now: number): Promise<number> {
		return Promise.resolve(this.#sweep(now));
	}

	#sweep(now: number): number {
		this.#sweptAt = now;
		let removed = 0;
		for (const [key, counter] of this.#counters) {
			if (counter.resetAt <= now) {
				this.#counters.delete(key);
				removed++;
			}
		}
		return removed;
	}

	#makeRoom(now: number): void {
		if (now - this.#sweptAt >= 1000 && this.#sweep(now) > 0) return;
		const oldest = this.#counters.keys().next();
		if (!oldest.done) this.#counters.delete(oldest.value);
	}
}
