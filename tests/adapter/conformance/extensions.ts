import { expect, test } from 'vitest';
import { adapterStore } from '../../../src/lib/core/limit/adapter-store.js';
import { describeLimitStore, describeLimitStorePair } from '../../integration/limit-store-conformance.js';
import { uid, type Target } from './fixtures.js';

/**
 * kitauth's counters (increment-with-expiry: the limit store suites, through the limiter's own
 * view of an adapter) and session cutoffs.
 */
export function extensionTests(name: string, target: () => Target): void {
	const store = () => adapterStore(target().adapter)!;
	describeLimitStore(name, store);
	describeLimitStorePair(name, store);

	test('resetRateLimit forgets a counter: the next hit starts at 1', async () => {
		const { adapter } = target();
		const key = `reset:${uid()}`;
		await adapter.hitRateLimit(key, 60_000, 1_000);
		await adapter.hitRateLimit(key, 60_000, 1_001);
		await adapter.resetRateLimit(key);
		expect(await adapter.hitRateLimit(key, 60_000, 1_002)).toEqual({ count: 1, resetAt: 61_002 });
	});

	test('hits with times that are not integer milliseconds are refused (INVALID_ARGUMENT)', async () => {
		const { adapter } = target();
		await expect(Promise.resolve().then(() => adapter.hitRateLimit('k', 60_000, 1.5))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', operation: 'hitRateLimit' });
		await expect(Promise.resolve().then(() => adapter.hitRateLimit('k', -1, 1))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
	});

	test('acquireLease: exactly one of 20 concurrent callers holds it; nobody until it ends; then one again', async () => {
		const { adapter } = target();
		const key = `lease:${uid()}`;
		const first = await Promise.all(Array.from({ length: 20 }, () => adapter.acquireLease(key, 30_000, 5_000)));
		expect(first.filter(Boolean)).toHaveLength(1);
		expect(await adapter.acquireLease(key, 30_000, 34_999)).toBe(false);
		const again = await Promise.all(Array.from({ length: 20 }, () => adapter.acquireLease(key, 30_000, 35_000)));
		expect(again.filter(Boolean)).toHaveLength(1);
	});

	test('session cutoffs: none at first; set; a later one wins, an earlier one never moves it back', async () => {
		const { adapter } = target();
		const userId = uid();
		expect(await adapter.getSessionsValidAfter(userId)).toBeNull();
		const later = new Date(Date.UTC(2031, 0, 2, 3, 4, 5, 678));
		await adapter.setSessionsValidAfter(userId, later);
		expect(await adapter.getSessionsValidAfter(userId)).toEqual(later);
		await adapter.setSessionsValidAfter(userId, new Date(later.getTime() - 1));
		expect(await adapter.getSessionsValidAfter(userId)).toEqual(later);
		const latest = new Date(later.getTime() + 1);
		await adapter.setSessionsValidAfter(userId, latest);
		expect(await adapter.getSessionsValidAfter(userId)).toEqual(latest);
		await expect(Promise.resolve().then(() => adapter.setSessionsValidAfter(userId, new Date(Number.NaN)))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
	});

	test('20 concurrent cutoffs from any caller: the latest stays', async () => {
		const { adapter } = target();
		const userId = uid();
		const base = Date.UTC(2032, 0, 1);
		await Promise.all(Array.from({ length: 20 }, (_, i) => adapter.setSessionsValidAfter(userId, new Date(base + i * 7))));
		expect(await adapter.getSessionsValidAfter(userId)).toEqual(new Date(base + 19 * 7));
	});
}
