/**
 * The PostgreSQL adapter through a transaction pooler (PgBouncer in transaction mode, started
 * here in front of a real server): migrate() and the whole conformance suite, on node-postgres
 * and on postgres.js with `prepare: false`. Nothing the adapter does may rely on session state
 * surviving a statement.
 */
import pg from 'pg';
import postgres from 'postgres';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { migrate, PostgresAdapter } from '../../src/lib/adapters/postgres/index.js';
import { startPgBouncer, type Pooler } from '../support/pgbouncer.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { runAdapterConformance } from './conformance.js';
import { pgRawReads } from './postgres-support.js';
import { migrations } from '#lib/adapters/postgres/migrations.generated.js';

let cluster: PostgresCluster;
let pooler: Pooler;
let reader: pg.Pool;

beforeAll(async () => {
	cluster = await startPostgres();
	pooler = await startPgBouncer(cluster);
	reader = new pg.Pool({ connectionString: cluster.connectionString, max: 2 });
});

afterAll(async () => {
	await reader?.end();
	await pooler?.stop();
	cluster?.stop();
});

test('migrate() through the pooler: four instances at once apply each migration once', async () => {
	const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: pooler.connectionString, max: 2 }));
	const results = await Promise.all(pools.map((pool) => migrate(pool)));
	await Promise.all(pools.map((pool) => pool.end()));
	expect(results.flatMap((result) => result.applied)).toEqual(migrations.map((migration) => migration.tag));
	const { rows } = await reader.query('SELECT count(*)::int AS n FROM drizzle."__kitauth_migrations"');
	expect(rows[0].n).toBe(migrations.length);
});

runAdapterConformance('PostgresAdapter over node-postgres, through PgBouncer (transaction mode)', () => {
	const pool = new pg.Pool({ connectionString: pooler.connectionString, max: 8 });
	return { adapter: PostgresAdapter(pool), db: pgRawReads(reader), cleanup: () => pool.end() };
});

runAdapterConformance('PostgresAdapter over postgres.js (prepare: false), through PgBouncer (transaction mode)', () => {
	const sql = postgres(pooler.connectionString, { max: 8, prepare: false, onnotice: () => {} });
	return { adapter: PostgresAdapter(sql), db: pgRawReads(reader), cleanup: () => sql.end() };
});
