/**
 * A local file database read and written on a connection of the adapter's own, never waiting for
 * a lock inside SQLite.
 *
 * Why a connection of our own. `@libsql/client`'s `file:` client is synchronous underneath (the
 * `libsql` native module): its busy timeout makes SQLite sleep inside the call, on Node's main
 * thread, so while another process held the write lock every write of the demo froze the whole
 * server (static files included) for up to `busyTimeout` ms, one write after the other. This
 * connection is opened with `timeout: 0`: a locked database answers SQLITE_BUSY at once (measured:
 * under 1 ms) and the guard (`guard.ts`) waits with timers, so the event loop keeps serving. It is
 * also faster: `@libsql/client` prepares every statement anew and reads its column list twice
 * (~55 µs with libsql 0.5, more than running a session lookup), while the adapter's queries are a
 * small, fixed set prepared once here (a session lookup drops from ~120 µs to ~30 µs). Adapters on
 * the same client share this connection, so an adapter made per request costs no file handle.
 *
 * Writes are one transaction each, rolled back on any failure (`local-main-thread.ts` runs the
 * calls on this connection and says how; `local-off-thread.ts` hands them to the second one).
 *
 * Reads see exactly what every pooled connection of the client sees, the last committed state
 * (each statement runs to completion, so no read transaction stays open; a connection found
 * inside one is dropped). Anything unusual goes through the client as before: `:memory:` (a
 * second connection would be another database), a closed client, a file this connection cannot
 * use (after three failures in a row, e.g. an encrypted file, the client answers for good).
 * Embedded replicas (`syncUrl`) must not be read or written behind the client's back: the adapter
 * turns this off for them (`cachedReads: false`).
 *
 * While another process holds the WAL index's read-mark locks, calls do not run on this
 * connection but on a second one off the main thread (`off-thread.ts`, `degraded`): SQLite would
 * spin inside them for up to ~10 s.
 */
import type { Client, InArgs, InStatement, ResultSet } from '@libsql/client';
import Database from 'libsql';
import { errorCode } from '../errors.js';
import { busy } from './local-errors.js';
import { type Durability, type Keeper, type Open, runPragma, runRead, runSelect, transact } from './local-main-thread.js';
import { offRead, offRows, offWrite } from './local-off-thread.js';
import type { Statements } from './local-statements.js';
import { STALL_MS } from './lock-watch.js';
import { type OffThread, openOffThread } from './off-thread.js';

export { isLocalError } from './local-errors.js';
export type { Durability } from './local-main-thread.js';

/** Consecutive non-busy failures after which the client answers everything. */
const MAX_FAILURES = 3;

export interface LocalFile {
	/**
	 * The statement's rows as arrays of values (`single`: the first row at most, read with one
	 * step instead of a cursor), synchronously; `undefined` when it must go through the client or
	 * wait for the connection to open (then it starts opening it). Throws the driver's error when
	 * the database is locked (`isBusy`); nothing waited.
	 */
	values(stmt: InStatement, single: boolean): unknown[][] | undefined;
	/**
	 * The same once the connection is open (off the main thread while `degraded`, giving up at
	 * `deadline`, ms since the epoch, by default in `DEFAULT_WAIT` ms); `undefined`: go through
	 * the client.
	 */
	valuesWhenOpen(stmt: InStatement, single: boolean, deadline?: number): Promise<unknown[][] | undefined>;
	/** A SELECT's result, or `undefined` when it must go through the client. Throws when locked. */
	read(stmt: InStatement, deadline?: number): Promise<ResultSet | undefined>;
	/**
	 * Runs `stmts` as one transaction that commits only before `deadline` (ms since the epoch);
	 * `undefined` when they must go through the client. Throws when locked: nothing was changed.
	 * `relaxed`: committed without waiting for the disk (see `Durability`). Once `signal` aborts,
	 * a write not yet committed rolls back and rejects with code `ABORTED`.
	 */
	write(stmts: Statements, deadline: number, durability?: Durability, signal?: AbortSignal): Promise<ResultSet[] | undefined>;
	/** Runs a PRAGMA on the connection; `undefined` when it must go through the client. */
	pragma(sql: string, deadline?: number): Promise<unknown[][] | undefined>;
	/**
	 * Whether another process holds the WAL index's read-mark locks, as far as the watch knows
	 * (see `lock-watch.ts`): calls run off the main thread until it lets go.
	 */
	readonly degraded: boolean;
	/** Whether calls run off the main thread now: while `degraded`, or a probe is suspiciously slow. */
	readonly offMainThread: boolean;
	/** Resolves once no call runs or waits off the main thread. */
	settled(): Promise<void>;
	/** Closes the connection (it reopens on the next call while the client is open). */
	close(): void;
}

export interface LocalFileOptions {
	/**
	 * How often (ms) a probe off the main thread checks that no other process holds the WAL
	 * index's read-mark locks (see `lock-watch.ts`); 0: no periodic probe.
	 */
	lockProbeInterval?: number;
	/**
	 * Every call off the main thread, not only while the watch says the WAL index is held: no call
	 * can meet the lock on the main thread, at the price of a hop per call (see `lock-watch.ts`).
	 */
	alwaysOffThread?: boolean;
}

/** The default `lockProbeInterval`. */
export const LOCK_PROBE_INTERVAL = 100;
/** How long a call off the main thread waits when its caller named no deadline (the adapter's default busy timeout). */
const DEFAULT_WAIT = 5000;
const deadlineOf = (deadline: number | undefined) => deadline ?? Date.now() + DEFAULT_WAIT;

/** One per client, shared by every adapter on it (gone with the client). */
const files = new WeakMap<Client, LocalFile>();

const remote: LocalFile = {
	values: () => undefined,
	valuesWhenOpen: async () => undefined,
	read: async () => undefined,
	write: async () => undefined,
	pragma: async () => undefined,
	degraded: false,
	offMainThread: false,
	settled: async () => {},
	close() {}
};

/** The client's local connection (the first caller's `options` apply to every adapter on it). */
export function localFile(client: Client, options: LocalFileOptions = {}): LocalFile {
	let file = files.get(client);
	if (!file) {
		file = client.protocol === 'file' ? fileConnection(client, options.lockProbeInterval ?? LOCK_PROBE_INTERVAL, options.alwaysOffThread ?? false) : remote;
		files.set(client, file);
	}
	return file;
}

function fileConnection(client: Client, lockProbeInterval: number, alwaysOffThread: boolean): LocalFile {
	let path: Promise<string | null> | undefined;
	let open: Open | undefined;
	/** The second connection, off the main thread, and the lock watch (`off-thread.ts`, `lock-watch.ts`). */
	let off: OffThread | undefined;
	let noFile = false;
	let failures = 0;
	/** Set once a statement succeeded here: a later failure is the statement's, not the file's. */
	let verified = false;

	/** Drops the main-thread connection (it reopens on the next call). */
	const drop = () => {
		if (open?.db.inTransaction) {
			try {
				open.db.exec('ROLLBACK');
			} catch {
				// closing is all that is left
			}
		}
		open?.db.close();
		open = undefined;
	};

	/** Drops both connections and stops the watch. */
	const close = () => {
		drop();
		off?.close();
		off = undefined;
	};

	const unusable = () => noFile || failures >= MAX_FAILURES || client.closed;

	const connection = async (): Promise<Open | undefined> => {
		// The client's own answer to "which file is this?" covers every URL form it accepts.
		path ??= client
			.execute('PRAGMA database_list')
			.then((list) => {
				const file = list.rows.find((row) => row['name'] === 'main')?.['file'];
				return typeof file === 'string' && file !== '' ? file : null;
			})
			.catch(() => null);
		const file = await path;
		if (file === null) {
			noFile = true; // `:memory:`: a second connection would be another database
			return undefined;
		}
		if (client.closed) close();
		if (!open && !unusable()) {
			try {
				// `timeout: 0`: a locked database fails at once and the guard does the waiting.
				const db = new Database(file, { timeout: 0 });
				open = { db, statements: new Map(), synchronous: undefined };
				off ??= openOffThread(file, lockProbeInterval, busy);
			} catch {
				failures++;
			}
		}
		return unusable() ? undefined : open;
	};

	/** The connection off the main thread when calls must run there now (see `lock-watch.ts`). */
	const offNow = (): OffThread | undefined => (off && (alwaysOffThread || off.active) ? off : undefined);

	/** The statement's SQL and arguments when the connection may serve it. */
	const usable = (stmt: InStatement): { sql: string; args: InArgs | undefined } | undefined => {
		if (client.closed) close();
		if (unusable()) return undefined;
		const { sql, args } = typeof stmt === 'string' ? { sql: stmt, args: undefined } : stmt;
		return /^\s*select\b/i.test(sql) ? { sql, args } : undefined;
	};

	/**
	 * After a call on the main thread that began at `started`: one held up by another process's
	 * WAL index lock (it took longer than `STALL_MS`, or SQLite gave up with SQLITE_PROTOCOL) sends
	 * the calls after it off the main thread until the lock is gone.
	 */
	const heldUp = (started: number, error?: unknown) => {
		if (error !== undefined && errorCode(error) === 'SQLITE_PROTOCOL') off?.stalled(true);
		else if (performance.now() - started > STALL_MS) off?.stalled(false);
	};

	/** What the calls on the main-thread connection read and change of the state here (`local-main-thread.ts`). */
	const keeper: Keeper = {
		get open() {
			return open;
		},
		get verified() {
			return verified;
		},
		succeeded() {
			verified = true;
			failures = 0;
		},
		failed() {
			failures++;
		},
		drop,
		heldUp
	};

	return {
		values(stmt, single) {
			const query = usable(stmt);
			if (!query) return undefined;
			const conn = open;
			if (!conn) {
				// The first reads go through the guard's slow path while the connection opens.
				void connection();
				return undefined;
			}
			// Another process holds (or may hold) the WAL index: the guard's slow path reads off the main thread.
			if (offNow()) return undefined;
			return runSelect(keeper, conn, query.sql, query.args, single)?.rows;
		},
		async valuesWhenOpen(stmt, single, deadline) {
			const query = usable(stmt);
			if (!query) return undefined;
			const conn = open ?? (await connection());
			if (!conn || client.closed) return undefined;
			const thread = offNow();
			if (thread) {
				const { rows } = await offRows(thread, query.sql, query.args, deadlineOf(deadline));
				return single ? rows.slice(0, 1) : rows;
			}
			return runSelect(keeper, conn, query.sql, query.args, single)?.rows;
		},
		async read(stmt, deadline) {
			const query = usable(stmt);
			if (!query) return undefined;
			const conn = open ?? (await connection());
			if (!conn || client.closed) return undefined;
			const thread = offNow();
			if (thread) return offRead(thread, query.sql, query.args, deadlineOf(deadline));
			return runRead(keeper, conn, query.sql, query.args);
		},
		async write(stmts, deadline, durability = 'full', signal) {
			if (client.closed) close();
			if (unusable()) return undefined;
			const conn = open ?? (await connection());
			if (!conn || client.closed) return undefined;
			const thread = offNow();
			if (thread) return offWrite(thread, stmts, deadline, durability, signal);
			return transact(keeper, conn, stmts, deadline, durability, signal);
		},
		async pragma(sql, deadline) {
			if (unusable()) return undefined;
			const conn = open ?? (await connection());
			if (!conn || client.closed) return undefined;
			const thread = offNow();
			if (thread) return (await offRows(thread, sql, undefined, deadlineOf(deadline))).rows;
			return runPragma(keeper, conn, sql);
		},
		get degraded() {
			return off?.degraded ?? false;
		},
		get offMainThread() {
			return offNow() !== undefined;
		},
		settled: async () => off?.settled(),
		close
	};
}
