/**
 * `kitauth/limit/postgres` against a real, throwaway PostgreSQL cluster (tests/support/postgres.ts)
 * through a real `pg` Pool: the store conformance suite, the table it ships as DDL, the sweep, and
 * the database going away (fail open to memory or closed, logged, never a throw).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/lib/core/config.js';
import { RateLimitStoreError } from '../../src/lib/core/errors.js';
import type { LoggerInstance } from '../../src/lib/core/types/config.js';
import { PostgresStore, rateLimitTableSQL, type PostgresLimitStore } from '../../src/lib/limit/postgres.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { describeLimiterOnStore, describeLimitStore, describeLimitStorePair } from './limit-store-conformance.js';

let cluster: PostgresCluster;
let pool: pg.Pool;
let store: PostgresLimitStore;

beforeAll(async () => {
	cluster = await startPostgres();
	pool = new pg.Pool({ connectionString: cluster.connectionString, max: 8 });
	pool.on('error', () => {});
	store = PostgresStore(pool);
	await store.createTable();
}, 120_000);

afterAll(async () => {
	await pool?.end();
	cluster?.stop();
});

describeLimitStore('PostgreSQL', () => store);
describeLimitStorePair('PostgreSQL', () => store);
describeLimiterOnStore('PostgreSQL', () => store);

describe('PostgresStore', () => {
	it('creates nothing by itself: hits fail until the table exists; createTable() is idempotent', async () => {
		const other = PostgresStore(pool, { table: 'limits.counters' });
		await expect(other.hit('k', 1000, 1)).rejects.toThrow(/does not exist/);
		await pool.query('CREATE SCHEMA limits');
		await other.createTable();
		await other.createTable();
		expect(await other.hit('k', 1000, 1)).toEqual({ count: 1, resetAt: 1001 });
		const index = await pool.query("SELECT indexname FROM pg_indexes WHERE schemaname = 'limits' AND tablename = 'counters'");
		expect(index.rows.map((row) => row.indexname).sort()).toEqual(['counters_pkey', 'counters_reset_at_idx']);
	});

	it('ships its DDL for migrations', () => {
		expect(rateLimitTableSQL()).toEqual([
			'CREATE TABLE IF NOT EXISTS "kitauth_rate_limit" (key text PRIMARY KEY, count bigint NOT NULL, reset_at bigint NOT NULL)',
			'CREATE INDEX IF NOT EXISTS "kitauth_rate_limit_reset_at_idx" ON "kitauth_rate_limit" (reset_at)'
		]);
		expect(() => PostgresStore(pool, { table: 'a.b.c' })).toThrow(/not a table name/);
	});

	it('sweep deletes exactly the expired rows, in chunks', async () => {
		const swept = PostgresStore(pool, { table: 'sweep_counters' });
		await swept.createTable();
		await pool.query(
			`INSERT INTO sweep_counters (key, count, reset_at) SELECT 'k' || i, 1, CASE WHEN i <= 2300 THEN 5000 ELSE 50000 END FROM generate_series(1, 2500) AS i`
		);
		expect(await swept.sweep(4_999)).toBe(0);
		expect(await swept.sweep(5_000)).toBe(2300);
		const left = await pool.query('SELECT count(*)::int AS n, min(reset_at)::bigint AS min FROM sweep_counters');
		expect(left.rows[0]).toEqual({ n: 200, min: '50000' });
	});

	it('times past 2038 and counts past 2^31 round-trip (bigint columns)', async () => {
		const far = Date.UTC(2100, 0, 1);
		await pool.query(`INSERT INTO kitauth_rate_limit (key, count, reset_at) VALUES ('big', 3000000000, ${far + 1000})`);
		expect(await store.hit('big', 1000, far)).toEqual({ count: 3_000_000_001, resetAt: far + 1000 });
	});
});

describe('the database goes away', () => {
	function limiterOn(failOpen: boolean, queryable: pg.Pool) {
		const errors: Error[] = [];
		const logger: Partial<LoggerInstance> = { error: (error) => errors.push(error), warn: () => {}, debug: () => {} };
		const { limiter } = resolveOptions(
			{
				providers: [],
				logger,
				rateLimit: { store: PostgresStore(queryable), failOpen, timeout: 2000, rules: { credentials: { address: { limit: 2 } } } }
			},
			{ env: { AUTH_SECRET: 'pg-limit-secret-0123456789abcdefghijk' } }
		);
		return { limiter, errors };
	}
	const attempt = { address: '192.0.2.90', headers: new Headers(), identifier: 'a@example.com' };

	it('a closed pool: fails open (memory limits still apply) or closed, logs, never throws', async () => {
		const closedPool = new pg.Pool({ connectionString: cluster.connectionString, max: 1 });
		await closedPool.end();
		const open = limiterOn(true, closedPool);
		const decisions = [];
		for (let i = 0; i < 3; i++) decisions.push((await open.limiter.check('credentials', attempt)).allowed);
		expect(decisions).toEqual([true, true, false]);
		expect(open.errors).toHaveLength(3);
		expect(open.errors[0]).toBeInstanceOf(RateLimitStoreError);
		expect(String((open.errors[0] as RateLimitStoreError).cause?.err)).toMatch(/Cannot use a pool after calling end/);

		const closed = limiterOn(false, closedPool);
		expect(await closed.limiter.check('credentials', attempt)).toEqual({ allowed: false, retryAfter: 10, scope: 'address', unavailable: true });
		expect(closed.errors).toHaveLength(1);
	});

	it('the server stopped: the same (run last: it takes the cluster down)', async () => {
		const own = new pg.Pool({ connectionString: cluster.connectionString, max: 2, connectionTimeoutMillis: 1000 });
		own.on('error', () => {});
		try {
			const open = limiterOn(true, own);
			expect(await open.limiter.check('credentials', attempt)).toMatchObject({ allowed: true });
			cluster.stop();
			expect(await open.limiter.check('credentials', attempt)).toMatchObject({ allowed: true });
			expect(open.errors).toHaveLength(1);
			const closed = limiterOn(false, own);
			expect(await closed.limiter.check('credentials', attempt)).toEqual({ allowed: false, retryAfter: 10, scope: 'address', unavailable: true });
			await expect(open.limiter.succeeded('credentials', 'a@example.com')).resolves.toBeUndefined();
		} finally {
			await own.end();
		}
	});
});
