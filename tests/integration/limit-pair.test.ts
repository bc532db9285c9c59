/**
 * The limiter with a store that counts an attempt's address and account hits in one round trip
 * (`hitPair`: the libSQL adapter's `hitRateLimitPair`, on a real database): the same decisions as
 * two hits would give, one call per attempt, the account not counted once the address is over its
 * limit, and a failing pair answered as any store failure.
 */
import { createClient } from '@libsql/client';
import { afterEach, describe, expect, it } from 'vitest';
import { LibSQLAdapter, migrate } from '../../src/lib/adapters/libsql/index.js';
import { adapterStore } from '../../src/lib/core/limit/adapter-store.js';
import type { LimitCount, LimitDecision, LimitHit, LimitStore } from '../../src/lib/core/types/limit.js';
import { tempDatabase } from '../adapter/support.js';
import { Clock, RecordingStore, SECOND, testLimiter } from '../unit/limit/support.js';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

/** The adapter's store, recording its calls. */
async function pairStore(): Promise<{ store: LimitStore; calls: { pair: number; hit: number }; url: string }> {
	const database = tempDatabase('kitauth-limit-pair-');
	cleanups.push(() => database.remove());
	await migrate({ url: database.url });
	const inner = adapterStore(LibSQLAdapter({ url: database.url }))!;
	expect(inner.hitPair).toBeTypeOf('function');
	const calls = { pair: 0, hit: 0 };
	const store: LimitStore = {
		hit: (key: string, windowMs: number, now: number): Promise<LimitCount> => (calls.hit++, inner.hit(key, windowMs, now)),
		hitPair: (first: LimitHit, second: LimitHit, limit: number, now: number) => (calls.pair++, inner.hitPair!(first, second, limit, now)),
		release: (key, resetAt) => inner.release(key, resetAt),
		reset: (key) => inner.reset(key),
		sweep: (now) => inner.sweep(now)
	};
	return { store, calls, url: database.url };
}

const RULES = {
	credentials: {
		address: { limit: 8, window: 600 },
		account: { freeAttempts: 3, delay: 2, maxDelay: 30, limit: 12, window: 3600 }
	}
};

describe('a store with hitPair', () => {
	it('gives the same decisions as two hits, in one call per attempt (plus the delay gate once past the free attempts)', async () => {
		const { store, calls } = await pairStore();
		const withPair = testLimiter({ store, rules: RULES }, new Clock());
		const twoHits = testLimiter({ store: new RecordingStore(), rules: RULES }, new Clock());
		const decisions: [LimitDecision, LimitDecision][] = [];
		// Two addresses, one account: the account's delays, then the first address's limit.
		for (let i = 0; i < 20; i++) {
			const address = i % 4 === 3 ? '192.0.2.2' : '192.0.2.1';
			decisions.push([await withPair.attempt('credentials', address, 'alice@example.com'), await twoHits.attempt('credentials', address, 'alice@example.com')]);
			withPair.clock.advance(SECOND);
			twoHits.clock.advance(SECOND);
		}
		expect(decisions.map(([pair]) => pair)).toEqual(decisions.map(([, two]) => two));
		expect(decisions.some(([pair]) => !pair.allowed && pair.scope === 'address')).toBe(true);
		expect(decisions.some(([pair]) => !pair.allowed && pair.scope === 'account')).toBe(true);
		expect(calls.pair).toBe(20);
		// Single hits only for the delay gate (attempts past the free ones that the address let through).
		expect(calls.hit).toBeLessThan(20);
	});

	it('an attempt refused for its address does not count against the account', async () => {
		const { store, url } = await pairStore();
		const { attempt } = testLimiter({ store, rules: { credentials: { address: { limit: 2, window: 600 }, account: { freeAttempts: 100, limit: 100, window: 3600 } } } });
		for (let i = 0; i < 6; i++) await attempt('credentials', '192.0.2.7', 'bob@example.com');
		const raw = createClient({ url });
		cleanups.push(() => raw.close());
		const { rows } = await raw.execute("SELECT key, count FROM rateLimit WHERE key LIKE 'credentials:%' ORDER BY key");
		expect(rows.map((row) => [String(row['key']).split(':')[1], Number(row['count'])])).toEqual([
			['a', 6],
			['i', 2]
		]);
	});

	it('a failing pair is a store failure: logged once, answered from memory (fail open) or refused (fail closed)', async () => {
		for (const failOpen of [true, false]) {
			const { store } = await pairStore();
			store.hitPair = () => Promise.reject(new Error('the database went away'));
			const { attempt, recorded } = testLimiter({ store, rules: RULES, failOpen });
			const decision = await attempt('credentials', '192.0.2.9', 'carol@example.com');
			expect(decision.allowed).toBe(failOpen);
			expect(recorded.errors).toHaveLength(1);
			expect(recorded.errors[0]!.message).toContain('count an attempt');
		}
	});
});
