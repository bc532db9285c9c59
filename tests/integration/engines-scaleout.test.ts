/**
 * kitauth's own adapters on the engines apps scale out on, across OS processes: two app servers
 * (tests/support/engine-app-worker.ts) share one database — PostgreSQL (a real server from the
 * Debian package, started here) through node-postgres and through postgres.js, and libSQL on one
 * file — and a browser behind a load balancer reaches either over HTTP. What must hold whatever
 * the interleaving, because each primitive is one conditional statement on the shared store:
 * - 50 uses at once of one magic link, spread over both processes: exactly one session;
 * - 100 wrong passwords at once for one account: exactly the account's limit admitted;
 * - a session ended through one process is refused at once by the other.
 */
import { createClient } from '@libsql/client';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { migrate as migrateLibSQL } from '../../src/lib/adapters/libsql/index.js';
import { migrate as migratePostgres } from '../../src/lib/adapters/postgres/index.js';
import type { Session } from '../../src/lib/core/types.js';
import { tempDatabase, type TempDatabase } from '../adapter/support.js';
import { type AppProcess, balancedBrowser, startAppProcess, stopAppProcess } from '../support/app-process.js';
import type { EngineJob } from '../support/engine-app-worker.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { followLink, requestLink } from './email-fixtures.js';
import { ALICE, ALICE_LOGIN, ORIGIN, SESSION_COOKIE, sessionCookiesSet } from './fixtures.js';

const worker = fileURLToPath(new URL('../support/engine-app-worker.ts', import.meta.url));
const ACCOUNT_LIMIT = 10;

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
	const admin = new pg.Pool({ connectionString: cluster!.connectionString, max: 1 });
	await admin.query(`CREATE DATABASE ${name}`);
	await admin.end();
	const url = cluster!.connectionString.replace(/\/postgres$/, `/${name}`);
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
			const job = JSON.stringify({ engine, url: shared.url, accountLimit: ACCOUNT_LIMIT } satisfies EngineJob);
			apps = await Promise.all(['A', 'B'].map((app) => startAppProcess(app, worker, [job], ORIGIN)));
		}, 60_000);

		afterAll(async () => {
			await Promise.all(apps.map(stopAppProcess));
			await shared?.close();
		});

		/** A fresh browser whose requests go to app `i % 2`. */
		const browser = (i: number) => balancedBrowser(apps[i % 2]!, ORIGIN).client;

		test('50 uses at once of one magic link, over both processes: exactly one session', async () => {
			const email = `link-${engine}@example.com`;
			expect((await requestLink(browser(0), email, {}, 'email')).status).toBe(302);
			const { link } = (await (await fetch(`${apps[0]!.origin}/__link?email=${encodeURIComponent(email)}`)).json()) as { link: string };
			expect(link).toContain('/auth/callback/email');
			const before = await shared.sessionRows();
			const uses = await Promise.all(
				Array.from({ length: 50 }, async (_, i) => {
					const client = browser(i);
					const { signIn } = await followLink(client, new URL(link));
					return { signIn, cookie: client.cookie(SESSION_COOKIE) };
				})
			);
			const winners = uses.filter(({ cookie }) => cookie !== undefined);
			expect(winners).toHaveLength(1);
			expect(sessionCookiesSet(winners[0]!.signIn)).toEqual([SESSION_COOKIE]);
			const losers = uses.filter(({ cookie }) => cookie === undefined).map(({ signIn }) => signIn.headers.get('location'));
			expect(losers).toEqual(Array.from({ length: 49 }, () => `${ORIGIN}/auth/error?error=Verification`));
			expect((await shared.sessionRows()) - before).toBe(1);
			// What the processes logged: the 49 refusals, nothing else.
			const logged = apps.flatMap((app) => app.stderr().split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { name: string }).name));
			expect(logged).toEqual(Array.from({ length: 49 }, () => 'Verification'));
		});

		test(`100 wrong passwords at once for one account, over both processes: exactly ${ACCOUNT_LIMIT} admitted`, async () => {
			const answers = await Promise.all(
				Array.from({ length: 100 }, (_, i) => browser(i).signInWithCredentials('credentials', { username: `Shared-${engine}`, password: `wrong-${i}` }))
			);
			const admitted = answers.filter((res) => res.status === 302 && res.headers.get('location')?.includes('error=CredentialsSignin'));
			const refused = answers.filter((res) => res.status === 429);
			expect(admitted).toHaveLength(ACCOUNT_LIMIT);
			expect(refused).toHaveLength(100 - ACCOUNT_LIMIT);
		});

		test('a session ended through one process is refused at once by the other', async () => {
			const { client, route } = balancedBrowser(apps[0]!, ORIGIN);
			expect((await client.signInWithCredentials('credentials', { ...ALICE_LOGIN })).status).toBe(302);
			const token = client.cookie(SESSION_COOKIE)!;
			route.to = apps[1]!;
			expect(((await client.session()) as Session).user?.email).toBe(ALICE.email);
			route.to = apps[0]!;
			expect((await client.postForm('signout')).status).toBe(302);
			// The old cookie, replayed on the other process the moment after.
			const replay = balancedBrowser(apps[1]!, ORIGIN).client;
			replay.setCookie(SESSION_COOKIE, token);
			const res = await replay.get('session');
			expect(await res.json()).toBeNull();
		});
	});
}
