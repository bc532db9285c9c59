/**
 * A store that fails, hangs or answers nonsense: the limiter still answers (from memory by
 * default, or by refusing with `failOpen: false`), logs the failure, and never throws.
 * (The same against real stores brought down: tests/integration/limit-*.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { RateLimitStoreError } from '../../../src/lib/core/errors.js';
import { MemoryStore } from '../../../src/lib/core/limit/memory.js';
import type { LimitCount, LimitStore } from '../../../src/lib/core/types/limit.js';
import { testLimiter } from './support.js';

const A = '192.0.2.1';

/** A store whose behaviour the test switches: working (memory), failing, hanging, or lying. */
class FlakyStore implements LimitStore {
	mode: 'up' | 'down' | 'hang' | 'nonsense' | 'throw' = 'down';
	calls = 0;
	readonly inner = new MemoryStore();

	hit(key: string, windowMs: number, now: number): Promise<LimitCount> {
		this.calls++;
		switch (this.mode) {
			case 'up':
				return this.inner.hit(key, windowMs, now);
			case 'down':
				return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
			case 'hang':
				return new Promise(() => {});
			case 'nonsense':
				return Promise.resolve({ count: Number.NaN, resetAt: 0 });
			case 'throw':
				throw new TypeError('synchronously broken');
		}
	}
	release(key: string, resetAt: number): Promise<void> {
		return this.mode === 'up' ? this.inner.release(key, resetAt) : Promise.reject(new Error('down'));
	}
	reset(key: string): Promise<void> {
		return this.mode === 'up' ? this.inner.reset(key) : Promise.reject(new Error('down'));
	}
	sweep(now: number): Promise<number> {
		return this.mode === 'up' ? this.inner.sweep(now) : Promise.reject(new Error('down'));
	}
}

const rules = { 'oauth-start': { address: { limit: 3 } } };

describe('failOpen (the default)', () => {
	it('answers from this process memory: still allowed at first, still limited after the budget', async () => {
		const store = new FlakyStore();
		const { attempt, recorded } = testLimiter({ store, rules });
		const results = [];
		for (let i = 0; i < 5; i++) results.push((await attempt('oauth-start', A)).allowed);
		expect(results).toEqual([true, true, true, false, false]);
		expect(recorded.errors).toHaveLength(5);
		const error = recorded.errors[0]!;
		expect(error).toBeInstanceOf(RateLimitStoreError);
		expect(error.message).toMatch(/failed to count an attempt \(oauth-start\); answered from this process's memory/);
		expect(String((error as RateLimitStoreError).cause?.err)).toMatch(/ECONNREFUSED/);
	});

	it('after one failure, the rest of that check does not wait for the store again', async () => {
		const store = new FlakyStore();
		const { attempt } = testLimiter({ store });
		await attempt('credentials', A, 'alice@example.com');
		expect(store.calls).toBe(1);
	});

	it('a store that does not answer within the timeout counts as failed', async () => {
		const store = new FlakyStore();
		store.mode = 'hang';
		const { attempt, recorded } = testLimiter({ store, rules, timeout: 20 });
		expect(await attempt('oauth-start', A)).toMatchObject({ allowed: true });
		expect(String((recorded.errors[0] as RateLimitStoreError).cause?.err)).toMatch(/no answer within 20 ms/);
	});

	it('nonsense answers and synchronous throws count as failures (not as "allowed")', async () => {
		for (const mode of ['nonsense', 'throw'] as const) {
			const store = new FlakyStore();
			store.mode = mode;
			const { attempt, recorded } = testLimiter({ store, rules });
			const results = [];
			for (let i = 0; i < 4; i++) results.push((await attempt('oauth-start', A)).allowed);
			expect(results, mode).toEqual([true, true, true, false]);
			expect(recorded.errors, mode).toHaveLength(4);
		}
	});

	it('once the store is back, its counters decide again', async () => {
		const store = new FlakyStore();
		const { attempt } = testLimiter({ store, rules });
		for (let i = 0; i < 3; i++) await attempt('oauth-start', A);
		store.mode = 'up';
		expect(await attempt('oauth-start', A)).toMatchObject({ allowed: true });
		expect(store.inner.size).toBe(1);
	});
});

describe('a log sink that throws as well', () => {
	it('still a decision, never a throw (open and closed)', async () => {
		const { resolveLimiter } = await import('../../../src/lib/core/limit/resolve.js');
		for (const failOpen of [true, false]) {
			const broken = () => {
				throw new Error('log sink down');
			};
			const limiter = resolveLimiter({
				config: { store: new FlakyStore(), failOpen },
				env: {},
				adapter: undefined,
				secrets: ['x'.repeat(32)],
				logger: { error: broken, warn: broken, debug: broken },
				events: {}
			});
			const decision = await limiter.check('credentials', { address: A, headers: new Headers(), identifier: 'a@example.com' });
			expect(decision.allowed).toBe(failOpen);
			await expect(limiter.succeeded('credentials', 'a@example.com')).resolves.toBeUndefined();
			await expect(limiter.sweep()).resolves.toBe(0);
		}
	});
});

describe('failOpen: false', () => {
	it('refuses, with a short retry, and logs', async () => {
		const store = new FlakyStore();
		const { attempt, recorded } = testLimiter({ store, rules, failOpen: false });
		// `unavailable`: refused because the store could not be asked (503), not for too many attempts.
		expect(await attempt('oauth-start', A)).toEqual({ allowed: false, retryAfter: 10, scope: 'address', unavailable: true });
		expect(await attempt('credentials', undefined, 'alice@example.com')).toEqual({ allowed: false, retryAfter: 10, scope: 'account', unavailable: true });
		expect(recorded.errors.map((e) => e.message)).toEqual([
			expect.stringMatching(/\(oauth-start\); the attempt was refused/),
			expect.stringMatching(/\(credentials\); the attempt was refused/)
		]);
		expect(recorded.events).toEqual([]); // a failed store is not a rate limit
	});
});

describe('the other operations', () => {
	it('succeeded() and sweep() with the store down resolve and log', async () => {
		const store = new FlakyStore();
		const { limiter, recorded } = testLimiter({ store });
		await expect(limiter.succeeded('credentials', 'alice@example.com')).resolves.toBeUndefined();
		await expect(limiter.sweep()).resolves.toBe(0);
		expect(recorded.errors.map((e) => e.message)).toEqual([
			expect.stringMatching(/failed to reset a counter \(credentials\)/),
			expect.stringMatching(/failed to delete expired counters/)
		]);
	});

	it('a refund goes where its hit was counted: to memory for hits counted during an outage, to the store once it is back', async () => {
		const store = new FlakyStore();
		const { attempt, limiter, recorded } = testLimiter({ store, rules: { credentials: { address: { limit: 2 }, account: false } } });
		// Down: memory counts, and takes the hits back.
		for (let i = 0; i < 5; i++) {
			const decision = await attempt('credentials', A);
			expect(decision.allowed).toBe(true);
			await limiter.succeeded('credentials', undefined, decision);
		}
		// Up: the store counts; a decision from the outage refunds memory, not the store.
		const fromOutage = await attempt('credentials', A);
		store.mode = 'up';
		const decisions = [await attempt('credentials', A), await attempt('credentials', A)];
		await limiter.succeeded('credentials', undefined, fromOutage);
		expect((await attempt('credentials', A)).allowed).toBe(false); // the store's count: 3
		for (const decision of decisions) await limiter.succeeded('credentials', undefined, decision);
		expect((await attempt('credentials', A)).allowed).toBe(true);
		expect(recorded.errors.every((error) => /count an attempt/.test(error.message))).toBe(true);
	});

	it('a refund the store fails to take is logged; the decision stands', async () => {
		const store = new FlakyStore();
		store.mode = 'up';
		const { attempt, limiter, recorded } = testLimiter({ store });
		const decision = await attempt('credentials', A, 'alice@example.com');
		store.mode = 'down';
		await expect(limiter.succeeded('credentials', 'alice@example.com', decision)).resolves.toBeUndefined();
		expect(recorded.errors.map((e) => e.message)).toEqual(
			expect.arrayContaining([expect.stringMatching(/failed to refund an attempt \(credentials\)/)])
		);
	});

	it('succeeded() also clears what the memory fallback counted during an outage', async () => {
		const store = new FlakyStore();
		const { attempt, limiter } = testLimiter({ store, rules: { credentials: { address: false, account: { freeAttempts: 2 } } } });
		await attempt('credentials', A, 'alice@example.com');
		await attempt('credentials', A, 'alice@example.com');
		expect((await attempt('credentials', A, 'alice@example.com')).allowed).toBe(false);
		await limiter.succeeded('credentials', 'alice@example.com');
		expect((await attempt('credentials', A, 'alice@example.com')).allowed).toBe(true);
	});
});
