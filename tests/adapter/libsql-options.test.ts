/**
 * The other ways to make a LibSQLAdapter: from a drizzle database with a team's own tables (other
 * table and column names), and from a client configuration (the adapter owns the client).
 */
import { createClient } from '@libsql/client';
import { describe, expect, it } from 'vitest';
import { generateSQLiteDrizzleJson, generateSQLiteMigration } from 'drizzle-kit/api';
import { eq, and } from 'drizzle-orm';
import { drizzle, type LibSQLDatabase } from 'drizzle-orm/libsql';
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { LibSQLAdapter, migrate } from '../../src/lib/adapters/libsql/index.js';
import type {
	AdapterAccount,
	AdapterAuthenticator,
	AdapterSession,
	AdapterUser,
	VerificationToken
} from '../../src/lib/core/types/models.js';
import { rateLimits, sessionCutoffs } from '../../src/lib/adapters/sqlite/schema.js';
import { runAdapterConformance, type ConformanceDb } from './conformance.js';
import { rawReads, tempDatabase } from './support.js';

const usersTable = sqliteTable('members', {
	id: text('member_id').primaryKey(),
	name: text('display_name'),
	email: text('email_address').unique(),
	emailVerified: integer('email_verified_at', { mode: 'timestamp_ms' }),
	image: text('avatar_url')
});
const ref = () => usersTable.id;
const accountsTable = sqliteTable(
	'linked_accounts',
	{
		userId: text('member_id').notNull().references(ref, { onDelete: 'cascade' }),
		type: text('kind').notNull(),
		provider: text('provider_id').notNull(),
		providerAccountId: text('provider_account_id').notNull(),
		refresh_token: text('refresh_token'),
		access_token: text('access_token'),
		expires_at: integer('expires_at'),
		token_type: text('token_type'),
		scope: text('scope'),
		id_token: text('id_token'),
		session_state: text('session_state')
	},
	(t) => [primaryKey({ columns: [t.provider, t.providerAccountId] })]
);
const sessionsTable = sqliteTable(
	'login_sessions',
	{
		sessionToken: text('token_hash').primaryKey(),
		userId: text('member_id').notNull().references(ref, { onDelete: 'cascade' }),
		expires: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
		createdAt: integer('created_at', { mode: 'timestamp_ms' }),
		userAgent: text('user_agent'),
		factors: text('sign_in_factors')
	},
	(t) => [index('login_sessions_member').on(t.userId)]
);
const verificationTokensTable = sqliteTable(
	'email_tokens',
	{
		identifier: text('email').notNull(),
		token: text('token_hash').notNull(),
		expires: integer('expires_at', { mode: 'timestamp_ms' }).notNull()
	},
	(t) => [primaryKey({ columns: [t.identifier, t.token] })]
);
const authenticatorsTable = sqliteTable('passkeys', {
	credentialID: text('credential_id').notNull().primaryKey(),
	userId: text('member_id').notNull().references(ref, { onDelete: 'cascade' }),
	providerAccountId: text('provider_account_id').notNull(),
	credentialPublicKey: text('public_key').notNull(),
	counter: integer('counter').notNull(),
	credentialDeviceType: text('device_type').notNull(),
	credentialBackedUp: integer('backed_up', { mode: 'boolean' }).notNull(),
	transports: text('transports'),
	name: text('label'),
	aaguid: text('model'),
	createdAt: integer('created_at', { mode: 'timestamp_ms' }),
	lastUsedAt: integer('last_used_at', { mode: 'timestamp_ms' })
});
const twoFactorsTable = sqliteTable('second_factors', {
	userId: text('member_id').primaryKey(),
	secret: text('sealed_secret').notNull(),
	enabledAt: integer('enabled_at', { mode: 'timestamp_ms' }),
	lastStep: integer('last_step'),
	backupCodes: text('backup_codes').notNull().default(','),
	devicesValidAfter: integer('devices_valid_after', { mode: 'timestamp_ms' }),
	createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull()
});
const passwordsTable = sqliteTable('member_passwords', {
	userId: text('member_id').primaryKey().references(ref, { onDelete: 'cascade' }),
	hash: text('password_hash').notNull(),
	updatedAt: integer('changed_at', { mode: 'timestamp_ms' }).notNull()
});
const tables = { usersTable, accountsTable, sessionsTable, verificationTokensTable, authenticatorsTable, twoFactorsTable, passwordsTable };

/** Raw reads with drizzle on the team's tables, bypassing the adapter. */
function drizzleReads(db: LibSQLDatabase): ConformanceDb {
	const dropNulls = (row: object) => Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null));
	return {
		user: async (id) =>
			((await db.select().from(usersTable).where(eq(usersTable.id, id)).get()) ?? null) as AdapterUser | null,
		session: async (token) => {
			const row = await db.select().from(sessionsTable).where(eq(sessionsTable.sessionToken, token)).get();
			if (!row) return null;
			const { factors, ...rest } = row;
			return { ...rest, ...(factors ? { factors: factors.split(',') } : {}) } as AdapterSession;
		},
		account: async ({ provider, providerAccountId }) => {
			const row = await db
				.select()
				.from(accountsTable)
				.where(and(eq(accountsTable.provider, provider), eq(accountsTable.providerAccountId, providerAccountId)))
				.get();
			return row ? (dropNulls(row) as AdapterAccount) : null;
		},
		verificationToken: async ({ identifier, token }) =>
			((await db
				.select()
				.from(verificationTokensTable)
				.where(and(eq(verificationTokensTable.identifier, identifier), eq(verificationTokensTable.token, token)))
				.get()) ?? null) as VerificationToken | null,
		authenticator: async (id) => {
			const row = await db.select().from(authenticatorsTable).where(eq(authenticatorsTable.credentialID, id)).get();
			// kitauth's optional passkey columns are absent fields when NULL.
			if (!row) return null;
			const extras = ['name', 'aaguid', 'createdAt', 'lastUsedAt'];
			return Object.fromEntries(Object.entries(row).filter(([key, v]) => v !== null || !extras.includes(key))) as unknown as AdapterAuthenticator;
		}
	};
}

runAdapterConformance('LibSQLAdapter on a drizzle database with custom tables', async () => {
	const client = createClient({ url: ':memory:' });
	const statements = await generateSQLiteMigration(
		await generateSQLiteDrizzleJson({}),
		// kitauth's own tables beside the team's (the counters and cutoffs the suite also covers).
		await generateSQLiteDrizzleJson({ ...tables, rateLimits, sessionCutoffs })
	);
	for (const statement of statements) await client.execute(statement);
	const db = drizzle({ client });
	return { adapter: LibSQLAdapter(db, tables), db: drizzleReads(db), cleanup: () => client.close() };
});

runAdapterConformance('LibSQLAdapter from a client configuration', async () => {
	const database = tempDatabase();
	const setup = createClient({ url: database.url });
	await migrate(setup);
	setup.close();
	const reader = createClient({ url: database.url });
	return {
		// The adapter owns this client; it lives as long as the test process.
		adapter: LibSQLAdapter({ url: database.url }),
		db: rawReads(reader),
		cleanup: () => {
			reader.close();
			database.remove();
		}
	};
});

/** The team's sessions table with a column whose default drizzle computes in JavaScript. */
const devicesTable = sqliteTable('device_sessions', {
	sessionToken: text('token_hash').primaryKey(),
	userId: text('member_id').notNull(),
	expires: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
	createdAt: integer('created_at', { mode: 'timestamp_ms' }),
	factors: text('sign_in_factors'),
	deviceId: text('device_id').notNull().$defaultFn(() => crypto.randomUUID())
});

describe('LibSQLAdapter on tables with JavaScript defaults', () => {
	it('gives each new session its own default value (a statement compiled once would repeat the first)', async () => {
		const client = createClient({ url: ':memory:' });
		for (const statement of await generateSQLiteMigration(await generateSQLiteDrizzleJson({}), await generateSQLiteDrizzleJson({ ...tables, sessionsTable: devicesTable }))) {
			await client.execute(statement);
		}
		const db = drizzle({ client });
		const adapter = LibSQLAdapter(db, { ...tables, sessionsTable: devicesTable });
		await adapter.createUser!({ id: 'm1', email: 'ada@example.com', emailVerified: null });
		const expires = new Date(Date.now() + 3_600_000);
		for (const sessionToken of ['t1', 't2', 't3']) await adapter.createSession!({ sessionToken, userId: 'm1', expires });
		const devices = (await db.select().from(devicesTable)).map((row) => row.deviceId);
		expect(new Set(devices).size).toBe(3);
		client.close();
	});
});
