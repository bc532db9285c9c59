/**
 * What every `LimitStore` must do, as one suite run against each real store (memory, the libSQL
 * adapter, Redis, PostgreSQL). Time is the caller's `now`, so windows are tested without waiting.
 */
import { describe, expect, it } from 'vitest';
import type { LimitStore } from '../../src/lib/core/types/limit.js';
import { testLimiter } from '../unit/limit/support.js';

const T = Date.UTC(2026, 4, 1, 12, 0, 0, 123);

export function describeLimitStore(name: string, store: () => LimitStore): void {
	let run = 0;
	/** A key no other test (or earlier run against a shared server) used. */
	const key = (label: string) => `conformance:${name}:${label}:${process.pid}:${++run}:${Math.random().toString(36).slice(2)}`;

	describe(`LimitStore conformance: ${name}`, () => {
		it('counts hits inside a window; the window end is fixed when it starts', async () => {
			const k = key('count');
			expect(await store().hit(k, 60_000, T)).toEqual({ count: 1, resetAt: T + 60_000 });
			expect(await store().hit(k, 60_000, T + 1)).toEqual({ count: 2, resetAt: T + 60_000 });
			expect(await store().hit(k, 5_000, T + 59_999)).toEqual({ count: 3, resetAt: T + 60_000 });
		});

		it('a hit at or after the window end starts a new window', async () => {
			const k = key('window');
			await store().hit(k, 1_000, T);
			await store().hit(k, 1_000, T);
			expect(await store().hit(k, 2_000, T + 1_000)).toEqual({ count: 1, resetAt: T + 3_000 });
			expect(await store().hit(k, 2_000, T + 2_999)).toEqual({ count: 2, resetAt: T + 3_000 });
		});

		it('keys are independent, whatever their characters', async () => {
			const a = key('a');
			// The limiter's keys are printable ASCII; a store must still take quotes and the like literally.
			const odd = `${key('odd')}:"'\\;--:%_*?[]{}:${'x'.repeat(150)}`;
			await store().hit(a, 60_000, T);
			await store().hit(a, 60_000, T);
			expect(await store().hit(odd, 60_000, T)).toMatchObject({ count: 1 });
			expect(await store().hit(`${a}x`, 60_000, T)).toMatchObject({ count: 1 });
			expect(await store().hit(a, 60_000, T)).toMatchObject({ count: 3 });
		});

		it('reset forgets a key (and an unknown key is no error)', async () => {
			const k = key('reset');
			await store().hit(k, 60_000, T);
			await store().hit(k, 60_000, T);
			await store().reset(k);
			await store().reset(key('never-hit'));
			expect(await store().hit(k, 60_000, T + 10)).toEqual({ count: 1, resetAt: T + 60_010 });
		});

		it('concurrent hits on one key each get their own count (one atomic step per hit)', async () => {
			const k = key('concurrent');
			const counts = await Promise.all(Array.from({ length: 100 }, () => store().hit(k, 60_000, T).then((c) => c.count)));
			expect(counts.sort((x, y) => x - y)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
		});

		it('release takes back one hit of the window it names, never below 0, and creates nothing', async () => {
			const k = key('release');
			await store().hit(k, 60_000, T);
			await store().hit(k, 60_000, T);
			await store().release(k, T + 60_000);
			expect(await store().hit(k, 60_000, T + 1)).toEqual({ count: 2, resetAt: T + 60_000 });
			for (let i = 0; i < 4; i++) await store().release(k, T + 60_000);
			expect(await store().hit(k, 60_000, T + 2)).toEqual({ count: 1, resetAt: T + 60_000 });
			const never = key('never-hit');
			await store().release(never, T + 60_000);
			expect(await store().hit(never, 60_000, T + 5)).toEqual({ count: 1, resetAt: T + 60_005 });
		});

		it('release of a hit from a window that has ended takes nothing from the window that started since', async () => {
			const k = key('release-window');
			await store().hit(k, 1_000, T);
			await store().hit(k, 1_000, T + 1_000);
			await store().hit(k, 1_000, T + 1_000);
			await store().release(k, T + 1_000); // the first window's end: that hit is gone with its window
			expect(await store().hit(k, 1_000, T + 1_500)).toEqual({ count: 3, resetAt: T + 2_000 });
		});

		it('releases racing hits on one key stay exact (each an atomic step)', async () => {
			const k = key('release-race');
			const first = await store().hit(k, 60_000, T);
			await Promise.all(Array.from({ length: 59 }, () => store().hit(k, 60_000, T)));
			// 100 hits and 60 releases (never more than there are hits: no floor at 0), interleaved and all at once.
			await Promise.all(
				Array.from({ length: 160 }, (_, i) => (i % 8 < 3 ? store().release(k, first.resetAt) : store().hit(k, 60_000, T + 1)))
			);
			expect(await store().hit(k, 60_000, T + 2)).toEqual({ count: 60 + 100 - 60 + 1, resetAt: T + 60_000 });
		});

		it('sweep leaves counters whose window has not ended', async () => {
			const short = key('short');
			const long = key('long');
			await store().hit(short, 1_000, T);
			await store().hit(long, 60_000, T);
			const removed = await store().sweep(T + 1_000);
			expect(removed).toBeGreaterThanOrEqual(0);
			expect(await store().hit(long, 60_000, T + 1_000)).toEqual({ count: 2, resetAt: T + 60_000 });
			expect(await store().hit(short, 1_000, T + 1_000)).toEqual({ count: 1, resetAt: T + 2_000 });
		});
	});
}

/**
 * What a store's optional `hitPair` must do: the same counts as two `hit` calls — the second only
 * when the first's count is at most the limit — and atomically so under concurrency.
 */
export function describeLimitStorePair(name: string, store: () => LimitStore): void {
	let run = 0;
	const key = (label: string) => `pair:${name}:${label}:${process.pid}:${++run}:${Math.random().toString(36).slice(2)}`;
	const pair = (first: string, second: string, limit: number, now: number, windows: [number, number] = [60_000, 3_600_000]) =>
		store().hitPair!({ key: first, windowMs: windows[0] }, { key: second, windowMs: windows[1] }, limit, now);

	describe(`LimitStore conformance (hitPair): ${name}`, () => {
		it('counts both keys as hit does, each with its own window', async () => {
			const [a, i] = [key('a'), key('i')];
			expect(await pair(a, i, 10, T)).toEqual([
				{ count: 1, resetAt: T + 60_000 },
				{ count: 1, resetAt: T + 3_600_000 }
			]);
			expect(await pair(a, i, 10, T + 5)).toEqual([
				{ count: 2, resetAt: T + 60_000 },
				{ count: 2, resetAt: T + 3_600_000 }
			]);
			// The same counters as `hit` sees them.
			expect(await store().hit(i, 3_600_000, T + 6)).toEqual({ count: 3, resetAt: T + 3_600_000 });
			// A window that ended starts over, for either key.
			expect(await pair(a, i, 10, T + 60_000)).toEqual([
				{ count: 1, resetAt: T + 120_000 },
				{ count: 4, resetAt: T + 3_600_000 }
			]);
		});

		it('does not count the second key once the first is over its limit', async () => {
			const [a, i] = [key('a'), key('i')];
			expect((await pair(a, i, 2, T))[1]).toEqual({ count: 1, resetAt: T + 3_600_000 });
			expect((await pair(a, i, 2, T))[1]).toEqual({ count: 2, resetAt: T + 3_600_000 });
			expect(await pair(a, i, 2, T)).toEqual([{ count: 3, resetAt: T + 60_000 }, undefined]);
			expect(await pair(a, i, 2, T)).toEqual([{ count: 4, resetAt: T + 60_000 }, undefined]);
			// The second key still holds 2.
			expect(await store().hit(i, 3_600_000, T)).toEqual({ count: 3, resetAt: T + 3_600_000 });
		});

		it('concurrent pairs each get their own counts; the second key is counted exactly while the first was within its limit', async () => {
			const [a, i] = [key('a'), key('i')];
			const results = await Promise.all(Array.from({ length: 60 }, () => pair(a, i, 40, T)));
			expect(results.map(([first]) => first.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, n) => n + 1));
			const seconds = results.filter(([first]) => first.count <= 40).map(([, second]) => second?.count);
			expect(seconds.sort((x, y) => x! - y!)).toEqual(Array.from({ length: 40 }, (_, n) => n + 1));
			expect(results.filter(([first]) => first.count > 40).every(([, second]) => second === undefined)).toBe(true);
		});
	});
}

/**
 * The limiter on a store: concurrent attempts from one address are counted exactly, the failures
 * stay and the successes are refunded (`release`), however they interleave.
 */
export function describeLimiterOnStore(name: string, store: () => LimitStore): void {
	describe(`the limiter on ${name}: one address, many attempts at once`, () => {
		it('N wrong guesses and M sign-ins at once leave exactly N on the address: successes are refunded', async () => {
			const address = `198.18.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`;
			const { limiter, attempt, clock } = testLimiter({ store: store(), rules: { credentials: { address: { limit: 1000 } } } });
			// 70 attempts at once, each for its own account: 3 in every 7 sign in (refunded after their
			// check, as a flow does), interleaved with the 40 that fail.
			const signsIn = (i: number) => i % 7 < 3;
			const decisions = await Promise.all(
				Array.from({ length: 70 }, async (_, i) => {
					const identifier = `user${i}@example.com`;
					const decision = await attempt('credentials', address, identifier);
					if (signsIn(i)) await limiter.succeeded('credentials', identifier, decision);
					return decision;
				})
			);
			expect(decisions.every((decision) => decision.allowed)).toBe(true);
			const failures = Array.from({ length: 70 }, (_, i) => i).filter((i) => !signsIn(i)).length;
			expect(failures).toBe(40);
			expect((await store().hit(`credentials:a:${address}`, 600_000, clock.time)).count).toBe(failures + 1);
		});
	});
}
