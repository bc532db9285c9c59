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
 * And on the main thread (same versions, a second process holding the lock; measured with
 * `performance.now()` around single synchronous calls):
 * - `busy_timeout` makes SQLite sleep INSIDE the call: with a write lock held elsewhere, a write
 *   with `busy_timeout = 2000` returned SQLITE_BUSY after 2003–2018 ms, during which Node's event
 *   loop served nothing. With `busy_timeout = 0`: SQLITE_BUSY in under 1 ms. In WAL mode reads are
 *   not blocked by a writer at all (0.2 ms). With a rollback journal, reads get SQLITE_BUSY as
 *   promptly as writes.
 * - Another process holding the WAL index's read-mark locks (bytes 123–127 of the `-shm` file;
 *   SQLite holds them while it recovers or restarts the WAL) is different: every read and write,
 *   on an old connection or a new one, spins inside SQLite's `walTryBeginRead` (up to 100 retries
 *   with growing sleeps) for 9.97–9.99 s and then fails with SQLITE_PROTOCOL, whatever the busy
 *   timeout (0 or 5000). Holding only the write lock (byte 120), the checkpoint lock (121) or the
 *   recovery lock (122) behaves like the write lock above.
 *
 * So: every adapter write is ONE explicit transaction, never an autocommit statement. On a local
 * file the adapter reads and writes on a connection of its own opened with `busy_timeout = 0`
 * (`local.ts`): a locked database fails at once, and this guard waits with timers (backoff from
 * 5 ms up to 400 ms) until `busyTimeout` ms have passed, then rejects with a `LibSQLAdapterError`
 * (`code: 'SQLITE_BUSY'`, `retryable: true`, `retryAfter` seconds). Nothing is retried after that,
 * and a write is committed only before its deadline (`local-main-thread.ts` rolls back a write held
 * up inside SQLite past it), so a call that rejected never commits later. Retrying is safe: a
 * transaction that failed with BUSY committed nothing. The read-mark case cannot be cut short on
 * the main thread (no pragma, open flag, busy handler or interrupt reaches that loop), so it is
 * kept off it (`off-thread.ts`): a probe on a second connection, whose calls run on libsql's own
 * threads, watches for it every `lockProbeInterval` ms (100), confirmed on Linux by the kernel's
 * lock table (`wal-locks.ts`); a main-thread call held up for over 50 ms counts too. Until the
 * lock is gone, every call runs on that connection and gives up at its deadline (a write that
 * was given up rolls back instead of committing). Reads on the main thread cost ~8–11 µs, on that
 * connection ~45–65 µs: the fast path stays where it is while the database is healthy. A call
 * made on the main thread between another process taking the lock and the next probe being out
 * for 10 ms (at most ~110 ms) still blocks until the lock goes or SQLite gives up (~10 s), then
 * fails or rolls back as above (see `lock-watch.ts`).
 *
 * Through the client (`:memory:`, remote servers, embedded replicas, `cachedReads: false`), each
 * write batch first sets `PRAGMA busy_timeout` on the connection it runs on (see `client.ts`),
 * and a busy error on a local file reconnects the client (the only cure for a poisoned
 * connection, which may be one the app poisoned) before retrying. Reconnecting a client the app
 * handed us also ends the app's own open transactions on it; they fail loudly instead of losing
 * writes later.
 */
import type { Client } from '@libsql/client';
import type { GuardedClient } from './client.js';
import { LibSQLAdapterError, abortedError, driverError, errorCode, isBusy, messageOf } from '../errors.js';
import type { HotRead } from './hot-reads.js';
import { isLocalError } from './local.js';

export interface Guard {
	/**
	 * Runs one adapter operation: prepares the database once, retries busy errors, wraps errors.
	 * `signal` (a write's): once it aborts, the operation stops retrying and a write not yet
	 * committed rolls back, rejecting with code `ABORTED`.
	 */
	run<T>(operation: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T>;
	/**
	 * A per-request read (`hot-reads.ts`): answered at once from the local connection when it can
	 * (errors wrapped as `run` wraps them), otherwise (not open yet, locked) through `run`.
	 */
	read<T>(operation: string, hot: HotRead<T>, arg: string): Promise<T>;
}

export interface GuardOptions {
	/** How long an operation may keep retrying a busy database, in milliseconds. */
	busyTimeout: number;
	/** The `retryAfter` of a retryable error, in seconds (default: `busyTimeout`, rounded up). */
	retryAfter?: number;
	/**
	 * How long one call to a remote server may take, in milliseconds. `@libsql/client` sets no
	 * timeout on HTTP/WebSocket requests: a server that accepts and never answers would hang the
	 * request that reads the session.
	 */
	remoteTimeout: number;
	/** Switch a local file database to WAL on first use (default true). */
	wal?: boolean;
}

export function createGuard(client: Client | GuardedClient, options: GuardOptions): Guard {
	const guarded = 'withDeadline' in client ? client : undefined;
	const retry = { retryAfter: options.retryAfter ?? options.busyTimeout / 1000 };
	let prepared: Promise<void> | undefined;
	/** Set once preparing succeeded: later calls skip awaiting it (a tick on every read). */
	let ready = false;
	let reconnects = 0;
	// Reconnecting a private `:memory:` database would lose it. It cannot be busy either (it has
	// one connection), so a busy error before we know proves it is not one.
	const local: LocalState = { memory: undefined };

	const ensurePrepared = (): Promise<void> => {
		prepared ??= prepareDatabase(client, guarded, options.wal !== false, local).then(
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

	/**
	 * Tries `work` until it succeeds, fails for another reason than a busy database, or `deadline`
	 * passes. `busy`: the busy error a first try (made by the caller) already met.
	 */
	const attempts = async <T>(operation: string, work: () => Promise<T>, deadline: number, busy?: unknown, signal?: AbortSignal): Promise<T> => {
		for (let pauses = 0; ; ) {
			if (busy !== undefined) {
				const remaining = deadline - Date.now();
				if (remaining <= 0) throw busyError(operation, busy, options.busyTimeout, retry);
				await pause(Math.min(backoff(pauses++), remaining), signal);
			}
			if (signal?.aborted) throw wrap(operation, 'ABORTED', abortedError());
			const reconnectsBefore = reconnects;
			try {
				if (!ready) await ensurePrepared();
				const pending = guarded ? guarded.withDeadline(deadline, work, signal) : work();
				return await (client.protocol === 'file' ? pending : withDeadline(operation, pending, options.remoteTimeout, retry));
			} catch (error) {
				if (error instanceof LibSQLAdapterError) throw error;
				const code = errorCode(error);
				// Our own reconnect may close a connection another call had just borrowed.
				const closedByUs = code === 'CLIENT_CLOSED' && reconnects !== reconnectsBefore;
				if (!isBusy(code) && !closedByUs) throw wrap(operation, code, error);
				// The adapter's own connection cleans up after itself; a pooled one may be poisoned.
				if (isBusy(code) && client.protocol === 'file' && local.memory !== true && !isLocalError(error)) {
					reconnects++;
					await client.reconnect();
				}
				busy = error;
			}
		}
	};

	const guard: Guard = {
		read<T>(operation: string, hot: HotRead<T>, arg: string): Promise<T> {
			const deadline = Date.now() + options.busyTimeout;
			let value: T | undefined;
			try {
				value = hot.now(arg);
			} catch (error) {
				const code = errorCode(error);
				if (!isBusy(code)) return Promise.reject(wrap(operation, code, error));
				// Locked: wait with timers from here (the deadline counts from the call).
				return attempts(operation, () => hot.load(arg), deadline, error);
			}
			return value === undefined ? attempts(operation, () => hot.load(arg), deadline) : Promise.resolve(value);
		},
		run<T>(operation: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
			return attempts(operation, work, Date.now() + options.busyTimeout, undefined, signal);
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
 * the database. A read-only file stays as it is: reads still work and writes fail clearly. The
 * journal mode is read and set on the adapter's own connection when there is one (it never waits
 * for a lock: a busy error is retried by the guard like any other).
 */
async function prepareDatabase(
	client: Client,
	guarded: GuardedClient | undefined,
	enabled: boolean,
	local: LocalState
): Promise<void> {
	if (client.protocol !== 'file') return;
	const list = await client.execute('PRAGMA database_list');
	const main = list.rows.find((row) => row['name'] === 'main');
	local.memory = !main?.['file'];
	if (local.memory || !enabled) return;
	const pragma = async (sql: string): Promise<unknown> => {
		const rows = (await guarded?.localPragma(sql)) ?? (await client.execute(sql)).rows.map((row) => [row[0]]);
		return rows[0]?.[0];
	};
	if (String(await pragma('PRAGMA journal_mode')).toLowerCase() !== 'wal') {
		try {
			await pragma('PRAGMA journal_mode = WAL');
		} catch (error) {
			if (errorCode(error) !== 'SQLITE_READONLY') throw error;
		}
	}
}

/**
 * Rejects when `pending` takes longer than `ms`. The request itself cannot be cancelled (the client
 * takes no signal); it is left to finish or fail on its own, and its result is ignored.
 */
function withDeadline<T>(operation: string, pending: Promise<T>, ms: number, retry: { retryAfter: number }): Promise<T> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const message = `the database server did not answer within ${ms} ms`;
	const deadline = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new LibSQLAdapterError(operation, 'TIMEOUT', message, undefined, retry)), ms);
	});
	pending.catch(() => {}); // a late failure after the deadline is not an unhandled rejection
	return Promise.race([pending, deadline]).finally(() => clearTimeout(timer));
}

/** Waits `ms`, or less when `signal` aborts meanwhile. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
	return new Promise((resolve) => {
		const done = () => {
			clearTimeout(timer);
			signal?.removeEventListener('abort', done);
			resolve();
		};
		const timer = setTimeout(done, ms);
		signal?.addEventListener('abort', done, { once: true });
	});
}

function backoff(attempt: number): number {
	const base = Math.min(5 * 2 ** attempt, 200);
	return base + Math.floor(Math.random() * base);
}

/** The database stayed locked until the deadline: nothing was changed, try again later. */
function busyError(operation: string, error: unknown, busyMs: number, retry: { retryAfter: number }): LibSQLAdapterError {
	return new LibSQLAdapterError(
		operation,
		'SQLITE_BUSY',
		`the database stayed locked for ${busyMs} ms; nothing was changed (${messageOf(error)})`,
		driverError(error),
		retry
	);
}

function wrap(operation: string, code: string, error: unknown): LibSQLAdapterError {
	const cause = driverError(error);
	if (code === 'SQLITE_READONLY') {
		return new LibSQLAdapterError(operation, code, `the database is read-only (${messageOf(error)})`, cause);
	}
	return new LibSQLAdapterError(operation, code, messageOf(error), cause);
}
