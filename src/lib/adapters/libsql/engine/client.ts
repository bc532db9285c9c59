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
import { type Durability, localFile, type LocalFileOptions } from './local.js';
import { abortedError } from '../errors.js';

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
	 * the local connection, synchronously; `undefined` when it cannot answer now. Throws when the
	 * database is locked (see `local.ts`). The adapter's per-request reads decode these themselves
	 * instead of going through drizzle.
	 */
	cachedValues(stmt: InStatement, single: boolean): unknown[][] | undefined;
	/** The same once the local connection is open, or through the client when it cannot answer. */
	clientValues(stmt: InStatement, single: boolean): Promise<unknown[][]>;
	/**
	 * Calls `start` with `deadline` (ms since the epoch) as the deadline of the call it begins
	 * synchronously: drizzle reaches `batch` before its first await, so the guard can hand the
	 * deadline through without drizzle knowing. A write past its deadline rolls back instead of
	 * committing; a call made off the main thread (`off-thread.ts`) gives up at it. A write whose
	 * `signal` aborted before it committed rolls back too (its client left: see `Guard.run`).
	 */
	withDeadline<T>(deadline: number, start: () => T, signal?: AbortSignal): T;
	/**
	 * Calls `start`, whose write (begun synchronously, as with `withDeadline`) is committed without
	 * waiting for the disk (`Durability` `relaxed`): for data whose loss on a power cut costs nothing.
	 */
	relaxed<T>(start: () => T): T;
	/** Runs a PRAGMA on the local connection; `undefined` when there is none (use the client). */
	localPragma(sql: string): Promise<unknown[][] | undefined>;
}

/**
 * The client the adapter's drizzle instance talks to. On a local file (`cachedReads`), reads and
 * writes run on the adapter's own connection, which never waits for a lock (`local.ts`); the
 * guard retries busy errors with timers. Otherwise (`:memory:`, remote servers, embedded
 * replicas) they go through the client: writes are always batches (explicit transactions: a
 * poisoned connection makes their COMMIT fail instead of losing them, see `guard.ts`), and on a
 * local database each batch first sets `PRAGMA busy_timeout` on whichever pooled connection it
 * runs on: a client handed to us may have been created without a `timeout`, and a pragma sent
 * through `execute` would reach only one of its connections.
 */
export function writeGuardedClient(
	inner: Client,
	busyTimeout: number,
	cachedReads: boolean,
	localOptions: LocalFileOptions = {}
): GuardedClient {
	const pragma =
		inner.protocol === 'file' ? `PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeout))}` : null;
	const local = cachedReads ? localFile(inner, localOptions) : undefined;
	/** The deadline of the call being started now (see `withDeadline`). */
	let deadline: number | undefined;
	/** The signal of the write being started now (see `withDeadline`). */
	let signal: AbortSignal | undefined;
	const deadlineNow = () => deadline ?? Date.now() + busyTimeout;
	/** How the write being started now reaches the disk (see `relaxed`). */
	let durability: Durability = 'full';
	const viaClient = async (stmt: InStatement, single: boolean) => {
		const { rows } = await inner.execute(stmt);
		return (single ? rows.slice(0, 1) : rows).map((row) => Array.prototype.slice.call(row));
	};
	function execute(stmt: InStatement): Promise<ResultSet>;
	function execute(sql: string, args?: InArgs): Promise<ResultSet>;
	async function execute(stmtOrSql: InStatement, args?: InArgs) {
		const stmt = typeof stmtOrSql === 'string' ? { sql: stmtOrSql, args: args ?? [] } : stmtOrSql;
		return (await local?.read(stmt, deadlineNow())) ?? inner.execute(stmt);
	}
	return {
		execute,
		cachedValues: (stmt, single) => local?.values(stmt, single),
		async clientValues(stmt, single) {
			return (await local?.valuesWhenOpen(stmt, single, deadlineNow())) ?? viaClient(stmt, single);
		},
		withDeadline(until, start, given) {
			const [outer, outerSignal] = [deadline, signal];
			[deadline, signal] = [until, given];
			try {
				return start();
			} finally {
				[deadline, signal] = [outer, outerSignal];
			}
		},
		relaxed(start) {
			const outer = durability;
			durability = 'relaxed';
			try {
				return start();
			} finally {
				durability = outer;
			}
		},
		localPragma: async (sql) => local?.pragma(sql, deadlineNow()),
		async batch(stmts, mode) {
			const until = deadline ?? Date.now() + busyTimeout;
			const cancel = signal;
			const written = await local?.write(stmts, until, durability, cancel);
			if (written) return written;
			if (cancel?.aborted) throw abortedError();
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
			local?.close();
			inner.close();
		},
		reconnect: () => {
			local?.close();
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
