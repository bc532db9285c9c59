/**
 * The PostgreSQL adapter's migrate(): idempotent, safe when instances start together, in step
 * with ./drizzle/postgres and with `drizzle-kit migrate`, and the schema in step with the
 * migrations. On a real server, a fresh database per test.
 */
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { dialects, renderEmbeddedMigrations } from '../../scripts/embed-migrations.js';
import { migrate } from '../../src/lib/adapters/postgres/index.js';
import * as schema from '../../src/lib/adapters/postgres/schema.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { runDrizzleKit } from './drizzle-kit.js';
import { databaseMaker } from './postgres-support.js';

const { folder } = dialects.postgres;
const journal = JSON.parse(readFileSync(resolve(folder, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string; when: number }[] };
const expectedRecords = journal.entries.map(({ tag, when }) => ({
	hash: createHash('sha256').update(readFileSync(resolve(folder, `${tag}.sql`))).digest('hex'),
	created_at: when
}));

let cluster: PostgresCluster;
let databases: ReturnType<typeof databaseMaker>;
const pools: pg.Pool[] = [];

beforeAll(async () => {
	cluster = await startPostgres();
	databases = databaseMaker(cluster, 'migrate');
});

afterAll(async () => {
	await Promise.all(pools.map((pool) => pool.end()));
	await databases?.end();
	cluster?.stop();
});

/** A fresh, empty database: its URL. */
const freshDatabase = () => databases.fresh();

function poolOn(url: string): pg.Pool {
	const pool = new pg.Pool({ connectionString: url, max: 2 });
	pools.push(pool);
	return pool;
}

async function records(pool: pg.Pool) {
	const { rows } = await pool.query<{ hash: string; created_at: string }>('SELECT hash, created_at FROM drizzle."__kitauth_migrations" ORDER BY created_at');
	return rows.map((row) => ({ hash: row.hash, created_at: Number(row.created_at) }));
}

describe('migrate() on PostgreSQL', () => {
	test('applies every migration once, recording drizzle’s hash and created_at; then finds nothing to do', async () => {
		const pool = poolOn(await freshDatabase());
		expect(await migrate(pool)).toEqual({ applied: journal.entries.map((e) => e.tag), adopted: false });
		expect(await records(pool)).toEqual(expectedRecords);
		expect(await migrate(pool)).toEqual({ applied: [], adopted: false });
		expect(await records(pool)).toEqual(expectedRecords);
		const { rows } = await pool.query<{ table_name: string }>(
			"SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name"
		);
		expect(rows.map((row) => row.table_name)).toEqual([
			'account',
			'authenticator',
			'password',
			'rateLimit',
			'session',
			'sessionCutoff',
			'twoFactor',
			'user',
			'verificationToken'
		]);
	});

	test('four instances starting together: each migration applied once (a transaction-scoped lock)', async () => {
		const url = await freshDatabase();
		const results = await Promise.all(Array.from({ length: 4 }, () => migrate(poolOn(url))));
		expect(results.flatMap((result) => result.applied)).toEqual(journal.entries.map((e) => e.tag));
		expect(await records(poolOn(url))).toEqual(expectedRecords);
	});

	test('a failing migration leaves nothing behind (one transaction), and says why', async () => {
		const url = await freshDatabase();
		const pool = poolOn(url);
		// A table in the way of the second migration: it fails, and the first is rolled back with it.
		await pool.query('CREATE TABLE "rateLimit" (x int)');
		await expect(migrate(pool)).rejects.toMatchObject({ name: 'PostgresAdapterError', operation: 'migrate', code: '42P07' });
		const { rows } = await pool.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'user'");
		expect(rows).toEqual([]);
	});

	test('after `drizzle-kit migrate`, migrate() finds nothing to do', async () => {
		const url = await freshDatabase();
		const run = await runDrizzleKit(['migrate', '--config', 'drizzle.postgres.config.ts'], { DATABASE_URL: url });
		expect(run.code, run.output).toBe(0);
		const pool = poolOn(url);
		expect(await records(pool)).toEqual(expectedRecords);
		expect(await migrate(pool)).toEqual({ applied: [], adopted: false });
	});

	test('after migrate(), `drizzle-kit migrate` finds nothing to do', async () => {
		const url = await freshDatabase();
		const pool = poolOn(url);
		await migrate(pool);
		const run = await runDrizzleKit(['migrate', '--config', 'drizzle.postgres.config.ts'], { DATABASE_URL: url });
		expect(run.code, run.output).toBe(0);
		expect(await records(pool)).toEqual(expectedRecords);
	});
});

describe('the PostgreSQL migrations stay in step', () => {
	test('the embedded module is what scripts/embed-migrations.ts makes of ./drizzle/postgres', () => {
		expect(readFileSync(dialects.postgres.module, 'utf8')).toBe(renderEmbeddedMigrations(folder));
	});

	test('the schema has no change that is not in a migration', async () => {
		const last = journal.entries.at(-1)!;
		const snapshot = JSON.parse(readFileSync(resolve(folder, `meta/${last.tag.slice(0, 4)}_snapshot.json`), 'utf8')) as ReturnType<typeof generateDrizzleJson>;
		expect(await generateMigration(snapshot, generateDrizzleJson({ ...schema }))).toEqual([]);
	});
});
