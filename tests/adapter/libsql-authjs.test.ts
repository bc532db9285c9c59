/**
 * A database made by Auth.js's drizzle adapter keeps working: kitauth's first migration is Auth.js's
 * schema, migrate() adopts such a database, and the two adapters read each other's rows.
 */
import { DrizzleAdapter } from '@auth/drizzle-adapter';
import { createClient, type Client } from '@libsql/client';
import { generateSQLiteDrizzleJson, generateSQLiteMigration } from 'drizzle-kit/api';
import { drizzle } from 'drizzle-orm/libsql';
import { afterEach, describe, expect, test } from 'vitest';
import { defineTables } from '../../node_modules/@auth/drizzle-adapter/lib/sqlite.js';
import { LibSQLAdapter, migrate } from '../../src/lib/adapters/libsql/index.js';
import { migrations } from '../../src/lib/adapters/sqlite/migrations.generated.js';
import type { AdapterUser } from '../../src/lib/core/types/models.js';
import { newAccount, newAuthenticator, newSession, newToken, newUser } from './conformance/fixtures.js';

/** The SQL drizzle-kit makes of Auth.js's own SQLite tables. */
async function authJsStatements(): Promise<string[]> {
	const empty = await generateSQLiteDrizzleJson({});
	const tables = await generateSQLiteDrizzleJson({ ...defineTables() });
	return (await generateSQLiteMigration(empty, tables)).map((statement) => statement.trim());
}

const clients: Client[] = [];
afterEach(() => clients.splice(0).forEach((client) => client.close()));
async function authJsDatabase(options: { withAuthenticators: boolean }): Promise<Client> {
	const client = createClient({ url: ':memory:' });
	clients.push(client);
	for (const statement of await authJsStatements()) {
		if (!options.withAuthenticators && statement.includes('`authenticator`')) continue;
		await client.execute(statement);
	}
	return client;
}

describe('Auth.js compatibility', () => {
	test('the first migration is exactly Auth.js’s SQLite schema', async () => {
		const first = migrations[0]?.sql.split('--> statement-breakpoint').map((s) => s.trim());
		expect(first?.slice().sort()).toEqual((await authJsStatements()).sort());
	});

	for (const withAuthenticators of [true, false]) {
		test(`migrate() adopts an Auth.js database (authenticator table: ${withAuthenticators})`, async () => {
			const client = await authJsDatabase({ withAuthenticators });
			const authjs = DrizzleAdapter(drizzle({ client }));
			const theirUser = await authjs.createUser!({ ...newUser(), id: '' } as AdapterUser);
			const theirSession = await authjs.createSession!(newSession(theirUser.id));
			const theirAccount = newAccount(theirUser.id);
			// The same shape; only Auth.js's typing of `authorization_details` differs.
			await authjs.linkAccount!(theirAccount as Parameters<NonNullable<typeof authjs.linkAccount>>[0]);
			const theirToken = newToken();
			await authjs.createVerificationToken!(theirToken);

			expect(await migrate(client)).toEqual({
				applied: migrations.map((m) => m.tag),
				adopted: true
			});
			expect(await migrate(client)).toEqual({ applied: [], adopted: false });

			const kitauth = LibSQLAdapter(client);
			expect(await kitauth.getSessionAndUser(theirSession.sessionToken)).toEqual({
				session: { ...theirSession, createdAt: null, userAgent: null },
				user: theirUser
			});
			expect(await kitauth.getUserByAccount(theirAccount)).toEqual(theirUser);
			expect(await kitauth.useVerificationToken(theirToken)).toEqual(theirToken);
			const passkey = newAuthenticator(theirUser.id);
			expect(await kitauth.createAuthenticator(passkey)).toEqual(passkey);

			const ourUser = await kitauth.createUser(newUser() as AdapterUser);
			const ourSession = await kitauth.createSession(newSession(ourUser.id));
			expect(await authjs.getSessionAndUser!(ourSession.sessionToken)).toEqual({
				session: { sessionToken: ourSession.sessionToken, userId: ourUser.id, expires: ourSession.expires },
				user: ourUser
			});
			expect(await authjs.getAuthenticator!(passkey.credentialID)).toEqual(passkey);
		});
	}

	test('LibSQLAdapter works on Auth.js’s table objects (no kitauth session columns)', async () => {
		const client = await authJsDatabase({ withAuthenticators: true });
		const adapter = LibSQLAdapter(client, defineTables());
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
		const client = createClient({ url: ':memory:' });
		clients.push(client);
		await client.execute('CREATE TABLE "user" (id INTEGER PRIMARY KEY, username TEXT)');
		await expect(migrate(client)).rejects.toMatchObject({
			name: 'LibSQLAdapterError',
			code: 'SCHEMA_MISMATCH',
			message: expect.stringContaining('"user"')
		});
		const tables = await client.execute("SELECT name FROM sqlite_master WHERE type = 'table'");
		expect(tables.rows.map((row) => row['name'])).toEqual(['user']);
	});
});
