/**
 * `migrate(pool)`: applies the PostgreSQL adapter's migrations (./drizzle/postgres, embedded at
 * build time), in ONE transaction that first takes a transaction-scoped advisory lock: instances
 * starting together wait for each other, and the second finds nothing left to do. No session
 * state outlives the transaction, so it runs through a transaction pooler too.
 *
 * The bookkeeping is drizzle's (`drizzle.__kitauth_migrations`: id, hash = sha256 of the SQL file,
 * created_at = the journal's `when`), so `drizzle-kit migrate` with drizzle.postgres.config.ts and
 * `migrate()` agree about what is applied.
 *
 * A database made by `@auth/drizzle-adapter` is adopted: kitauth's first migration is exactly its
 * Postgres schema, so when those tables exist and nothing is recorded yet, their columns are
 * checked, the first migration creates only the tables that are missing (with their foreign
 * keys), and kitauth's own migration runs as usual: users, accounts and sessions stay.
 */
import { getTableColumns, getTableName } from 'drizzle-orm';
import { ADDED_LATER, DEFAULT_MIGRATIONS_TABLE, ifNotExists, type MigrateResult, quote, splitStatements } from '../shared/migrations.js';
import { inTransaction, type PgRun, type PostgresSource } from './client.js';
import { PostgresAdapterError, wrapError } from './errors.js';
import { migrations } from './migrations.generated.js';
import { accounts, authenticators, sessions, users, verificationTokens } from './schema.js';

export interface PostgresMigrateOptions {
	/** Where applied migrations are recorded (schema `drizzle`), as in drizzle.postgres.config.ts. */
	migrationsTable?: string;
	/** The schema of that table. Default `drizzle`, as drizzle-kit's. */
	migrationsSchema?: string;
}

/** Any constant of our own: the key of the transaction-scoped lock that serializes migrations. */
const LOCK_KEY = 0x6b697461; // "kita"

export async function migrate(source: PostgresSource, options: PostgresMigrateOptions = {}): Promise<MigrateResult> {
	const table = `${quote(options.migrationsSchema ?? 'drizzle')}.${quote(options.migrationsTable ?? DEFAULT_MIGRATIONS_TABLE)}`;
	try {
		return await inTransaction(source, async (query) => {
			await query(`SELECT pg_advisory_xact_lock(${LOCK_KEY})`, []);
			await query(`CREATE SCHEMA IF NOT EXISTS ${quote(options.migrationsSchema ?? 'drizzle')}`, []);
			await query(`CREATE TABLE IF NOT EXISTS ${table} (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`, []);
			const [last] = await query(`SELECT created_at FROM ${table} ORDER BY created_at DESC LIMIT 1`, []);
			const before = last === undefined ? undefined : Number(last[0]);
			const pending = migrations.filter((m) => before === undefined || before < m.when);
			if (pending.length === 0) return { applied: [], adopted: false };
			const existing = before === undefined ? await existingTables(query) : new Set<string>();
			const adopt = existing.has(getTableName(users));
			if (adopt) await checkAdoptable(query, existing);
			for (const [index, migration] of pending.entries()) {
				for (const statement of splitStatements(migration.sql)) {
					if (adopt && index === 0 && addsToExisting(statement, existing)) continue;
					await query(adopt && index === 0 ? ifNotExists(statement) : statement, []);
				}
				await query(`INSERT INTO ${table} ("hash", "created_at") VALUES ($1, $2)`, [migration.hash, migration.when]);
			}
			return { applied: pending.map((m) => m.tag), adopted: adopt };
		});
	} catch (error) {
		throw wrapError('migrate', error, 5);
	}
}

/** The adapter's tables that exist in the current schema. */
async function existingTables(query: PgRun): Promise<Set<string>> {
	const names = [users, accounts, sessions, verificationTokens, authenticators].map((t) => getTableName(t));
	const rows = await query('SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ANY($1)', [names]);
	return new Set(rows.map((row) => String(row[0])));
}

/** A constraint the first migration adds to a table that already existed (it has its own). */
function addsToExisting(statement: string, existing: Set<string>): boolean {
	const altered = /^\s*ALTER\s+TABLE\s+"([^"]+)"\s+ADD\s+CONSTRAINT/i.exec(statement)?.[1];
	return altered !== undefined && existing.has(altered);
}

/** Before adopting: every existing table must have Auth.js's columns; say which does not. */
async function checkAdoptable(query: PgRun, existing: Set<string>): Promise<void> {
	for (const table of [users, accounts, sessions, verificationTokens, authenticators]) {
		const name = getTableName(table);
		if (!existing.has(name)) continue; // created by the adopted migration
		const wanted = Object.values(getTableColumns(table))
			.map((column) => column.name)
			.filter((column) => !ADDED_LATER.has(`${name}.${column}`));
		const rows = await query('SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1', [name]);
		const have = new Set(rows.map((row) => String(row[0])));
		if (wanted.some((column) => !have.has(column))) {
			throw new PostgresAdapterError('migrate', 'SCHEMA_MISMATCH', `the existing table "${name}" is not Auth.js's: it lacks some of ${wanted.join(', ')}`);
		}
	}
}
