/**
 * The conformance suite against PostgresAdapter on a real PostgreSQL server (from the Debian
 * package, started here), migrated by the adapter's `migrate()`: through node-postgres (a Pool)
 * and through postgres.js, each read back through a connection of the test's own.
 */
import pg from 'pg';
import postgres from 'postgres';
import { afterAll, beforeAll } from 'vitest';
import { migrate, PostgresAdapter } from '../../src/lib/adapters/postgres/index.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { runAdapterConformance } from './conformance.js';
import { pgRawReads } from './postgres-support.js';

let cluster: PostgresCluster;
let reader: pg.Pool;

beforeAll(async () => {
	cluster = await startPostgres();
	reader = new pg.Pool({ connectionString: cluster.connectionString, max: 2 });
	await migrate(reader);
});

afterAll(async () => {
	await reader?.end();
	cluster?.stop();
});

runAdapterConformance('PostgresAdapter over node-postgres', () => {
	const pool = new pg.Pool({ connectionString: cluster.connectionString, max: 8 });
	return { adapter: PostgresAdapter(pool), db: pgRawReads(reader), cleanup: () => pool.end() };
});

runAdapterConformance('PostgresAdapter over postgres.js', () => {
	const sql = postgres(cluster.connectionString, { max: 8, onnotice: () => {} });
	return { adapter: PostgresAdapter(sql), db: pgRawReads(reader), cleanup: () => sql.end() };
});
