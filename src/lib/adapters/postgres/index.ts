/**
 * `kitauth/adapters/postgres`: the Adapter interface over PostgreSQL with drizzle-orm, every
 * kitauth feature included (hashed session tokens, the session list, ending every session of a
 * user, passkeys, single-use tokens, the limiter's counters, JWT revocation cutoffs, two-factor
 * records).
 *
 * ```ts
 * import pg from 'pg';                              // or: import postgres from 'postgres';
 * import { PostgresAdapter, migrate } from 'kitauth/adapters/postgres';
 * const pool = new pg.Pool({ connectionString }); // or: postgres(url, { prepare: false })
 * await migrate(pool);                              // once, at start-up (or drizzle-kit)
 * const adapter = PostgresAdapter(pool);
 * ```
 *
 * Every operation is one statement with no session state, so a transaction pooler (PgBouncer in
 * transaction mode, Supabase's or Neon's pooled URL) works (`client.ts`); the consume-once and
 * increment-with-expiry primitives are each one conditional statement (`statements.ts`,
 * `counters.ts`).
 */
import { drizzle } from 'drizzle-orm/pg-proxy';
import type { Adapter } from '../../core/types/adapter.js';
import { adapterMethods } from '../shared/adapter.js';
import { deletesTwoFactor } from '../shared/tables.js';
import { pgRun, type PostgresSource } from './client.js';
import { PostgresAdapterError } from './errors.js';
import { operationRunner } from './operation.js';
import { pgStatements } from './statements.js';
import { type PostgresTables, resolveTables } from './tables.js';

export interface PostgresAdapterOptions extends Partial<PostgresTables> {
	/**
	 * How long one operation may take, in milliseconds, before it rejects with a
	 * `PostgresAdapterError` whose `code` is `TIMEOUT` and `retryable` is true. Default 10000.
	 */
	timeout?: number;
	/** The `retryAfter` (seconds) of a retryable error, for an HTTP `Retry-After`. Default 5. */
	retryAfter?: number;
}

/** Every method of the Adapter interface, kitauth's extensions included. */
export type PostgresAdapterInstance = Required<Adapter>;

/**
 * @param source a `pg` Pool (or Client), a postgres.js client, or a drizzle database over either.
 * The adapter never ends it: the pool is yours.
 * @param options custom tables (same keys as `@auth/drizzle-adapter`), the timeout.
 */
export function PostgresAdapter(source: PostgresSource, options: PostgresAdapterOptions = {}): PostgresAdapterInstance {
	const query = pgRun(source);
	const run = operationRunner({ timeout: options.timeout ?? 10_000, retryAfter: options.retryAfter ?? 5 });
	// drizzle builds the SQL and decodes the rows; every statement goes through `query`.
	const db = drizzle(async (text, params) => ({ rows: await query(text, params) }));
	const tables = resolveTables(options);
	return adapterMethods({
		statements: pgStatements({ db, query, run }, tables, deletesTwoFactor(options)),
		tables,
		fail: (operation, code, message) => new PostgresAdapterError(operation, code, message)
	});
}

export { PostgresAdapterError, type PostgresAdapterErrorCode } from './errors.js';
export { migrate, type PostgresMigrateOptions } from './migrate.js';
export type { MigrateResult } from '../shared/migrations.js';
export type { NodePgQueryable, PgDatabaseLike, PostgresJsSql, PostgresSource } from './client.js';
export type { PostgresTables } from './tables.js';
export { accounts, authenticators, rateLimits, sessionCutoffs, sessions, twoFactors, users, verificationTokens } from './schema.js';
