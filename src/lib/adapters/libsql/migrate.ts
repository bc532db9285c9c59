/**
 * `migrate(client)`: applies the adapter's migrations, embedded at build time (never read from
 * ./drizzle at run time: the library is bundled into apps, where that folder is not around).
 *
 * The bookkeeping is drizzle's, so `drizzle-kit migrate` (with this repository's
 * drizzle.sqlite.config.ts) and `migrate()` agree: a table `(id, hash, created_at)`, one row per applied
 * migration with hash = sha256 of the SQL file and created_at = the journal's `when`, and a
 * migration counts as applied when `created_at` of the newest row is at least its `when`. The
 * statements and the records go in one transaction (`client.migrate`, foreign keys off, as
 * drizzle's migrator does).
 *
 * A database made by Auth.js's drizzle adapter is adopted: kitauth's first migration is exactly
 * Auth.js's SQLite schema, so when its tables already exist and nothing is recorded yet, that
 * migration runs with `IF NOT EXISTS` (creating only what is missing, e.g. the authenticator table)
 * after the existing tables' columns are checked, then kitauth's own migrations run as usual.
 */
import type { Client } from '@libsql/client';
import { getTableColumns, getTableName } from 'drizzle-orm';
import { configOf, resolveClient, type LibSQLSource } from './engine/client.js';
import { LibSQLAdapterError, driverError, errorCode, isBusy } from './errors.js';
import { createGuard } from './engine/guard.js';
import { ADDED_LATER, DEFAULT_MIGRATIONS_TABLE, type EmbeddedMigration, ifNotExists, type MigrateResult, quote, splitStatements } from '../shared/migrations.js';
import { migrations } from '../sqlite/migrations.generated.js';
import { accounts, authenticators, sessions, users, verificationTokens } from '../sqlite/schema.js';

export interface MigrateOptions {
	/** Where applied migrations are recorded. Must match `migrations.table` of drizzle.sqlite.config.ts. */
	migrationsTable?: string;
	/** How long to wait for a locked database, in ms (default 5000). */
	busyTimeout?: number;
}

/**
 * @param source a client, a drizzle libsql database, or a configuration (then a client is opened
 * for the migration and closed after it).
 */
export async function migrate(
	source: LibSQLSource,
	options: MigrateOptions = {}
): Promise<MigrateResult> {
	const busyTimeout = options.busyTimeout ?? 5000;
	const client = resolveClient(source, busyTimeout);
	const owned = configOf(source) !== undefined;
	try {
		return await migrateClient(client, options, busyTimeout);
	} finally {
		if (owned) client.close();
	}
}

function migrateClient(
	client: Client,
	options: MigrateOptions,
	busyTimeout: number
): Promise<MigrateResult> {
	const tableName = options.migrationsTable ?? DEFAULT_MIGRATIONS_TABLE;
	const table = quote(tableName);
	// A whole migration is one operation: give a remote server longer than for one adapter call.
	const guard = createGuard(client, { busyTimeout, remoteTimeout: 60_000 });

	return guard.run('migrate', async () => {
		const before = await lastApplied(client, tableName);
		const pending = pendingAfter(before);
		if (pending.length === 0) return { applied: [], adopted: false };
		const adopt = before === undefined && (await tableExists(client, getTableName(users)));
		if (adopt) await checkAdoptable(client);
		const statements = [
			`CREATE TABLE IF NOT EXISTS ${table} (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)`
		];
		pending.forEach((migration, index) => {
			const sql = splitStatements(migration.sql);
			statements.push(...(adopt && index === 0 ? sql.map(ifNotExists) : sql));
		});
		try {
			await client.migrate([
				...statements,
				...pending.map((m) => ({
					sql: `INSERT INTO ${table} ("hash", "created_at") VALUES (?, ?)`,
					args: [m.hash, m.when]
				}))
			]);
		} catch (error) {
			// Another process may have migrated between our read and our write: then all is well.
			const latest = migrations.at(-1)?.when ?? 0;
			const after = await lastApplied(client, tableName).catch(() => undefined);
			if (after === undefined || after < latest) throw error;
			return { applied: [], adopted: false };
		}
		return { applied: pending.map((m) => m.tag), adopted: adopt };
	});
}

/**
 * Tags of the migrations `source` has not applied yet, without changing it (`kitauth doctor`).
 * A database that was never migrated has them all pending.
 */
export async function pendingMigrations(source: LibSQLSource, options: MigrateOptions = {}): Promise<string[]> {
	const client = resolveClient(source, options.busyTimeout ?? 5000);
	try {
		return pendingAfter(await lastApplied(client, options.migrationsTable ?? DEFAULT_MIGRATIONS_TABLE)).map((m) => m.tag);
	} finally {
		if (configOf(source) !== undefined) client.close();
	}
}

/** The embedded migrations newer than the newest record (drizzle's rule). */
function pendingAfter(before: number | undefined): readonly EmbeddedMigration[] {
	return migrations.filter((m) => before === undefined || before < m.when);
}

/** `created_at` of the newest record: what drizzle's migrator compares with. */
async function lastApplied(client: Client, table: string): Promise<number | undefined> {
	if (!(await tableExists(client, table))) return undefined;
	const result = await client.execute(
		`SELECT created_at FROM ${quote(table)} ORDER BY created_at DESC LIMIT 1`
	);
	const value = result.rows[0]?.['created_at'];
	return value === undefined || value === null ? undefined : Number(value);
}

async function tableExists(client: Client, name: string): Promise<boolean> {
	const result = await client.execute({
		sql: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
		args: [name]
	});
	return result.rows.length > 0;
}

/** Before adopting: every existing table must have Auth.js's columns; say which does not. */
async function checkAdoptable(client: Client): Promise<void> {
	for (const table of [users, accounts, sessions, verificationTokens, authenticators]) {
		const name = getTableName(table);
		if (!(await tableExists(client, name))) continue; // created by the adopted migration
		const columns = Object.values(getTableColumns(table))
			.map((column) => column.name)
			.filter((column) => !ADDED_LATER.has(`${name}.${column}`));
		try {
			await client.execute(`SELECT ${columns.map(quote).join(', ')} FROM ${quote(name)} LIMIT 0`);
		} catch (error) {
			if (isBusy(errorCode(error))) throw error;
			throw new LibSQLAdapterError(
				'migrate',
				'SCHEMA_MISMATCH',
				`the existing table "${name}" is not Auth.js's: it lacks some of ${columns.join(', ')}`,
				driverError(error)
			);
		}
	}
}
