/**
 * Scale-out across OS processes: two app servers, each a separate Node process
 * (`tests/support/postgres-app-worker.ts`: node:http in front of the core's `Auth()` with
 * `@auth/drizzle-adapter` and its own `pg.Pool`), share one real PostgreSQL server. Both have the
 * same secret and the same `AUTH_URL`, as two servers behind a load balancer. The browser is a
 * cookie jar that sends each request over real HTTP to the instance the test picks.
 *
 * `postgres-scaleout.test.ts` covers the adapter's behaviour in detail with two configurations in
 * one process; this file proves the same sharing holds when nothing but the database is shared.
 */
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Session } from '../../src/lib/core/types.js';
import { type AppProcess, httpHandler, startAppProcess, stopAppProcess } from '../support/app-process.js';
import { TestClient } from '../support/client.js';
import { authSchemaDDL, startPostgres, type PostgresCluster } from '../support/postgres.js';
import { sha256 } from './database-fixtures.js';
import { ALICE, ALICE_LOGIN, expectNoSessionGranted, ORIGIN, SESSION_COOKIE, sessionCookiesCleared } from './fixtures.js';

const worker = fileURLToPath(new URL('../support/postgres-app-worker.ts', import.meta.url));

type App = AppProcess;

let cluster: PostgresCluster | undefined;
/** The test's own connection, for raw reads (never the apps'). */
let admin: pg.Pool | undefined;
let a: App;
let b: App;

/** Starts one app process and waits for the port it reports. */
async function startApp(name: string, connectionString: string): Promise<App> {
	return startAppProcess(name, worker, [connectionString], ORIGIN);
}

beforeAll(async () => {
	cluster = await startPostgres();
	admin = new pg.Pool({ connectionString: cluster.connectionString, max: 2 });
	for (const statement of await authSchemaDDL()) await admin.query(statement);
	[a, b] = await Promise.all([startApp('A', cluster.connectionString), startApp('B', cluster.connectionString)]);
});

afterAll(async () => {
	await Promise.all([a, b].filter(Boolean).map(stopAppProcess));
	await admin?.end();
	cluster?.stop();
});

afterEach(async () => {
	await admin!.query('TRUNCATE "session", "account", "authenticator", "verificationToken", "user" CASCADE');
});

/**
 * A browser on the site `ORIGIN` behind a load balancer: `route.to` says which process gets its
 * next request, over HTTP as it is (path, query, headers, body).
 */
function browser(first: App) {
	const route = { to: first };
	const client = new TestClient((request) => httpHandler(route.to)(request), { origin: ORIGIN });
	return { client, route };
}

async function sessionRows(): Promise<{ sessionToken: string; userId: string }[]> {
	return (await admin!.query<{ sessionToken: string; userId: string }>('SELECT "sessionToken", "userId" FROM "session"')).rows;
}

describe('two app processes on one PostgreSQL, through @auth/drizzle-adapter', () => {
	test('two processes, each listening on its own port', () => {
		expect(a.child.pid).not.toBe(b.child.pid);
		expect(a.origin).not.toBe(b.origin);
	});

	test('signed in through A, read through B; signed out through B, gone on A and in the database', async () => {
		const { client, route } = browser(a);
		const signIn = await client.signInWithCredentials('credentials', { ...ALICE_LOGIN });
		expect(signIn.status).toBe(302);
		expect(signIn.headers.get('location')).toBe(ORIGIN);
		const token = client.cookie(SESSION_COOKIE)!;
		expect(token).toMatch(/^[0-9a-f]{64}$/);
		const [row] = await sessionRows();
		expect(row!.sessionToken).toBe(sha256(token));
		const { rows: users } = await admin!.query<{ id: string }>('SELECT id FROM "user" WHERE email = $1', [ALICE.email]);

		route.to = b;
		const read = (await client.session()) as Session;
		// Auth.js's default session (no id); the row above is the user's.
		expect(users).toHaveLength(1);
		expect(read.user).toEqual({ name: ALICE.name, email: ALICE.email, image: null });
		expect(row!.userId).toBe(users[0]!.id);

		// B sees the site's origin, so it still refuses a foreign one.
		const foreign = await client.postForm('signout', {}, { headers: { origin: 'https://evil.example' } });
		expect(foreign.status).toBe(403);
		expect(await sessionRows()).toHaveLength(1);

		const out = await client.postForm('signout'); // the CSRF token now comes from B
		expect(out.status).toBe(302);
		expect(sessionCookiesCleared(out)).toEqual([SESSION_COOKIE]);
		expect(client.cookie(SESSION_COOKIE)).toBeUndefined();
		expect(await sessionRows()).toEqual([]);

		// The old cookie, replayed on A.
		const replay = browser(a).client;
		replay.setCookie(SESSION_COOKIE, token);
		const res = await replay.get('session');
		expect(res.status).toBe(200);
		expect(await res.json()).toBeNull();
		expect(sessionCookiesCleared(res)).toEqual([SESSION_COOKIE]);

		expect(a.stderr()).toBe('');
		expect(b.stderr()).toBe('');
	});

	test('a garbage session cookie, on either process: 200 and no session, nothing logged', async () => {
		// Raw cookie values, as a hostile client may send them (bad percent-escapes included).
		const garbage = ['0'.repeat(64), 'not-a-token', "' OR '1'='1", '%00%ff%zz', encodeURIComponent('é'.repeat(100)), 'x'.repeat(4000)];
		for (const app of [a, b]) {
			for (const value of garbage) {
				const { client } = browser(app);
				client.jar.set(SESSION_COOKIE, value);
				const res = await client.get('session');
				expect(res.status, `${app.name}: ${value.slice(0, 20)}`).toBe(200);
				expect(JSON.parse(await expectNoSessionGranted(res))).toBeNull();
			}
			expect(app.stderr()).toBe('');
		}
		expect(await sessionRows()).toEqual([]);
	});

	// Last: ends both processes.
	test('an app process exits when its parent lets go of it (stdin closed)', async () => {
		for (const app of [a, b]) {
			const exited = once(app.child, 'exit');
			app.child.stdin.end();
			expect(await exited).toEqual([0, null]);
		}
	});
});
