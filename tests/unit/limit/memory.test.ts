/** The memory store: fixed windows, reset, sweep, and its size bound. */
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../src/lib/core/limit/memory.js';
import { describeLimiterOnStore, describeLimitStore } from '../../integration/limit-store-conformance.js';

const T = 1_000_000;

describe('MemoryStore', () => {
	it('counts within a window and starts a new one when it ends', async () => {
		const store = new MemoryStore();
		expect(await store.hit('k', 1000, T)).toEqual({ count: 1, resetAt: T + 1000 });
		expect(await store.hit('k', 1000, T + 999)).toEqual({ count: 2, resetAt: T + 1000 });
		expect(await store.hit('k', 5000, T + 1000)).toEqual({ count: 1, resetAt: T + 6000 });
	});

	it('reset forgets a key', async () => {
		const store = new MemoryStore();
		await store.hit('k', 1000, T);
		await store.hit('k', 1000, T);
		await store.reset('k');
		expect(await store.hit('k', 1000, T)).toEqual({ count: 1, resetAt: T + 1000 });
	});

	it('sweep deletes exactly the counters whose window has ended', async () => {
		const store = new MemoryStore();
		await store.hit('short', 1000, T);
		await store.hit('long', 60_000, T);
		expect(await store.sweep(T + 999)).toBe(0);
		expect(await store.sweep(T + 1000)).toBe(1);
		expect(store.size).toBe(1);
		expect(await store.hit('long', 60_000, T + 1000)).toMatchObject({ count: 2 });
	});

	it('is bounded: expired counters go first, then the oldest', async () => {
		const store = new MemoryStore({ maxKeys: 3 });
		await store.hit('a', 10, T);
		await store.hit('b', 60_000, T);
		await store.hit('c', 60_000, T);
		await store.hit('d', 60_000, T + 5000); // full: 'a' has expired and goes
		expect(store.size).toBe(3);
		expect(await store.hit('b', 60_000, T + 5000)).toMatchObject({ count: 2 });
		await store.hit('e', 60_000, T + 5000); // full, nothing expired: the oldest ('b') goes
		expect(store.size).toBe(3);
		expect(await store.hit('c', 60_000, T + 5000)).toMatchObject({ count: 2 });
		expect(await store.hit('b', 60_000, T + 5000)).toMatchObject({ count: 1 });
	});

	it('holds 200 000 distinct keys without growing past its bound', async () => {
		const store = new MemoryStore({ maxKeys: 1000 });
		for (let i = 0; i < 200_000; i++) store.hitNow(`k${i}`, 60_000, T);
		expect(store.size).toBe(1000);
	});
});

const memory = new MemoryStore();
describeLimitStore('memory', () => memory);
describeLimiterOnStore('memory', () => memory);
