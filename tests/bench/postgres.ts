/**
 * The database session read on PostgreSQL (the server from the Debian package, started here):
 * what `locals.auth()` costs a protected page, in process, with kitauth's PostgreSQL adapter (on
 * node-postgres and on postgres.js), with `@auth/drizzle-adapter` on the same server, and without
 * kitauth (the app's own indexed lookup of the same session and user, the floor any adapter
 * pays). Also the statements each read sends: the target is ONE (one indexed round trip).
 *
 *     npx node --experimental-transform-types --import ./tests/support/ts-svelte-import-hook.ts tests/bench/postgres.ts
 *
 * Prints µs per read (median of batches, interleaved so a busy machine's drift hits all alike),
 * each as a multiple of the floor; exits 1 when kitauth's read sends more than one statement.
 */
import { DrizzleAdapter } from '@auth/drizzle-adapter';
import { createHash, randomBytes } from 'node:crypto';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import postgres from 'postgres';
import { migrate, PostgresAdapter } from '../../src/lib/adapters/postgres/index.ts';
import { createAuthServer } from '../../src/lib/core/server.ts';
import type { Adapter } from '../../src/lib/core/types.ts';
import { authSchemaDDL, startPostgres } from '../support/postgres.ts';
import { median } from './median.ts';

const SECRET = 'bench-secret-0123456789abcdef0123456789abcdef';
const USERS = 200;
const BATCHES = 9;
const PER_BATCH = 1000;

const cluster = await startPostgres();
const admin = new pg.Pool({ connectionString: cluster.connectionString, max: 1 });
await admin.query('CREATE DATABASE kitauth');
await admin.query('CREATE DATABASE authjs');
const url = (name: string) => cluster.connectionString.replace(/\/postgres$/, `/${name}`);

/** A pool whose statements are counted. */
function countingPool(database: string) {
	const pool = new pg.Pool({ connectionString: url(database), max: 4 });
	const counted = { statements: 0 };
	const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
	(pool as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = (...args) => {
		counted.statements++;
		return query(...args);
	};
	return { pool, counted };
}

const kitauth = countingPool('kitauth');
await migrate(kitauth.pool);
const authjs = countingPool('authjs');
for (const statement of await authSchemaDDL()) await authjs.pool.query(statement);
const sqlJs = postgres(url('kitauth'), { max: 4, onnotice: () => {} });

/**
 * The same users and sessions in both databases; cookies carry the raw token, rows its hash. The
 * sessions were just extended (expires ≈ now + maxAge): no read is due to extend them.
 */
const cookies: string[] = [];
for (let i = 0; i < USERS; i++) {
	const token = randomBytes(32).toString('hex');
	const hash = createHash('sha256').update(token).digest('hex');
	cookies.push(token);
	for (const pool of [kitauth.pool, authjs.pool]) {
		await pool.query('INSERT INTO "user" (id, name, email) VALUES ($1, $2, $3)', [`u${i}`, `User ${i}`, `bench${i}@example.com`]);
		await pool.query('INSERT INTO "session" ("sessionToken", "userId", expires) VALUES ($1, $2, $3)', [hash, `u${i}`, new Date(Date.now() + 30 * 86_400_000 - 60_000)]);
	}
}
const hashes = cookies.map((token) => createHash('sha256').update(token).digest('hex'));

function reader(adapter: Adapter) {
	const server = createAuthServer({ secret: SECRET, trustHost: true, providers: [], adapter, session: { strategy: 'database' } }, { env: { NODE_ENV: 'production' } });
	const requests = cookies.map((token) => {
		const u = new URL('http://localhost:3000/account');
		return { url: u, request: new Request(u, { headers: { cookie: `authjs.session-token=${token}` } }) };
	});
	return async (i: number) => {
		const read = await server.session(requests[i % requests.length]!);
		if (!read.session?.user) throw new Error('the bench session did not read back');
	};
}

const bare = new pg.Pool({ connectionString: url('kitauth'), max: 4 });
const reads: [string, (i: number) => Promise<void>][] = [
	[
		'without kitauth: the app\'s own lookup (one indexed join)',
		async (i) => {
			const { rows } = await bare.query('SELECT s.expires, u.email FROM "session" s JOIN "user" u ON u.id = s."userId" WHERE s."sessionToken" = $1', [hashes[i % USERS]]);
			if (rows.length !== 1) throw new Error('no row');
		}
	],
	['kitauth, PostgresAdapter on node-postgres', reader(PostgresAdapter(kitauth.pool))],
	['kitauth, PostgresAdapter on postgres.js', reader(PostgresAdapter(sqlJs))],
	['kitauth, @auth/drizzle-adapter on node-postgres', reader(DrizzleAdapter(drizzle({ client: authjs.pool })))]
];

// Statements per read, on a warm adapter.
await reads[1]![1](0);
await reads[3]![1](0);
kitauth.counted.statements = 0;
authjs.counted.statements = 0;
for (let i = 0; i < 100; i++) {
	await reads[1]![1](i);
	await reads[3]![1](i);
}
const perRead = { kitauth: kitauth.counted.statements / 100, authjs: authjs.counted.statements / 100 };

const times = new Map<string, number[]>(reads.map(([name]) => [name, []]));
for (const [, read] of reads) for (let i = 0; i < PER_BATCH; i++) await read(i);
for (let b = 0; b < BATCHES; b++) {
	for (const [name, read] of reads) {
		const started = performance.now();
		for (let i = 0; i < PER_BATCH; i++) await read(i);
		times.get(name)!.push(((performance.now() - started) * 1000) / PER_BATCH);
	}
}
const base = median(times.get(reads[0]![0])!);
console.log(`\nDatabase session read on PostgreSQL ${cluster.version} (in process, one connection at a time; Node ${process.version})`);
console.table(
	reads.map(([name]) => ({
		read: name,
		'µs per read': median(times.get(name)!).toFixed(0),
		'× without kitauth': (median(times.get(name)!) / base).toFixed(2)
	}))
);
console.log(`statements per read: kitauth ${perRead.kitauth}, @auth/drizzle-adapter ${perRead.authjs} (target for kitauth: 1)`);

await Promise.all([kitauth.pool.end(), authjs.pool.end(), bare.end(), admin.end(), sqlJs.end()]);
cluster.stop();
if (perRead.kitauth > 1) {
	console.error('MISSED: a kitauth session read on PostgreSQL sent more than one statement.');
	process.exitCode = 1;
}
