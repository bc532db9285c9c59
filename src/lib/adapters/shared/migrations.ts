/**
 * What every dialect's `migrate()` shares: the migrations as embedded at build time (never read
 * from ./drizzle at run time: the library is bundled into apps, where that folder is not around),
 * drizzle's way of splitting a file into statements, and what adopting an Auth.js database means.
 */

export interface EmbeddedMigration {
	tag: string;
	/** The journal's `when` (ms): drizzle's `created_at`. */
	when: number;
	/** sha256 of the SQL file, hex. */
	hash: string;
	/** The SQL file, statements separated by `--> statement-breakpoint`. */
	sql: string;
}

export interface MigrateResult {
	/** Tags of the migrations this call applied (empty when the database was up to date). */
	applied: string[];
	/** True when an existing Auth.js database was adopted. */
	adopted: boolean;
}

/**
 * Where applied migrations are recorded, in drizzle's format. kitauth's own table, not
 * `__drizzle_migrations`: drizzle's migrator only compares the newest `created_at`, so sharing a
 * table with an app's own migrations would skip some of them.
 */
export const DEFAULT_MIGRATIONS_TABLE = '__kitauth_migrations';

/** As drizzle's migrator splits a migration file. */
export function splitStatements(sql: string): string[] {
	return sql.split('--> statement-breakpoint').filter((statement) => statement.trim() !== '');
}

/** `CREATE TABLE|INDEX` made idempotent, for the first migration over an adopted database. */
export function ifNotExists(statement: string): string {
	return statement.replace(/^(\s*CREATE\s+(?:UNIQUE\s+)?(?:TABLE|INDEX))\s+(?!IF\s+NOT\s+EXISTS)/i, '$1 IF NOT EXISTS ');
}

/** Columns that kitauth's later migrations add: an Auth.js database does not have them yet. */
export const ADDED_LATER = new Set([
	'session.createdAt',
	'session.userAgent',
	'session.factors',
	'authenticator.name',
	'authenticator.aaguid',
	'authenticator.createdAt',
	'authenticator.lastUsedAt'
]);

export function quote(identifier: string): string {
	return `"${identifier.replaceAll('"', '""')}"`;
}
