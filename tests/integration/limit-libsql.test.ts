/**
 * Rate-limit counters in the libSQL adapter (a real database file): the store conformance suite,
 * the migration's table, the sweep, the limiter using the adapter by default, and a broken
 * database (fail open to memory, or closed; logged; never a throw).
 */
import { createClient, type Client } from '@libsql/client';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LibSQLAdapter, migrate, type LibSQLAdapterInstance } from '../../src/lib/adapters/libsql/index.js';
import { resolveOptions } from '../../src/lib/core/config.js';
import { AdapterError, RateLimitStoreError } from '../../src/lib/core/errors.js';
import { adapterStore } from '../../src/lib/core/limit/adapter-store.js';
import { DEFAULT_RULES } from '../../src/lib/core/limit/defaults.js';
import type { AuthConfig, LoggerInstance } from '../../src/lib/core/types/config.js';
import type { AddressRule, LimitStore } from '../../src/lib/core/types/limit.js';
import { tempDatabase, type TempDatabase } from '../adapter/support.js';
import { describeLimiterOnStore, describeLimitStore, describeLimitStorePair } from './limit-store-conformance.js';

const SECRET = 'libsql-limit-secret-0123456789abcdefgh';
let database: TempDatabase;
let raw: Client;
let adapter: LibSQLAdapterInstance;
let store: LimitStore;

beforeAll(async () => {
	database = tempDatabase('kitauth-limit-');
	raw = createClient({ url: database.url });
	await migrate(raw);
	adapter = LibSQLAdapter({ url: database.url });
	store = adapterStore(adapter)!;
});

afterAll(() => {
	raw?.close();
	database?.remove();
});

describeLimitStore('libSQL adapter (file)', () => store);
describeLimitStorePair('libSQL adapter (file)', () => store);
describeLimiterOnStore('libSQL adapter (file)', () => store);

describe('the rateLimit table', () => {
	it('is made by the migrations, with the index the sweep uses', async () => {
		const index = await raw.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'rateLimit'");
		expect(index.rows.map((row) => row['name'])).toContain('rateLimit_resetAt_idx');
	});

	it('holds one row per key: the count and the window end', async () => {
		await adapter.hitRateLimit('table:k', 60_000, 1_000);
		await adapter.hitRateLimit('table:k', 60_000, 2_000);
		const rows = await raw.execute({ sql: 'SELECT count, resetAt FROM rateLimit WHERE key = ?', args: ['table:k'] });
		expect(rows.rows.map((row) => [Number(row['count']), Number(row['resetAt'])])).toEqual([[2, 61_000]]);
	});

	it('deleteExpiredRateLimits deletes exactly the expired rows, in chunks', async () => {
		await raw.execute('DELETE FROM rateLimit');
		const statements = Array.from({ length: 2500 }, (_, i) => ({
			sql: 'INSERT INTO rateLimit (key, count, resetAt) VALUES (?, 1, ?)',
			args: [`sweep:${i}`, i < 2300 ? 5_000 : 50_000]
		}));
		await raw.batch(statements, 'write');
		expect(await adapter.deleteExpiredRateLimits(4_999)).toBe(0);
		expect(await adapter.deleteExpiredRateLimits(5_000)).toBe(2300);
		const left = await raw.execute('SELECT count(*) AS n, min(resetAt) AS min FROM rateLimit');
		expect([Number(left.rows[0]?.['n']), Number(left.rows[0]?.['min'])]).toEqual([200, 50_000]);
	});

	it('rejects a hit without integer times (no row written)', async () => {
		await expect(adapter.hitRateLimit('bad', 1000, Number.NaN)).rejects.toThrow(/integer milliseconds/);
		const rows = await raw.execute({ sql: 'SELECT 1 FROM rateLimit WHERE key = ?', args: ['bad'] });
		expect(rows.rows).toHaveLength(0);
	});

	it('rejects a release without an integer window end (the row is left as it was)', async () => {
		const { resetAt } = await adapter.hitRateLimit('release:k', 60_000, 1_000);
		await expect(adapter.releaseRateLimit('release:k', resetAt + 0.5)).rejects.toThrow(/integer milliseconds/);
		await adapter.releaseRateLimit('release:k', resetAt);
		const rows = await raw.execute({ sql: 'SELECT count FROM rateLimit WHERE key = ?', args: ['release:k'] });
		expect(rows.rows.map((row) => Number(row['count']))).toEqual([0]);
	});
});

describe('the limiter on the adapter', () => {
	it('uses the adapter by default: the counters are in the database file', async () => {
		const config: AuthConfig = { providers: [], adapter: LibSQLAdapter({ url: database.url }), session: { strategy: 'jwt' }, rateLimit: true };
		const { limiter } = resolveOptions(config, { env: { AUTH_SECRET: SECRET } });
		const attempt = { address: '192.0.2.44', headers: new Headers() };
		const { limit } = DEFAULT_RULES.credentials.address as AddressRule;
		const decisions = [];
		for (let i = 0; i < limit + 2; i++) decisions.push((await limiter.check('credentials', attempt)).allowed);
		expect(decisions.filter(Boolean)).toHaveLength(limit);
		const row = await raw.execute({ sql: 'SELECT count FROM rateLimit WHERE key = ?', args: ['credentials:a:192.0.2.44'] });
		expect(Number(row.rows[0]?.['count'])).toBe(limit + 2);
		// A success takes its hit back, in the same file.
		const signedIn = await limiter.check('credentials', { ...attempt, address: '192.0.2.45' });
		await limiter.succeeded('credentials', undefined, signedIn);
		const refunded = await raw.execute({ sql: 'SELECT count FROM rateLimit WHERE key = ?', args: ['credentials:a:192.0.2.45'] });
		expect(Number(refunded.rows[0]?.['count'])).toBe(0);
	});
});

describe('a broken database', () => {
	function broken(url: string, failOpen: boolean) {
		const errors: Error[] = [];
		const logger: Partial<LoggerInstance> = { error: (error) => errors.push(error), warn: () => {}, debug: () => {} };
		const config: AuthConfig = {
			providers: [],
			adapter: LibSQLAdapter({ url }, { remoteTimeout: 2000 }),
			session: { strategy: 'jwt' },
			rateLimit: { failOpen, rules: { credentials: { address: { limit: 2 } } } },
			logger
		};
		return { limiter: resolveOptions(config, { env: { AUTH_SECRET: SECRET } }).limiter, errors };
	}

	const urls = {
		'a file that is not a database': () => {
			const path = join(database.dir, 'not-a-database.db');
			writeFileSync(path, 'this is not an SQLite file, '.repeat(200));
			return `file:${path}`;
		},
		'a database that was never migrated': () => `file:${join(database.dir, 'empty.db')}`,
		'a libSQL server that is not there': () => 'http://127.0.0.1:9/'
	};

	for (const [what, make] of Object.entries(urls)) {
		it(`${what}: fails open (memory limits still apply) and logs the adapter's error`, async () => {
			const { limiter, errors } = broken(make(), true);
			const attempt = { address: '192.0.2.9', headers: new Headers(), identifier: 'a@example.com' };
			const decisions = [];
			for (let i = 0; i < 3; i++) decisions.push(await limiter.check('credentials', attempt));
			expect(decisions.map((d) => d.allowed)).toEqual([true, true, false]);
			expect(errors).toHaveLength(3);
			expect(errors[0]).toBeInstanceOf(RateLimitStoreError);
			expect((errors[0] as RateLimitStoreError).cause?.err).toBeInstanceOf(AdapterError);
			expect(JSON.stringify(errors.map((e) => `${e.message} ${String((e as RateLimitStoreError).cause?.err)}`))).not.toMatch(/a@example\.com/);
		});

		it(`${what}: with failOpen false, refuses`, async () => {
			const { limiter, errors } = broken(make(), false);
			const decision = await limiter.check('credentials', { address: '192.0.2.9', headers: new Headers() });
			expect(decision).toEqual({ allowed: false, retryAfter: 10, scope: 'address', unavailable: true });
			expect(errors).toHaveLength(1);
		});
	}
});
