/**
 * An app switching from `@auth/drizzle-adapter` on PostgreSQL keeps its users, accounts and
 * sessions: kitauth's first PostgreSQL migration is Auth.js's schema, migrate() adopts a database
 * Auth.js made (created as drizzle-kit makes Auth.js's tables), and the two adapters read each
 * other's rows. On a real server, a fresh database per test.
 */
import { DrizzleAdapter } from '@auth/drizzle-adapter';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { migrate, PostgresAdapter } from '../../src/lib/adapters/postgres/index.js';
import { migrations } from '../../src/lib/adapters/postgres/migrations.generated.js';
import type { AdapterUser } from '../../src/lib/core/types/models.js';
import { authSchemaDDL, pgAuthSchema, startPostgres, type PostgresCluster } from '../support/postgres.js';
import { newAccount, newAuthenticator, newSession, newToken, newUser } from './conformance/fixtures.js';
import { databaseMaker } from './postgres-support.js';

let cluster: PostgresCluster;
let databases: ReturnType<typeof databaseMaker>;
const pools: pg.Pool[] = [];

beforeAll(async () => {
	cluster = await startPostgres();
	databases = databaseMaker(cluster, 'authjs');
});

afterAll(async () => {
	await Promise.all(pools.map((pool) => pool.end()));
	await databases?.end();
	cluster?.stop();
});

async function freshPool(): Promise<pg.Pool> {
	const pool = new pg.Pool({ connectionString: await databases.fresh(), max: 4 });
	pools.push(pool);
	return pool;
}

/** A database as an Auth.js app made it: its tables, as drizzle-kit generates them. */
async function authJsDatabase(options: { withAuthenticators: boolean }): Promise<pg.Pool> {
	const pool = await freshPool();
	for (const statement of await authSchemaDDL()) {
		if (!options.withAuthenticators && statement.includes('"authenticator"')) continue;
		await pool.query(statement);
	}
	return pool;
}

describe('Auth.js compatibility on PostgreSQL', () => {
	test('the first migration is exactly Auth.js’s Postgres schema', async () => {
		const first = migrations[0]?.sql.split('--> statement-breakpoint').map((s) => s.trim());
		expect(first?.slice().sort()).toEqual((await authSchemaDDL()).map((s) => s.trim()).sort());
	});

	for (const withAuthenticators of [true, false]) {
		test(`migrate() adopts an @auth/drizzle-adapter database: its users, accounts and sessions stay (authenticator table: ${withAuthenticators})`, async () => {
			const pool = await authJsDatabase({ withAuthenticators });
			const authjs = DrizzleAdapter(drizzle({ client: pool }));
			const theirUser = await authjs.createUser!({ ...newUser(), id: '' } as AdapterUser);
			const theirSession = await authjs.createSession!(newSession(theirUser.id));
			const theirAccount = newAccount(theirUser.id);
			await authjs.linkAccount!(theirAccount as Parameters<NonNullable<typeof authjs.linkAccount>>[0]);
			const theirToken = newToken();
			await authjs.createVerificationToken!(theirToken);

			expect(await migrate(pool)).toEqual({ applied: migrations.map((m) => m.tag), adopted: true });
			expect(await migrate(pool)).toEqual({ applied: [], adopted: false });

			const kitauth = PostgresAdapter(pool);
			expect(await kitauth.getSessionAndUser(theirSession.sessionToken)).toEqual({
				session: { ...theirSession, createdAt: null, userAgent: null },
				user: theirUser
			});
			expect(await kitauth.getUserByAccount(theirAccount)).toEqual(theirUser);
			expect(await kitauth.listAccountsByUserId(theirUser.id)).toEqual([theirAccount]);
			expect(await kitauth.useVerificationToken(theirToken)).toEqual(theirToken);
			const passkey = newAuthenticator(theirUser.id);
			expect(await kitauth.createAuthenticator(passkey)).toEqual(passkey);
			// kitauth's features on the adopted tables.
			expect(await kitauth.listSessionsByUserId(theirUser.id)).toHaveLength(1);
			expect(await kitauth.hitRateLimit('adopted', 60_000, 1_000)).toEqual({ count: 1, resetAt: 61_000 });

			const ourUser = await kitauth.createUser(newUser() as AdapterUser);
			const ourSession = await kitauth.createSession(newSession(ourUser.id));
			expect(await authjs.getSessionAndUser!(ourSession.sessionToken)).toEqual({
				session: { sessionToken: ourSession.sessionToken, userId: ourUser.id, expires: ourSession.expires },
				user: ourUser
			});
			expect(await kitauth.deleteSessionsByUserId(theirUser.id)).toBe(1);
		});
	}

	test('PostgresAdapter works on Auth.js’s table objects (no kitauth session columns)', async () => {
		const pool = await authJsDatabase({ withAuthenticators: true });
		await pool.query('CREATE TABLE "rateLimit" (key text PRIMARY KEY, count integer NOT NULL, "resetAt" bigint NOT NULL)');
		const adapter = PostgresAdapter(pool, pgAuthSchema);
		const user = await adapter.createUser(newUser() as AdapterUser);
		const first = newSession(user.id, 1);
		const second = newSession(user.id, 2);
		expect(await adapter.createSession(first)).toEqual(first);
		await adapter.createSession(second);
		expect(await adapter.getSessionAndUser(first.sessionToken)).toEqual({ session: first, user });
		expect(await adapter.listSessionsByUserId(user.id)).toEqual([first, second]);
		expect(await adapter.deleteSessionsByUserId(user.id, second.sessionToken)).toBe(1);
		expect(await adapter.deleteSession(second.sessionToken)).toEqual(second);
	});

	test('migrate() refuses a `user` table that is not Auth.js’s, and changes nothing', async () => {
		const pool = await freshPool();
		await pool.query('CREATE TABLE "user" (id integer PRIMARY KEY, username text)');
		await expect(migrate(pool)).rejects.toMatchObject({ name: 'PostgresAdapterError', code: 'SCHEMA_MISMATCH', message: expect.stringContaining('"user"') });
		const { rows } = await pool.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'");
		expect(rows.map((row) => row.table_name)).toEqual(['user']);
	});
});
