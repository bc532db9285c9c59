/**
 * `kitauth/adapters/libsql`: the Adapter interface over libSQL with drizzle-orm.
 *
 * ```ts
 * import { LibSQLAdapter, migrate } from 'kitauth/adapters/libsql';
 * const config = { url: 'file:auth.db' };     // or libsql://…, with authToken
 * await migrate(config);                      // once, at start-up
 * const adapter = LibSQLAdapter(config);      // the adapter owns its client
 * // or hand both your own `createClient(…)` client or `drizzle(…)` database
 * ```
 *
 * Local files (`file:`), `:memory:` and remote servers (`libsql://`, `http(s)://`, `ws(s)://`) take
 * the same code path: drizzle queries, every write one `batch`. Only the local-file safeguards
 * differ (a connection of the adapter's own that never waits for a lock, WAL; see `engine/local.ts` and
 * `engine/guard.ts`); a remote server has its own locking, and its busy errors are retried the same way.
 * The remote path could not be run on the machine this was written on (no libSQL server).
 *
 * The client must use the default `intMode: 'number'`.
 */
import { drizzle } from 'drizzle-orm/libsql';
import type { Adapter } from '../../core/types/adapter.js';
import { adapterMethods } from '../shared/adapter.js';
import { deletesTwoFactor } from '../shared/tables.js';
import { sqliteStatements } from '../sqlite/statements.js';
import { resolveTables, type SQLiteTables } from '../sqlite/tables.js';
import { isReplicaConfig, resolveClient, writeGuardedClient, type LibSQLSource } from './engine/client.js';
import { createGuard } from './engine/guard.js';
import { LibSQLAdapterError } from './errors.js';
import { libsqlExec } from './exec.js';
import { libsqlCounters } from './rate-limits.js';

/** The tables a libSQL adapter works on (the SQLite schema, or a team's own tables). */
export type LibSQLTables = SQLiteTables;

export interface LibSQLAdapterOptions extends Partial<LibSQLTables> {
	/**
	 * How long a call waits for a locked database, in milliseconds, before it rejects with a
	 * `LibSQLAdapterError` whose `code` is `SQLITE_BUSY` and `retryable` is true (nothing was
	 * changed). Default 5000. On a local file the waiting is done with timers: the event loop keeps
	 * serving meanwhile.
	 */
	busyTimeout?: number;
	/**
	 * The `retryAfter` (seconds) of a retryable `LibSQLAdapterError`, for an HTTP `Retry-After`.
	 * Default: `busyTimeout` in seconds, rounded up (at least 1).
	 */
	retryAfter?: number;
	/**
	 * How long one call to a remote libSQL server (`libsql://`, `http(s)://`, `ws(s)://`) may take,
	 * in milliseconds, before it rejects with a `LibSQLAdapterError` whose `code` is `TIMEOUT`.
	 * Default 10000. (The client has no timeout of its own; a silent server would hang requests.)
	 */
	remoteTimeout?: number;
	/** Switch a local file database to WAL journal mode on first use. Default true. */
	wal?: boolean;
	/**
	 * Read a local file through statements prepared once, on a connection of the adapter's own
	 * (see `local.ts`). Default true, except for an embedded replica configured here
	 * (`syncUrl`); set it to false when you hand in a client that is an embedded replica.
	 */
	cachedReads?: boolean;
	/**
	 * On a local file: how often (ms) a probe off the main thread checks that no other process
	 * holds the WAL index's locks, which would make any call on the main thread block it for up to
	 * ~10 s. While one does, calls run off the main thread and give up after `busyTimeout`. A call
	 * made on the main thread before the probe notices (up to this interval plus 10 ms) still
	 * blocks it until the lock goes; a shorter interval narrows that window, each probe costing
	 * ~0.2–0.5 ms of CPU. Default 100; 0 turns the periodic probe off (then the first call that
	 * meets such a lock blocks the thread once, and the calls after it do not). Adapters sharing a
	 * client share the first one's setting.
	 */
	lockProbeInterval?: number;
	/**
	 * On a local file: run every call off the main thread, not only once the probe noticed a WAL
	 * index lock. Then no call can meet such a lock on the main thread, not even in the moment
	 * before the probe notices; each call costs more main-thread time (a session read ~90–115 µs
	 * instead of ~13–23, measured in process). Default false. Adapters sharing a client share the
	 * first one's setting.
	 */
	alwaysOffThread?: boolean;
}

/** Every method of the Adapter interface, kitauth's extensions included. */
export type LibSQLAdapterInstance = Required<Adapter>;

/**
 * @param source a `@libsql/client` `Client`, a `drizzle-orm/libsql` database, or a client
 * configuration (`{ url, authToken }`): then the adapter creates and owns the client, with the
 * busy timeout set on every connection it opens.
 * @param options custom tables (same keys as `@auth/drizzle-adapter`), timeouts.
 */
export function LibSQLAdapter(
	source: LibSQLSource,
	options: LibSQLAdapterOptions = {}
): LibSQLAdapterInstance {
	const busyTimeout = options.busyTimeout ?? 5000;
	const client = resolveClient(source, busyTimeout);
	const guarded = writeGuardedClient(client, busyTimeout, options.cachedReads ?? !isReplicaConfig(source), {
		lockProbeInterval: options.lockProbeInterval,
		alwaysOffThread: options.alwaysOffThread
	});
	const guard = createGuard(guarded, {
		busyTimeout,
		retryAfter: options.retryAfter,
		remoteTimeout: options.remoteTimeout ?? 10_000,
		wal: options.wal
	});
	const tables = resolveTables(options);
	const exec = libsqlExec(drizzle({ client: guarded }), guarded, guard);
	return adapterMethods({
		statements: sqliteStatements(exec, tables, libsqlCounters(exec, guarded, guard, tables.rateLimitsTable), deletesTwoFactor(options)),
		tables,
		fail: (operation, code, message) => new LibSQLAdapterError(operation, code, message)
	});
}

export { LibSQLAdapterError, type LibSQLAdapterErrorCode } from './errors.js';
export { migrate, type MigrateOptions } from './migrate.js';
export type { MigrateResult } from '../shared/migrations.js';
export type { LibSQLDatabaseLike, LibSQLSource } from './engine/client.js';
export type {
	AccountsTable,
	AuthenticatorsTable,
	RateLimitsTable,
	SessionCutoffsTable,
	SessionsTable,
	TwoFactorsTable,
	UsersTable,
	VerificationTokensTable
} from '../sqlite/tables.js';
export { accounts, authenticators, rateLimits, sessionCutoffs, sessions, twoFactors, users, verificationTokens } from '../sqlite/schema.js';
