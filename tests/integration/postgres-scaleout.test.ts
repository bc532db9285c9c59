/**
 * Scale-out: the core runs unchanged on any spec-conformant adapter. Two instances of the app (two
 * `Auth()` configurations, each with its own `pg.Pool` and its own `@auth/drizzle-adapter`
 * instance, the same secret) share one real PostgreSQL server, as two app servers behind a load
 * balancer would. A browser may land on either.
 *
 * What we observed of `@auth/drizzle-adapter` 1.11.3 (Postgres, default tables), all fine for the
 * core, and asserted below so a change is noticed:
 * - its `session` table has no `createdAt`/`userAgent` columns; drizzle drops those fields of
 *   `createSession` silently. So `absoluteMaxAge` cannot apply (no `createdAt` comes back), and
 *   session management (`listSessionsByUserId`/`deleteSessionsByUserId`) is missing: it throws
 *   `MissingAdapterMethods`.
 * - `createUser` ignores the id the core passes when the id column has a default (it has), so a
 *   credentials user is stored under a fresh UUID, not the id `authorize()` returned; the next
 *   sign-in finds it by email.
 * - `deleteSession` returns nothing, so the `signOut` event gets `{session: undefined}`.
 */
import { DrizzleAdapter } from '@auth/drizzle-adapter';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { AdapterError, createAuthServer, MissingAdapterMethods } from '../../src/lib/core/index.js';
import type { Adapter, EventCallbacks, Session } from '../../src/lib/core/types.js';
import { TestClient } from '../support/client.js';
import { authSchemaDDL, startPostgres, type PostgresCluster } from '../support/postgres.js';
import { sha256 } from './database-fixtures.js';
import {
	ALICE,
	ALICE_LOGIN,
	ORIGIN,
	passwordProvider,
	SESSION_COOKIE,
	sessionCookiesCleared,
	sessionCookiesSet,
	setup,
	type Setup
} from './fixtures.js';

const T0 = Date.parse('2031-07-01T10:00:00Z');
const DAY = 24 * 60 * 60 * 1000;

let cluster: PostgresCluster | undefined;
/** A connection of the test's own, for raw reads (never the instances' pools). */
let admin: pg.Pool;
const pools: pg.Pool[] = [];
/** Set by the last test, which stops the server. */
let serverGone = false;

function newPool(): pg.Pool {
	const pool = new pg.Pool({ connectionString: cluster!.connectionString, max: 4 });
	// Idle connections killed by a server shutdown must not crash the test process.
	pool.on('error', () => {});
	pools.push(pool);
	return pool;
}

beforeAll(async () => {
	cluster = await startPostgres();
	admin = newPool();
	for (const statement of await authSchemaDDL()) await admin.query(statement);
});

afterAll(async () => {
	await Promise.all(pools.splice(0).map((pool) => pool.end().catch(() => {})));
	cluster?.stop();
});

afterEach(async () => {
	vi.useRealTimers();
	if (serverGone) return;
	await admin.query('TRUNCATE "session", "account", "authenticator", "verificationToken", "user" CASCADE');
});

interface Instance extends Setup {
	pool: pg.Pool;
	adapter: Adapter;
	signOuts: Parameters<EventCallbacks['signOut']>[0][];
}

/**
 * One app server: its own pool, its own adapter instance (drizzle's defaults), the shared secret.
 * `wrap` may instrument the adapter object handed to the config (not code under test).
 */
function instance(overrides: Parameters<typeof setup>[0] = {}, wrap: (adapter: Adapter) => Adapter = (a) => a): Instance {
	const pool = newPool();
	const adapter = wrap(DrizzleAdapter(drizzle({ client: pool })));
	const signOuts: Instance['signOuts'] = [];
	const s = setup({
		adapter,
		session: { strategy: 'database' },
		events: { signOut: (message) => void signOuts.push(message) },
		...overrides
	});
	return { ...s, pool, adapter, signOuts };
}

/** A browser behind a load balancer: `via` says which instance gets its next request. */
function browser(instances: Instance[]) {
	const route = { via: 0 };
	const client = new TestClient((request) => instances[route.via]!.handler(request), { origin: ORIGIN });
	return { client, route };
}

interface PgSessionRow {
	sessionToken: string;
	userId: string;
	expires: Date;
}

async function sessionRows(): Promise<PgSessionRow[]> {
	return (await admin.query<PgSessionRow>('SELECT * FROM "session" ORDER BY "expires"')).rows;
}

async function userRows(): Promise<{ id: string; email: string }[]> {
	return (await admin.query<{ id: string; email: string }>('SELECT id, email FROM "user"')).rows;
}

describe('two app instances on one PostgreSQL, through @auth/drizzle-adapter', () => {
	test('the tables are those @auth/drizzle-adapter expects', async () => {
		const { rows } = await admin.query<{ table_name: string; column_name: string }>(
			`SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`
		);
		const columns = (table: string) => rows.filter((row) => row.table_name === table).map((row) => row.column_name);
		expect(columns('session')).toEqual(['sessionToken', 'userId', 'expires']);
		expect(columns('user')).toEqual(['id', 'name', 'email', 'emailVerified', 'image']);
		expect(cluster!.version).toMatch(/^\d+/);
	});

	test('sign-in on instance 1 → the session is read on instance 2; the row holds the hash', async () => {
		vi.setSystemTime(T0);
		const [one, two] = [instance(), instance()];
		const { client, route } = browser([one, two]);
		const res = await client.signInWithCredentials('credentials', { ...ALICE_LOGIN }, { headers: { 'user-agent': 'Balanced/1.0' } });
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(ORIGIN);
		const token = client.cookie(SESSION_COOKIE)!;
		expect(token).toMatch(/^[0-9a-f]{64}$/);

		const rows = await sessionRows();
		expect(rows).toHaveLength(1);
		expect(rows[0]!.sessionToken).toBe(sha256(token));
		expect(rows[0]!.sessionToken).not.toBe(token);
		expect(rows[0]!.expires.getTime()).toBe(T0 + 30 * DAY);
		const [stored] = await userRows();
		expect(stored!.email).toBe(ALICE.email);
		// drizzle-adapter keeps its own id (see the top of the file).
		expect(stored!.id).toMatch(/^[0-9a-f-]{36}$/);
		expect(rows[0]!.userId).toBe(stored!.id);

		route.via = 1;
		const read = await client.get('session');
		expect(read.status).toBe(200);
		const text = await read.text();
		// Auth.js's default session JSON (the row above says whose it is).
		expect(JSON.parse(text)).toEqual({
			user: { name: ALICE.name, email: ALICE.email, image: null },
			expires: new Date(T0 + 30 * DAY).toISOString()
		});
		expect(text).not.toContain(token);
		expect(text).not.toContain(sha256(token));
		expect(one.errors).toEqual([]);
		expect(two.errors).toEqual([]);
	});

	test('sign-out through instance 2 ends the session on instance 1', async () => {
		const [one, two] = [instance(), instance()];
		const { client, route } = browser([one, two]);
		expect((await client.signInWithCredentials('credentials', { ...ALICE_LOGIN })).status).toBe(302);
		const token = client.cookie(SESSION_COOKIE)!;
		expect(((await client.session()) as Session).user?.email).toBe(ALICE.email);

		route.via = 1;
		const out = await client.postForm('signout'); // the CSRF cookie of instance 1 or 2: same secret
		expect(out.status).toBe(302);
		expect(sessionCookiesCleared(out)).toEqual([SESSION_COOKIE]);
		expect(await sessionRows()).toEqual([]);
		expect(two.signOuts).toEqual([{ session: undefined }]); // drizzle's deleteSession returns nothing

		// The old cookie is dead everywhere, instance 1 included.
		route.via = 0;
		const replay = new TestClient(one.handler);
		replay.setCookie(SESSION_COOKIE, token);
		const res = await replay.get('session');
		expect(await res.json()).toBeNull();
		expect(sessionCookiesCleared(res)).toEqual([SESSION_COOKIE]);
	});

	test('the next sign-in finds the stored user by email (on either instance); no duplicate user', async () => {
		const [one, two] = [instance(), instance()];
		const first = browser([one, two]);
		expect((await first.client.signInWithCredentials('credentials', { ...ALICE_LOGIN })).status).toBe(302);
		const second = browser([one, two]);
		second.route.via = 1;
		expect((await second.client.signInWithCredentials('credentials', { ...ALICE_LOGIN })).status).toBe(302);
		const users = await userRows();
		expect(users).toHaveLength(1);
		const rows = await sessionRows();
		expect(rows.map((row) => row.userId)).toEqual([users[0]!.id, users[0]!.id]);
		expect(new Set(rows.map((row) => row.sessionToken))).toEqual(
			new Set([sha256(first.client.cookie(SESSION_COOKIE)!), sha256(second.client.cookie(SESSION_COOKIE)!)])
		);
	});

	test('sliding expiry written by one instance is seen by the other', async () => {
		vi.setSystemTime(T0);
		const [one, two] = [instance(), instance()];
		const { client, route } = browser([one, two]);
		expect((await client.signInWithCredentials('credentials', { ...ALICE_LOGIN })).status).toBe(302);

		vi.setSystemTime(T0 + 2 * DAY);
		route.via = 1;
		const slid = await client.get('session');
		expect(sessionCookiesSet(slid)).toEqual([SESSION_COOKIE]);
		expect(((await slid.json()) as Session).expires).toBe(new Date(T0 + 32 * DAY).toISOString());
		expect((await sessionRows())[0]!.expires.getTime()).toBe(T0 + 32 * DAY);

		vi.setSystemTime(T0 + 2 * DAY + 60_000);
		route.via = 0;
		const read = await client.get('session');
		expect(sessionCookiesSet(read)).toEqual([]); // instance 1 sees the fresh expiry: no write due
		expect(((await read.json()) as Session).expires).toBe(new Date(T0 + 32 * DAY).toISOString());

		vi.setSystemTime(T0 + 33 * DAY);
		const expired = await client.get('session');
		expect(await expired.json()).toBeNull();
		expect(await sessionRows()).toEqual([]);
	});

	test('a busy site: sign-ins spread over both instances, each session readable on the other', async () => {
		const s = instance({
			providers: [passwordProvider({ authorize: ({ username }) => ({ id: `u-${String(username)}`, name: String(username), email: `${String(username)}@example.com` }) })]
		});
		const other = instance({ providers: s.config.providers });
		const pair = [s, other];
		const browsers = Array.from({ length: 12 }, (_, i) => ({ i, ...browser(pair) }));
		await Promise.all(
			browsers.map(async ({ i, client, route }) => {
				route.via = i % 2;
				const res = await client.signInWithCredentials('credentials', { username: `user${i}`, password: 'x' });
				expect(res.status).toBe(302);
			})
		);
		expect(await sessionRows()).toHaveLength(12);
		expect(await userRows()).toHaveLength(12);
		for (const { i, client, route } of browsers) {
			route.via = (i + 1) % 2;
			expect(((await client.session()) as Session).user?.email).toBe(`user${i}@example.com`);
		}
		expect(pair.flatMap((x) => x.errors)).toEqual([]);
	});

	test('the same new user signing in on both instances at once: both sign-ins succeed, one user', async () => {
		// Both instances look the user up before either creates it (a barrier on the adapter we pass
		// in makes that interleaving certain); then both create it.
		// (If a fixed core looks only once, a timer opens the barrier instead of hanging the test.)
		let arrived = 0;
		let release: () => void = () => {};
		const bothLooked = new Promise<void>((resolve) => (release = resolve));
		const fallback = setTimeout(release, 3000);
		const racing = (base: Adapter): Adapter => ({
			...base,
			getUserByEmail: async (email: string) => {
				const found = await base.getUserByEmail!(email);
				if (++arrived === 2) release();
				await bothLooked;
				return found;
			}
		});
		const [one, two] = [instance({}, racing), instance({}, racing)];
		const a = browser([one, two]);
		const b = browser([one, two]);
		b.route.via = 1;
		const [resA, resB] = await Promise.all([
			a.client.signInWithCredentials('credentials', { ...ALICE_LOGIN }),
			b.client.signInWithCredentials('credentials', { ...ALICE_LOGIN })
		]);
		clearTimeout(fallback);
		expect(await userRows()).toHaveLength(1);
		expect([resA.headers.get('location'), resB.headers.get('location')]).toEqual([ORIGIN, ORIGIN]);
		expect(sessionCookiesSet(resA)).toEqual([SESSION_COOKIE]);
		expect(sessionCookiesSet(resB)).toEqual([SESSION_COOKIE]);
	});

	test('session management needs methods drizzle-adapter lacks: MissingAdapterMethods', async () => {
		const one = instance();
		const { client } = browser([one]);
		expect((await client.signInWithCredentials('credentials', { ...ALICE_LOGIN })).status).toBe(302);
		const request = new Request(ORIGIN, { headers: { cookie: client.cookieHeader() } });
		const current = await createAuthServer(one.config).session({ url: new URL(ORIGIN), request });
		await expect(current.listSessions()).rejects.toBeInstanceOf(MissingAdapterMethods);
	});

	// Last: stops the server.
	test('PostgreSQL gone: GET /session → 503 without internals, sign-in → 503 Unavailable (never Configuration), logged, no hang', async () => {
		const [one, two] = [instance(), instance()];
		const { client } = browser([one, two]);
		expect((await client.signInWithCredentials('credentials', { ...ALICE_LOGIN })).status).toBe(302);
		const token = client.cookie(SESSION_COOKIE)!;
		const port = String(cluster!.port);
		serverGone = true;
		cluster!.stop();
		for (const app of [one, two]) {
			const visitor = new TestClient(app.handler);
			visitor.setCookie(SESSION_COOKIE, token);
			const res = await visitor.get('session');
			expect(res.status).toBe(503);
			const text = await res.text();
			expect(JSON.parse(text)).toEqual({ message: 'The session store is unavailable. Try again later.' });
			for (const internal of [token, sha256(token), port, '127.0.0.1', 'ECONNREFUSED', 'select', 'session"']) {
				expect(text).not.toContain(internal);
			}
			expect(app.errors.some((error) => error instanceof AdapterError)).toBe(true);

			// A server that refuses connections is out of reach for a while, not misconfigured.
			const signIn = await new TestClient(app.handler).signInWithCredentials('credentials', { ...ALICE_LOGIN });
			expect(signIn.status).toBe(503);
			expect(Number(signIn.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
			expect(await signIn.text()).toContain('Temporarily unavailable');
			expect(sessionCookiesSet(signIn)).toEqual([]);
		}
	});
});
