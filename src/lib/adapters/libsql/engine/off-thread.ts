/**
 * The local file's second connection, whose calls run on libsql's own threads (`libsql/promise`),
 * never on Node's event loop, and the queue of calls sent to it; the watch that decides when the
 * adapter must use it is `lock-watch.ts`.
 *
 * Why. Another process holding the WAL index's read-mark locks (bytes 123–127 of the `-shm` file,
 * as SQLite does while it recovers the WAL) makes every read and write of this process spin
 * inside SQLite for up to ~10 s, whatever the busy timeout: no pragma, open flag, interrupt or
 * busy handler cuts it short (see `guard.ts`). On the main thread that is a frozen server. The
 * fast path stays there anyway: a session read on the main thread costs ~8–11 µs, through this
 * connection ~45–65 µs, through a worker thread ~50 µs (measured on this machine kind; a hop per
 * read that the per-request session read would pay on every page). So the main thread is used
 * while the database is healthy, and this connection while it is not (as the watch tells).
 *
 * While degraded, every call runs here, one at a time, each with its deadline: a read that has
 * not come back by then rejects busy (its late result is dropped); a write runs BEGIN IMMEDIATE
 * … COMMIT step by step and commits only if its deadline has not passed and it was not given up
 * (checked on the event loop right before COMMIT; once COMMIT is issued the caller waits for it,
 * which no read-mark lock can hold up: the transaction already holds the write lock). A call
 * given up before its turn never starts.
 */
import AsyncDatabase from 'libsql/promise';
import { abortedError } from '../errors.js';
import { type LockWatch, watchLocks } from './lock-watch.js';

const MAX_STATEMENTS = 128;

/** The part of `libsql/promise` used here (its bundled types are `any`). */
interface AsyncStatement {
	reader: boolean;
	raw(on?: boolean): AsyncStatement;
	safeIntegers(on?: boolean): AsyncStatement;
	columns(): { name: string; type: string | null }[];
	all(args: unknown[] | Record<string, unknown>): Promise<unknown[]>;
}
interface AsyncConnection {
	prepare(sql: string): Promise<AsyncStatement>;
	exec(sql: string): Promise<void>;
	close(): void;
	readonly inTransaction: boolean;
}

/** Rows as arrays of raw values (`safeIntegers`: integers as bigint), with their columns. */
export interface OffThreadRows {
	/** Whether the statement returns rows (a SELECT, or a write with RETURNING). */
	reader: boolean;
	columns: string[];
	types: string[];
	rows: unknown[][];
	changes: number;
	lastInsertRowid: bigint;
}

export interface OffThreadStatement {
	sql: string;
	args: unknown[] | Record<string, unknown>;
}

/** The second connection and its queue; `degraded`, `active` and `stalled` are the lock watch's (`lock-watch.ts`). */
export interface OffThread extends Pick<LockWatch, 'degraded' | 'active' | 'stalled'> {
	/** A SELECT's rows; rejects busy once `deadline` (ms since the epoch) has passed. */
	rows(stmt: OffThreadStatement, deadline: number): Promise<OffThreadRows>;
	/**
	 * One transaction (BEGIN IMMEDIATE … COMMIT) committed only before `deadline`; rejects busy
	 * otherwise, having changed nothing. `relaxed`: `synchronous = NORMAL` for this transaction.
	 * Given up the same way, rejecting with code `ABORTED`, when `signal` aborts before COMMIT.
	 */
	transact(stmts: OffThreadStatement[], deadline: number, relaxed: boolean, signal?: AbortSignal): Promise<OffThreadRows[]>;
	/** Resolves once nothing runs here or waits to (tests: a given-up call has finished rolling back). */
	settled(): Promise<void>;
	close(): void;
}

/** What a call waiting its turn here carries. */
interface Job {
	deadline: number | undefined;
	/** Set when the caller was answered busy at its deadline: the job must not start or commit. */
	abandoned: boolean;
	/** Set right before COMMIT is issued: the deadline no longer applies. */
	committing: boolean;
}

/**
 * Opens the second connection on `path` and starts the watch (`probeInterval` 0: no periodic
 * probe; only a main-thread stall puts calls here, and a probe then says when to stop).
 * `undefined` when it cannot be opened: the adapter then works as it did without it.
 */
export function openOffThread(path: string, probeInterval: number, busy: (error: unknown) => unknown): OffThread | undefined {
	let db: AsyncConnection;
	try {
		db = new AsyncDatabase(path, { timeout: 0 }) as unknown as AsyncConnection;
	} catch {
		return undefined;
	}
	const statements = new Map<string, Promise<AsyncStatement>>();
	let closed = false;
	/** Whether a job runs now. */
	let running = false;
	/** The queue: each job starts when the one before it has settled. */
	let tail: Promise<unknown> = Promise.resolve();
	let pending = 0;
	const given = new WeakSet<object>();
	let synchronous: number | undefined;

	const statement = (sql: string): Promise<AsyncStatement> => {
		let prepared = statements.get(sql);
		if (!prepared) {
			prepared = db.prepare(sql).then((stmt) => {
				stmt.safeIntegers(true);
				if (stmt.reader) stmt.raw(true);
				return stmt;
			});
			// A failed prepare (a locked schema read) is not kept.
			prepared.catch(() => statements.delete(sql));
			if (statements.size >= MAX_STATEMENTS) statements.clear();
			statements.set(sql, prepared);
		}
		return prepared;
	};

	/** The answer of a call given up (or never started) at its deadline; it says nothing about the lock. */
	const lockedError = (): Error => {
		const error = new Error('the database stayed locked (WAL index held by another process) past the deadline') as Error & { code: string };
		error.code = 'SQLITE_BUSY';
		given.add(error);
		return busy(error) as Error;
	};

	/** The lock watch, whose probes wait their turn in this queue like any call. */
	const watch = watchLocks(path, probeInterval, {
		idle: () => !closed && !running && pending === 0,
		send: (work) => enqueue(undefined, work),
		read: async (sql) => (await statement(sql)).all([])
	});

	/**
	 * Runs `work` when its turn comes, unless its deadline passed or it was given up meanwhile.
	 * The promise rejects busy at the deadline, and `ABORTED` when `signal` aborts (unless the job
	 * is committing by then).
	 */
	const enqueue = <T>(deadline: number | undefined, work: (job: Job) => Promise<T>, signal?: AbortSignal): Promise<T> => {
		const job: Job = { deadline, abandoned: false, committing: false };
		pending++;
		const run = tail.then(async () => {
			// Given up, or too late to start: never run.
			if (job.abandoned || closed || (deadline !== undefined && Date.now() > deadline)) throw lockedError();
			running = true;
			const call = watch.begin();
			try {
				const result = await work(job);
				call.succeeded();
				return result;
			} catch (error) {
				call.failed(error, given.has(error as object));
				throw error;
			} finally {
				running = false;
				call.stop();
			}
		});
		const settle = () => {
			pending--;
			if (pending === 0) watch.drained();
		};
		tail = run.then(settle, settle);
		if (deadline === undefined) return run;
		return new Promise<T>((resolve, reject) => {
			const giveUp = (error: () => Error) => () => {
				if (job.committing) return; // the outcome is known soon; wait for it
				job.abandoned = true;
				reject(error());
			};
			const timer = setTimeout(giveUp(lockedError), Math.max(0, deadline - Date.now()));
			const left = giveUp(abortedError);
			if (signal?.aborted) left();
			else signal?.addEventListener('abort', left, { once: true });
			const settled = () => {
				clearTimeout(timer);
				signal?.removeEventListener('abort', left);
			};
			run.then(
				(value) => {
					settled();
					if (!job.abandoned) resolve(value);
				},
				(error: unknown) => {
					settled();
					if (!job.abandoned) reject(error);
				}
			);
		});
	};

	const execute = async (stmt: OffThreadStatement): Promise<OffThreadRows> => {
		const prepared = await statement(stmt.sql);
		const rows = (await prepared.all(stmt.args)) as unknown[][];
		const columns = prepared.reader ? prepared.columns() : [];
		return { reader: prepared.reader, columns: columns.map((c) => c.name), types: columns.map((c) => c.type ?? ''), rows, changes: 0, lastInsertRowid: 0n };
	};

	/** Stops unless the job may go on (checked after every step of a write). */
	const proceed = (job: Job) => {
		if (job.abandoned || closed || (job.deadline !== undefined && Date.now() > job.deadline)) throw lockedError();
	};

	return {
		get degraded() {
			return watch.degraded;
		},
		get active() {
			return watch.active;
		},
		stalled(certain) {
			watch.stalled(certain);
		},
		rows(stmt, deadline) {
			return enqueue(deadline, () => execute(stmt));
		},
		transact(stmts, deadline, relaxed, signal) {
			return enqueue(deadline, async (job) => {
				synchronous ??= Number(((await (await statement('PRAGMA synchronous')).all([])) as unknown[][])[0]?.[0]);
				const relax = relaxed && Number.isInteger(synchronous);
				if (relax) await db.exec('PRAGMA synchronous = NORMAL');
				try {
					proceed(job);
					await db.exec('BEGIN IMMEDIATE');
					const results: OffThreadRows[] = [];
					for (const stmt of stmts) {
						proceed(job);
						const result = await execute(stmt);
						if (!result.reader) {
							const [[changes, rowid] = []] = (await (await statement('SELECT changes(), last_insert_rowid()')).all([])) as unknown[][];
							result.changes = Number(changes);
							result.lastInsertRowid = BigInt(rowid as bigint);
						}
						results.push(result);
					}
					proceed(job);
					job.committing = true;
					await db.exec('COMMIT');
					return results;
				} catch (error) {
					if (db.inTransaction) await db.exec('ROLLBACK').catch(() => {});
					throw error;
				} finally {
					if (relax) await db.exec(`PRAGMA synchronous = ${synchronous}`).catch(() => {});
				}
			}, signal);
		},
		async settled() {
			while (pending > 0) await tail;
		},
		close() {
			if (closed) return;
			closed = true;
			watch.close();
			// Returns at once even while a call here is held up (measured); that call then fails.
			db.close();
		}
	};
}
