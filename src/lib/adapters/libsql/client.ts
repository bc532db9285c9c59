/**
 * Where the adapter's database comes from, and the client wrapper its drizzle instance runs on.
 */
import {
	createClient,
	type Client,
	type Config,
	type InArgs,
	type InStatement,
	type ResultSet,
	type TransactionMode
} from '@libsql/client';
import { cachedReader } from './reader.js';

/** Anything with a libSQL client inside, such as a `drizzle-orm/libsql` database. */
export interface LibSQLDatabaseLike {
	$client: Client;
}

/** A client, a drizzle libsql database, or a client configuration (then the adapter owns it). */
export type LibSQLSource = Client | LibSQLDatabaseLike | Config;

/** The configuration, when `source` is one (not a client, not a drizzle database). */
export function configOf(source: LibSQLSource): Config | undefined {
	if ('$client' in source) return undefined;
	if ('execute' in source && typeof source.execute === 'function') return undefined;
	return source as Config;
}

/** The client inside `source`; from a configuration, a new client the adapter owns. */
export function resolveClient(source: LibSQLSource, busyTimeout: number): Client {
	const config = configOf(source);
	if (!config) return '$client' in source ? source.$client : (source as Client);
	// `timeout` is SQLite's busy timeout, applied by the client to every connection it opens.
	return createClient({ ...config, timeout: config.timeout ?? busyTimeout });
}

/** A configuration for an embedded replica: its local file is the replica's to manage. */
export function isReplicaConfig(source: LibSQLSource): boolean {
	return !!configOf(source)?.syncUrl;
}

export interface GuardedClient extends Client {
	/**
	 * A SELECT's rows as arrays of values, in column order (`single`: the first row at most), from
	 * the cached read connection, synchronously; `undefined` when it cannot answer. The adapter's
	 * per-request reads decode these themselves instead of going through drizzle.
	 */
	cachedValues(stmt: InStatement, single: boolean): unknown[][] | undefined;
	/** The same through the client, for when the cached connection cannot answer. */
	clientValues(stmt: InStatement, single: boolean): Promise<unknown[][]>;
}

/**
 * The client the adapter's drizzle instance talks to. Reads pass through. Writes are always
 * batches (explicit transactions: a poisoned connection makes their COMMIT fail instead of losing
 * them, see `guard.ts`), and on a local database each batch first sets `PRAGMA busy_timeout` on
 * whichever pooled connection it runs on: a client handed to us may have been created without a
 * `timeout`, and a pragma sent through `execute` would reach only one of its connections.
 * Reads of a local file take the cached-statement path of `reader.ts` when they can.
 */
export function writeGuardedClient(inner: Client, busyTimeout: number, cachedReads: boolean): GuardedClient {
	const pragma =
		inner.protocol === 'file' ? `PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeout))}` : null;
	const reader = cachedReads ? cachedReader(inner) : undefined;
	function execute(stmt: InStatement): Promise<ResultSet>;
	function execute(sql: string, args?: InArgs): Promise<ResultSet>;
	async function execute(stmtOrSql: InStatement, args?: InArgs) {
		const stmt = typeof stmtOrSql === 'string' ? { sql: stmtOrSql, args: args ?? [] } : stmtOrSql;
		return (await reader?.read(stmt)) ?? inner.execute(stmt);
	}
	return {
		execute,
		cachedValues: (stmt, single) => reader?.values(stmt, single),
		async clientValues(stmt, single) {
			const { rows } = await inner.execute(stmt);
			return (single ? rows.slice(0, 1) : rows).map((row) => Array.prototype.slice.call(row));
		},
		async batch(stmts, mode) {
			// A deferred transaction whose first statement writes still waits for the lock with the
			// busy timeout; `BEGIN IMMEDIATE` would run before our pragma could.
			if (pragma === null) return inner.batch(stmts, mode ?? 'write');
			const results = await inner.batch([pragma, ...stmts], 'deferred');
			return results.slice(1);
		},
		migrate: (stmts) => inner.migrate(stmts),
		transaction: (mode?: TransactionMode) => inner.transaction(mode),
		executeMultiple: (sql) => inner.executeMultiple(sql),
		sync: () => inner.sync(),
		close: () => {
			reader?.close();
			inner.close();
		},
		reconnect: () => {
			reader?.close();
			return inner.reconnect();
		},
		get closed() {
			return inner.closed;
		},
		get protocol() {
			return inner.protocol;
		}
	};
}
