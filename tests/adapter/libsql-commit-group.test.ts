/**
 * The libSQL adapter's counter writes in commit groups (`commit-group.ts`), on real database files:
 * the hits and resets asked for in one turn are one transaction (seen in the WAL: one commit's
 * frames, not one set per write), each sees the ones before it, and a group that fails changes
 * nothing and fails each caller under its own operation.
 */
import { createClient } from '@libsql/client';
import { statSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import { LibSQLAdapter, migrate, type LibSQLAdapterOptions } from '../../src/lib/adapters/libsql/index.js';
import { holdWriteLock } from '../support/lock-holders.js';
import { tempDatabase } from './support.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function migratedFile() {
	const database = tempDatabase('kitauth-commit-group-');
	cleanups.push(() => database.remove());
	const client = createClient({ url: database.url });
	await migrate(client);
	client.close();
	return database;
}

/** The adapter on its own client, closed when the test ends; its counter methods as promises. */
function counters(url: string, options?: LibSQLAdapterOptions) {
	const client = createClient({ url });
	cleanups.push(() => client.close());
	const adapter = LibSQLAdapter(client, options);
	return {
		hit: (key: string, windowMs: number, now: number) => Promise.resolve(adapter.hitRateLimit(key, windowMs, now)),
		pair: (first: string, second: string, firstLimit: number, windowMs = HOUR) =>
			Promise.resolve(adapter.hitRateLimitPair({ key: first, windowMs }, { key: second, windowMs }, firstLimit, NOW)),
		reset: (key: string) => Promise.resolve(adapter.resetRateLimit(key))
	};
}

const HOUR = 3_600_000;
const NOW = 1_700_000_000_000;

/** Bytes the WAL grew by during `run` (each commit appends its changed pages as frames). */
async function walGrowth(path: string, run: () => Promise<unknown>): Promise<number> {
	const size = () => statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0;
	const before = size();
	await run();
	return size() - before;
}

describe('counter writes asked for in one turn', () => {
	test('commit as one transaction, each seeing the ones before it', async () => {
		const database = await migratedFile();
		const adapter = counters(database.url);
		// Warm: the connection open, the row in place (a hit then changes it where it is).
		await adapter.hit('address', HOUR, NOW);

		const one = await walGrowth(database.path, () => adapter.hit('address', HOUR, NOW));
		expect(one).toBeGreaterThan(0);
		// One after the other: a transaction each.
		const apart = await walGrowth(database.path, async () => {
			for (let i = 0; i < 10; i++) await adapter.hit('address', HOUR, NOW);
		});
		expect(apart).toBeGreaterThanOrEqual(10 * one);

		// Twenty writes in one turn: hits and pairs on shared keys, and a reset between them.
		const counts: Promise<unknown>[] = [];
		const together = await walGrowth(database.path, async () => {
			for (let i = 0; i < 6; i++) counts.push(adapter.hit('address', HOUR, NOW));
			counts.push(adapter.reset('address'));
			for (let i = 0; i < 6; i++) counts.push(adapter.pair('address', `account-${i % 2}`, 3));
			for (let i = 0; i < 7; i++) counts.push(adapter.hit(`other-${i}`, HOUR, NOW));
			await Promise.all(counts);
		});
		expect(together).toBeLessThanOrEqual(3 * one);
		const answers = await Promise.all(counts);
		// 12 hits before the group, 6 more in it, then the reset: the pairs count from 1 again.
		expect(answers.slice(0, 6).map((hit) => (hit as { count: number }).count)).toEqual([13, 14, 15, 16, 17, 18]);
		expect(answers[6]).toBeUndefined();
		expect(answers.slice(7, 13)).toEqual([
			[{ count: 1, resetAt: NOW + HOUR }, { count: 1, resetAt: NOW + HOUR }],
			[{ count: 2, resetAt: NOW + HOUR }, { count: 1, resetAt: NOW + HOUR }],
			[{ count: 3, resetAt: NOW + HOUR }, { count: 2, resetAt: NOW + HOUR }],
			[{ count: 4, resetAt: NOW + HOUR }, undefined],
			[{ count: 5, resetAt: NOW + HOUR }, undefined],
			[{ count: 6, resetAt: NOW + HOUR }, undefined]
		]);
		expect(answers.slice(13).map((hit) => (hit as { count: number }).count)).toEqual([1, 1, 1, 1, 1, 1, 1]);
	});

	test('that fail together change nothing, and each caller is told under its own operation', async () => {
		const database = await migratedFile();
		const adapter = counters(database.url, { busyTimeout: 300, retryAfter: 4 });
		await adapter.hit('address', HOUR, NOW);

		const release = await holdWriteLock(database.path, 'immediate');
		cleanups.push(release);
		const busy = { name: 'LibSQLAdapterError', code: 'SQLITE_BUSY', retryable: true, retryAfter: 4 };
		const calls = [
			adapter.hit('address', HOUR, NOW),
			adapter.pair('address', 'account', 10),
			adapter.reset('address')
		];
		const outcomes = await Promise.allSettled(calls);
		expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
		const reasons = outcomes.map((outcome) => (outcome as PromiseRejectedResult).reason as Error);
		expect(reasons[0]).toMatchObject({ ...busy, operation: 'hitRateLimit' });
		expect(reasons[1]).toMatchObject({ ...busy, operation: 'hitRateLimitPair' });
		expect(reasons[2]).toMatchObject({ ...busy, operation: 'resetRateLimit' });
		expect(reasons[2]!.message).toMatch(/^LibSQLAdapter\.resetRateLimit: the database stayed locked/);
		await release();

		// Nothing of the group was committed: the address still has its one hit, the account none.
		expect(await adapter.hit('address', HOUR, NOW)).toEqual({ count: 2, resetAt: NOW + HOUR });
		expect(await adapter.hit('account', HOUR, NOW)).toEqual({ count: 1, resetAt: NOW + HOUR });
	});

	test('a call with bad arguments fails alone; the others of its turn are counted', async () => {
		const database = await migratedFile();
		const adapter = counters(database.url);
		const outcomes = await Promise.allSettled([
			adapter.hit('a', HOUR, NOW),
			adapter.hit('b', Number.NaN, NOW),
			adapter.pair('a', 'c', Number.NaN),
			adapter.hit('a', HOUR, NOW)
		]);
		expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
		expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'INVALID_ARGUMENT', operation: 'hitRateLimit' });
		expect((outcomes[2] as PromiseRejectedResult).reason).toMatchObject({ code: 'INVALID_ARGUMENT', operation: 'hitRateLimitPair' });
		expect((outcomes[3] as PromiseFulfilledResult<unknown>).value).toEqual({ count: 2, resetAt: NOW + HOUR });
	});
});

describe('new sessions asked for in one turn', () => {
	/** The adapter on its own client with `users` stored, and a session's values for one of them. */
	async function sessions(url: string) {
		const client = createClient({ url });
		cleanups.push(() => client.close());
		const adapter = LibSQLAdapter(client);
		for (const id of ['u1', 'u2']) await adapter.createUser!({ id, email: `${id}@example.com`, emailVerified: null });
		const expires = new Date(NOW + HOUR);
		return { adapter, session: (sessionToken: string, userId = 'u1') => ({ sessionToken, userId, expires }) };
	}

	test('commit as one transaction, and each caller gets its own row', async () => {
		const database = await migratedFile();
		const { adapter, session } = await sessions(database.url);
		await adapter.createSession!(session('warm'));
		const one = await walGrowth(database.path, async () => adapter.createSession!(session('one')));
		const rows = await walGrowth(database.path, async () => {
			const made = await Promise.all(Array.from({ length: 10 }, (_, i) => adapter.createSession!(session(`t${i}`, i % 2 ? 'u2' : 'u1'))));
			expect(made.map((row) => [row.sessionToken, row.userId])).toEqual(Array.from({ length: 10 }, (_, i) => [`t${i}`, i % 2 ? 'u2' : 'u1']));
		});
		expect(rows).toBeLessThan(4 * one);
		expect((await adapter.listSessionsByUserId!('u2')).map((row) => row.sessionToken)).toEqual(['t1', 't3', 't5', 't7', 't9']);
	});

	test('a row that breaks a constraint fails alone; the others of its turn are stored', async () => {
		const database = await migratedFile();
		const { adapter, session } = await sessions(database.url);
		await adapter.createSession!(session('taken'));
		const outcomes = await Promise.allSettled([
			adapter.createSession!(session('a')),
			adapter.createSession!(session('taken')),
			adapter.createSession!(session('b', 'no-such-user')),
			adapter.createSession!(session('c', 'u2'))
		]);
		expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
		for (const failed of [outcomes[1], outcomes[2]]) {
			expect((failed as PromiseRejectedResult).reason).toMatchObject({ name: 'LibSQLAdapterError', operation: 'createSession', code: expect.stringMatching(/^SQLITE_CONSTRAINT/) });
		}
		expect((await adapter.getSessionAndUser!('a'))?.user.id).toBe('u1');
		expect((await adapter.getSessionAndUser!('c'))?.user.id).toBe('u2');
		expect(await adapter.getSessionAndUser!('b')).toBeNull();
	});

	test('a sign-in whose client left before its group committed stores no session', async () => {
		const database = await migratedFile();
		const { adapter, session } = await sessions(database.url);
		const left = new AbortController();
		const calls = [adapter.createSession!(session('stays')), adapter.createSession!(session('left'), { signal: left.signal })];
		left.abort();
		const outcomes = await Promise.allSettled(calls);
		expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected']);
		expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ name: 'LibSQLAdapterError', operation: 'createSession', code: 'ABORTED' });
		expect(await adapter.getSessionAndUser!('left')).toBeNull();
		expect(await adapter.getSessionAndUser!('stays')).not.toBeNull();
	});
});
