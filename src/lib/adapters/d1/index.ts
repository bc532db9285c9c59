/**
 * `kitauth/adapters/d1`: the Adapter interface over Cloudflare D1 with drizzle-orm, for Workers,
 * every kitauth feature included. The SQLite schema and statements are the libSQL adapter's
 * (`sqlite/`): the same tables, the same migrations.
 *
 * ```ts
 * import { D1Adapter } from 'kitauth/adapters/d1';
 * // per request, from the Worker's binding (or a Sessions API session of it, for read replicas):
 * adapter: D1Adapter(event.platform.env.DB)
 * ```
 *
 * Migrations: `wrangler d1 migrations apply DB` with `migrations_dir` set to
 * `node_modules/kitauth/drizzle/sqlite`, or `migrate(env.DB)` (they agree about what is applied).
 */
import { drizzle, type AnyD1Database } from 'drizzle-orm/d1';
import type { Adapter } from '../../core/types/adapter.js';
import { adapterMethods } from '../shared/adapter.js';
import { deletesTwoFactor } from '../shared/tables.js';
import { sqliteStatements } from '../sqlite/statements.js';
import { resolveTables, type SQLiteTables } from '../sqlite/tables.js';
import type { D1Binding } from './client.js';
import { d1Counters } from './counters.js';
import { D1AdapterError } from './errors.js';
import { d1Exec } from './exec.js';

export type D1AdapterOptions = Partial<SQLiteTables>;

/** Every method of the Adapter interface, kitauth's extensions included. */
export type D1AdapterInstance = Required<Adapter>;

/**
 * @param database the D1 binding (`env.DB`), or a session of it (`env.DB.withSession(bookmark)`).
 * @param options custom tables (same keys as `@auth/drizzle-adapter`).
 */
export function D1Adapter(database: D1Binding, options: D1AdapterOptions = {}): D1AdapterInstance {
	const tables = resolveTables(options);
	const exec = d1Exec(drizzle(database as unknown as AnyD1Database), database);
	return adapterMethods({
		statements: sqliteStatements(exec, tables, d1Counters(exec, database, tables.rateLimitsTable), deletesTwoFactor(options)),
		tables,
		fail: (operation, code, message) => new D1AdapterError(operation, code, message)
	});
}

export { D1AdapterError, type D1AdapterErrorCode } from './errors.js';
export { DEFAULT_D1_MIGRATIONS_TABLE, migrate, type D1MigrateOptions } from './migrate.js';
export type { MigrateResult } from '../shared/migrations.js';
export type { D1Binding, D1Statement } from './client.js';
export { d1Session, type D1SessionBinding, type D1WithSessions } from './replicas.js';
export type { SQLiteTables as D1Tables } from '../sqlite/tables.js';
export { accounts, authenticators, rateLimits, sessionCutoffs, sessions, twoFactors, users, verificationTokens } from '../sqlite/schema.js';
