/**
 * kitauth's own adapters on the engines apps scale out on, across OS processes: two app servers
 * (tests/support/engine-app-worker.ts) share one database — PostgreSQL (a real server from the
 * Debian package, started here) through node-postgres and through postgres.js, and libSQL on one
 * file — and a browser behind a load balancer reaches either over HTTP. The scenarios are
 * `engine-scenarios.ts`'s (D1's run in `d1-instances.test.ts`).
 */
import { createClient } from '@libsql/client';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { migrate as migrateLibSQL } from '../../src/lib/adapters/libsql/index.js';
import { migrate as migratePostgres } from '../../src/lib/adapters/postgres/index.js';
import { databaseMaker } from '../adapter/postgres-support.js';
import { tempDatabase, type TempDatabase } from '../adapter/support.js';
import { type AppProcess, httpHandler, startAppProcess, stopAppProcess } from '../support/app-process.js';
import type { EngineJob } from '../support/engine-app-worker.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { engineScenarios } from './engine-scenarios.js';
import { ORIGIN } from './fixtures.js';

const worker = fileURLToPath(new URL('../support/engine-app-worker.ts', import.meta.url));

/** The shared database, as the test reads it (never through the apps). */
interface Shared {
	url: string;
	sessionRows(): Promise<number>;
	close(): Promise<void>;
}

let cluster: PostgresCluster | undefined;
const temp: TempDatabase[] = [];

beforeAll(async () => {
	cluster = await startPostgres();
}, 120_000);

afterAll(() => {
	cluster?.stop();
	temp.forEach((database) => database.remove());
});

async function postgresDatabase(name: string): Promise<Shared> {
	const maker = databaseMaker(cluster!, name);
	const url = await maker.fresh();
	await maker.end();
	const pool = new pg.Pool({ connectionString: url, max: 2 });
	await migratePostgres(pool);
	return {
		url,
		sessionRows: async () => Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM "session"')).rows[0]!.n),
		close: () => pool.end()
	};
}

async function libsqlDatabase(): Promise<Shared> {
	const database = tempDatabase('kitauth-engines-');
	temp.push(database);
	const client = createClient({ url: database.url });
	await migrateLibSQL(client);
	return {
		url: database.url,
		sessionRows: async () => Number((await client.execute('SELECT count(*) AS n FROM "session"')).rows[0]!['n']),
		close: async () => client.close()
	};
}

const engines: { name: string; engine: EngineJob['engine']; database: () => Promise<Shared> }[] = [
	{ name: 'PostgreSQL through node-postgres', engine: 'pg', database: () => postgresDatabase('scale_pg') },
	{ name: 'PostgreSQL through postgres.js', engine: 'postgres-js', database: () => postgresDatabase('scale_postgres_js') },
	{ name: 'libSQL on one file', engine: 'libsql', database: libsqlDatabase }
];

for (const { name, engine, database } of engines) {
	describe(`two app processes on ${name}`, () => {
		let shared: Shared;
		let apps: AppProcess[] = [];

		beforeAll(async () => {
			shared = await database();
			const job = JSON.stringify({ engine, url: shared.url } satisfies EngineJob);
			apps = await Promise.all(['A', 'B'].map((app) => startAppProcess(app, worker, [job], ORIGIN)));
		}, 60_000);

		afterAll(async () => {
			await Promise.all(apps.map(stopAppProcess));
			await shared?.close();
		});

		engineScenarios(() => ({
			label: engine,
			instances: apps.map(httpHandler),
			link: async (email) => ((await (await fetch(`${apps[0]!.origin}/__link?email=${encodeURIComponent(email)}`)).json()) as { link: string }).link,
			sessionRows: () => shared.sessionRows(),
			logged: () => apps.flatMap((app) => app.stderr().split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { name: string }).name))
		}));
	});
}
