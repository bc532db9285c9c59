/**
 * "A busy or failed write is retried or surfaced as an error — never silently lost."
 *
 * What we measured with @libsql/client 0.18.0 (libsql 0.5.29) on a file database, one process
 * holding a write transaction while another client writes:
 * - A `Client` is a pool of up to `concurrency` (20) connections, opened lazily. A
 *   `PRAGMA busy_timeout` sent through `client.execute` reaches ONE of them (the others read 0).
 *   The client's `timeout` option, by contrast, is applied to every connection it opens,
 *   transactions included. `foreign_keys` is on by default on every libsql connection.
 * - After ANY `SQLITE_BUSY` on a connection (autocommit `execute`, `batch` in either mode, or
 *   `transaction('write')`), the failed statement is never reset, so that connection is stuck in an
 *   open implicit transaction ("poisoned"): later autocommit writes on it resolve as successful but
 *   never reach the file (10 of 10 lost, WAL and DELETE journal), and it keeps the write lock, so
 *   other connections get BUSY in turn.
 * - On a poisoned connection, an explicit transaction (`batch`, or `transaction()` + `commit()`)
 *   does NOT lose writes: its COMMIT fails with `SQLITE_BUSY: cannot commit transaction - SQL
 *   statements in progress` (10 of 10 rejected, 0 lost). It stays poisoned, though.
 * - A `ROLLBACK` does not clear it ("cannot rollback - no transaction is active").
 *   `client.reconnect()` (close every pooled connection, open new ones) does: 10 of 10 later
 *   writes reached the file.
 *
 * So: every adapter write is ONE explicit transaction (`batch`), never an autocommit statement,
 * and each write batch first sets `PRAGMA busy_timeout` on the connection it runs on (see
 * `client.ts`). A busy error on a local file reconnects the client (the only cure for a poisoned
 * connection, which may be one the app poisoned) and retries with backoff until `busyTimeout` ms
 * have passed, then rejects with a `LibSQLAdapterError` (`code: 'SQLITE_BUSY'`). Retrying is safe:
 * a batch that failed with BUSY committed nothing. Reconnecting a client the app handed us also
 * ends the app's own open transactions on it; they fail loudly instead of losing writes later.
 */
import type { Client } from '@libsql/client';
import { LibSQLAdapterError, driverError, errorCode, isBusy, messageOf } from './errors.js';
import type { HotRead } from './hot-reads.js';

export interface Guard {
	/** Runs one adapter operation: prepares the database once, retries busy errors, wraps errors. */
	run<T>(operation: string, work: () => Promise<T>): Promise<T>;
	/**
	 * A per-request read (`hot-reads.ts`): answered at once from the cached connection when it can
	 * (no lock is ever waited for there, so nothing to retry; errors wrapped as `run` wraps them),
	 * otherwise through `run`.
	 */
	read<T>(operation: string, hot: HotRead<T>, arg: string): Promise<T>;
}

export interface GuardOptions {
	/** How long an operation may keep retrying a busy database, in milliseconds. */
	busyTimeout: number;
	/**
	 * How long one call to a remote server may take, in milliseconds. `@libsql/client` sets no
	 * timeout on HTTP/WebSocket requests: a server that accepts and never answers would hang the
	 * request that reads the session.
	 */
	remoteTimeout: number;
	/** Switch a local file database to WAL on first use (default true). */
	wal?: boolean;
}

export function createGuard(client: Client, options: GuardOptions): Guard {
	let prepared: Promise<void> | undefined;
	/** Set once preparing succeeded: later calls skip awaiting it (a tick on every read). */
	let ready = false;
	let reconnects = 0;
	// Reconnecting a private `:memory:` database would lose it. It cannot be busy either (it has
	// one connection), so a busy error before we know proves it is not one.
	const local: LocalState = { memory: undefined };

	const ensurePrepared = (): Promise<void> => {
		prepared ??= prepareDatabase(client, options.wal !== false, local).then(
			() => {
				ready = true;
			},
			(error: unknown) => {
				prepared = undefined; // try again on the next call
				throw error;
			}
		);
		return prepared;
	};

	const guard: Guard = {
		read<T>(operation: string, hot: HotRead<T>, arg: string): Promise<T> {
			let value: T | undefined;
			try {
				value = hot.now(arg);
			} catch (error) {
				return Promise.reject(wrap(operation, errorCode(error), error));
			}
			return value === undefined ? guard.run(operation, () => hot.load(arg)) : Promise.resolve(value);
		},
		async run<T>(operation: string, work: () => Promise<T>): Promise<T> {
			const deadline = Date.now() + options.busyTimeout;
			for (let attempt = 0; ; attempt++) {
				const reconnectsBefore = reconnects;
				try {
					if (!ready) await ensurePrepared();
					return await (client.protocol === 'file' ? work() : withDeadline(operation, work(), options.remoteTimeout));
				} catch (error) {
					if (error instanceof LibSQLAdapterError) throw error;
					const code = errorCode(error);
					// Our own reconnect may close a connection another call had just borrowed.
					const closedByUs = code === 'CLIENT_CLOSED' && reconnects !== reconnectsBefore;
					if (!isBusy(code) && !closedByUs) throw wrap(operation, code, error);
					if (isBusy(code) && client.protocol === 'file' && local.memory !== true) {
						reconnects++;
						await client.reconnect();
					}
					const pause = backoff(attempt);
					if (Date.now() + pause >= deadline) {
						throw wrap(operation, 'SQLITE_BUSY', error, options.busyTimeout);
					}
					await new Promise((resolve) => setTimeout(resolve, pause));
				}
			}
		}
	};
	return guard;
}

interface LocalState {
	/** Whether the local database is `:memory:` (undefined until we asked, or when remote). */
	memory: boolean | undefined;
}

/**
 * Once per adapter: on a local file, switch to WAL (persistent, database-wide: readers never block
 * the writer). `:memory:` and remote databases are left alone; reconnecting `:memory:` would lose
 * the database. A read-only file stays as it is: reads still work and writes fail clearly.
 */
async function prepareDatabase(client: Client, enabled: boolean, local: LocalState): Promise<void> {
	if (client.protocol !== 'file') return;
	const list = await client.execute('PRAGMA database_list');
	const main = list.rows.find((row) => row['name'] === 'main');
	local.memory = !main?.['file'];
	if (local.memory || !enabled) return;
	const mode = await client.execute('PRAGMA journal_mode');
	if (String(mode.rows[0]?.['journal_mode']).toLowerCase() !== 'wal') {
		try {
			await client.execute('PRAGMA journal_mode = WAL');
		} catch (error) {
			if (errorCode(error) !== 'SQLITE_READONLY') throw error;
		}
	}
}

/**
 * Rejects when `pending` takes longer than `ms`. The request itself cannot be cancelled (the client
 * takes no signal); it is left to finish or fail on its own, and its result is ignored.
 */
function withDeadline<T>(operation: string, pending: Promise<T>, ms: number): Promise<T> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const deadline = new Promise<never>((_, reject) => {
		timer = setTimeout(
			() => reject(new LibSQLAdapterError(operation, 'TIMEOUT', `the database server did not answer within ${ms} ms`)),
			ms
		);
	});
	pending.catch(() => {}); // a late failure after the deadline is not an unhandled rejection
	return Promise.race([pending, deadline]).finally(() => clearTimeout(timer));
}

function backoff(attempt: number): number {
	const base = Math.min(5 * 2 ** attempt, 200);
	return base + Math.floor(Math.random() * base);
}

function wrap(operation: string, code: string, error: unknown, busyMs?: number): LibSQLAdapterError {
	const cause = driverError(error);
	if (busyMs !== undefined) {
		return new LibSQLAdapterError(
			operation,
			'SQLITE_BUSY',
			`the database stayed locked for ${busyMs} ms; nothing was changed (${messageOf(error)})`,
			cause
		);
	}
	if (code === 'SQLITE_READONLY') {
		return new LibSQLAdapterError(operation, code, `the database is read-only (${messageOf(error)})`, cause);
	}
	return new LibSQLAdapterError(operation, code, messageOf(error), cause);
}
