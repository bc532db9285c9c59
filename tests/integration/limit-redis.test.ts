/**
 * `kitauth/limit/redis` against a real redis-server (started here, 127.0.0.1, a random port) with
 * the real `redis` client: the store conformance suite, TTLs, the script cache, and the server
 * going away (fail open to memory or closed, logged, never a throw) and coming back.
 */
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/lib/core/config.js';
import { RateLimitStoreError } from '../../src/lib/core/errors.js';
import type { LoggerInstance } from '../../src/lib/core/types/config.js';
import { RedisStore } from '../../src/lib/limit/redis.js';
import { HIT_SCRIPT, PAIR_SCRIPT } from '../../src/lib/limit/redis-scripts.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import { describeLimiterOnStore, describeLimitStore, describeLimitStorePair } from './limit-store-conformance.js';

let server: RedisServer;
let client: Awaited<ReturnType<typeof connect>>;

async function connect(url: string) {
	const connection = createClient({ url, socket: { reconnectStrategy: () => 50, connectTimeout: 1000 } });
	// A server going away is expected here: its connection errors are not test failures.
	connection.on('error', () => {});
	await connection.connect();
	return connection;
}

beforeAll(async () => {
	server = await startRedis();
	client = await connect(server.url);
});

afterAll(async () => {
	client?.destroy();
	await server?.close();
});

describeLimitStore('Redis', () => RedisStore(client));
describeLimitStorePair('Redis', () => RedisStore(client));
describeLimiterOnStore('Redis', () => RedisStore(client));

describe('RedisStore', () => {
	it('keys carry the prefix; a counter is a hash with a TTL of the window (Redis expires it: sweep has nothing to do)', async () => {
		const store = RedisStore(client, { prefix: 'app1:' });
		const now = Date.now();
		await store.hit('ttl', 60_000, now);
		expect(await client.hGetAll('app1:ttl')).toEqual({ n: '1', r: String(now + 60_000) });
		const ttl = await client.pTTL('app1:ttl');
		expect(ttl).toBeGreaterThan(55_000);
		expect(ttl).toBeLessThanOrEqual(60_000);
		await store.hit('ttl', 60_000, now + 1);
		expect(await client.pTTL('app1:ttl')).toBeLessThanOrEqual(ttl); // not pushed out by later hits
		expect(await store.sweep(now + 120_000)).toBe(0);
		await store.reset('ttl');
		expect(await client.exists('app1:ttl')).toBe(0);
	});

	it('a new window sets a new TTL', async () => {
		const store = RedisStore(client);
		const now = Date.now();
		await store.hit('renew', 1_000, now - 5_000); // a window that ended (by the caller's clock)
		await store.hit('renew', 30_000, now);
		expect(await client.pTTL('kitauth:rl:renew')).toBeGreaterThan(25_000);
	});

	it('runs the script by its SHA, and falls back to EVAL when the server forgot it (SCRIPT FLUSH)', async () => {
		const store = RedisStore(client);
		const sha = await client.scriptLoad(HIT_SCRIPT);
		await store.hit('sha', 60_000, 1);
		expect((await client.scriptExists([sha]))[0]).toBeTruthy();
		await client.scriptFlush();
		expect(await store.hit('sha', 60_000, 2)).toEqual({ count: 2, resetAt: 60_001 });
	});

	it('counts a pair in one script, also by its SHA and after SCRIPT FLUSH; with pairs: false it has no pair (one key per command, for a cluster)', async () => {
		const store = RedisStore(client, { prefix: 'pair:' });
		const sha = await client.scriptLoad(PAIR_SCRIPT);
		const first = { key: 'address', windowMs: 60_000 };
		const second = { key: 'account', windowMs: 3_600_000 };
		expect(await store.hitPair!(first, second, 1, 10)).toEqual([{ count: 1, resetAt: 60_010 }, { count: 1, resetAt: 3_600_010 }]);
		expect((await client.scriptExists([sha]))[0]).toBeTruthy();
		expect(await client.hGetAll('pair:account')).toEqual({ n: '1', r: '3600010' });
		expect(await client.pTTL('pair:account')).toBeGreaterThan(3_500_000);
		await client.scriptFlush();
		// Over the first's limit: the second is not counted.
		expect(await store.hitPair!(first, second, 1, 20)).toEqual([{ count: 2, resetAt: 60_010 }, undefined]);
		expect(await client.hGet('pair:account', 'n')).toBe('1');
		expect(RedisStore(client, { pairs: false }).hitPair).toBeUndefined();
	});

	it('an ioredis-style client fits through a one-line sendCommand', async () => {
		// ioredis: `{ sendCommand: ([name, ...args]) => redis.call(name, ...args) }`; here the same shape over node-redis.
		const call = (name: string, ...args: string[]) => client.sendCommand([name, ...args]);
		const store = RedisStore({ sendCommand: ([name, ...args]) => call(name!, ...args) });
		expect(await store.hit('ioredis-shape', 1000, 5)).toEqual({ count: 1, resetAt: 1005 });
	});
});

describe('the server goes away', () => {
	function limiterOn(store: ReturnType<typeof RedisStore>, failOpen: boolean) {
		const errors: Error[] = [];
		const logger: Partial<LoggerInstance> = { error: (error) => errors.push(error), warn: () => {}, debug: () => {} };
		const { limiter } = resolveOptions(
			{ providers: [], logger, rateLimit: { store, failOpen, timeout: 300, rules: { credentials: { address: { limit: 2 } } } } },
			{ env: { AUTH_SECRET: 'redis-limit-secret-0123456789abcdefgh' } }
		);
		return { limiter, errors };
	}
	const attempt = { address: '192.0.2.80', headers: new Headers(), identifier: 'a@example.com' };

	it('fails open (memory limits still apply) or closed, logs, and never throws; recovers when it is back', async () => {
		const own = await connect(server.url);
		try {
			const open = limiterOn(RedisStore(own), true);
			const closed = limiterOn(RedisStore(own), false);
			expect(await open.limiter.check('credentials', attempt)).toMatchObject({ allowed: true });
			await server.stop();

			// The client queues commands while it reconnects: the limiter's deadline decides. Memory
			// counts from zero (the attempt Redis counted is not there): two allowed, then refused.
			const decisions = [];
			for (let i = 0; i < 3; i++) decisions.push((await open.limiter.check('credentials', attempt)).allowed);
			expect(decisions).toEqual([true, true, false]);
			expect(open.errors).toHaveLength(3);
			expect(open.errors[0]).toBeInstanceOf(RateLimitStoreError);
			expect(open.errors[0]?.message).toMatch(/answered from this process's memory/);

			expect(await closed.limiter.check('credentials', attempt)).toEqual({ allowed: false, retryAfter: 10, scope: 'address', unavailable: true });
			expect(closed.errors).toHaveLength(1);
			await expect(open.limiter.succeeded('credentials', 'a@example.com')).resolves.toBeUndefined();

			await server.restart(); // empty, and without the script
			await waitForReady(own);
			expect(await closed.limiter.check('credentials', { ...attempt, address: '192.0.2.81' })).toMatchObject({ allowed: true });
			expect(await own.hGet('kitauth:rl:credentials:a:192.0.2.81', 'n')).toBe('1');
		} finally {
			own.destroy();
		}
	});
});

/** The client reconnects on its own; resolves once a PING goes through (bounded, no fixed sleep). */
async function waitForReady(connection: { ping(): Promise<string> }): Promise<void> {
	for (let i = 0; i < 200; i++) {
		try {
			if ((await connection.ping()) === 'PONG') return;
		} catch {
			await new Promise((resolve) => setTimeout(resolve, 25));
		}
	}
	throw new Error('the redis client did not reconnect');
}
