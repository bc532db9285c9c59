/**
 * The local file's second connection, whose calls run on libsql's own threads (`libsql/promise`),
 * never on Node's event loop; and the watch that decides when the adapter must use it.
 *
 * Why. Another process holding the WAL index's read-mark locks (bytes 123–127 of the `-shm` file,
 * as SQLite does while it recovers the WAL) makes every read and write of this process spin
 * inside SQLite for up to ~10 s, whatever the busy timeout: no pragma, open flag, interrupt or
 * busy handler cuts it short (see `guard.ts`). On the main thread that is a frozen server. The
 * fast path stays there anyway: a session read on the main thread costs ~8–11 µs, through this
 * connection ~45–65 µs, through a worker thread ~50 µs (measured on this machine kind; a hop per
 * read that the per-request session read would pay on every page). So the main thread is used
 * while the database is healthy, and this connection while it is not:
 *
 * - The watch: a probe (`SELECT 1 FROM sqlite_schema`, a read transaction like any call's) runs
 *   here every `probeInterval` ms. While a probe has been out longer than `SUSPECT_MS`, calls
 *   already come here (`active`: it may be stuck on the lock; if it was merely slow, they paid a
 *   hop). A probe, or any call here, that has not come back after `STALL_MS`, or came back with
 *   SQLITE_PROTOCOL, means the lock is held: `degraded` until it goes. So does a call on the main
 *   thread that took longer than `STALL_MS` or failed with SQLITE_PROTOCOL (`stalled()`). Where
 *   the kernel's lock table can be read (`wal-locks.ts`, Linux), a call that was merely slow (a
 *   machine short of CPU) is told apart: only a lock another process holds on a read mark counts.
 *   It lasts until a probe or call here that began after that comes back without SQLITE_PROTOCOL
 *   (one is started as soon as nothing else runs here).
 * - While degraded, every call runs here, one at a time, each with its deadline: a read that has
 *   not come back by then rejects busy (its late result is dropped); a write runs BEGIN IMMEDIATE
 *   … COMMIT step by step and commits only if its deadline has not passed and it was not given up
 *   (checked on the event loop right before COMMIT; once COMMIT is issued the caller waits for it,
 *   which no read-mark lock can hold up: the transaction already holds the write lock). A call
 *   given up before its turn never starts.
 *
 * What remains: a call made on the main thread after another process took the lock and before
 * the next probe has been out `SUSPECT_MS` (at most `probeInterval` + `SUSPECT_MS`, 110 ms by
 * default; tests/bench/lock-window.ts measured a median of 68 ms and at most 105 ms, against 103
 * and 154 ms when only `STALL_MS` counted, on a quiet 2-core machine) still blocks the thread
 * until the lock goes or SQLite gives up (~10 s). After it, no call does. The adapter's
 * `alwaysOffThread` closes the window by running every call here, at a price on the hot path:
 * a session read then takes ~90–115 µs of main-thread time instead of ~13–23 (measured in
 * process; the hop through `libsql/promise` costs the main thread more than the read itself).
 * A shorter `probeInterval` narrows the window for a price: each probe costs ~0.2–0.5 ms of CPU (mostly
 * waking an idle process), ~0.5 % of a core at 100 ms.
 */
import AsyncDatabase from 'libsql/promise';
import { abortedError, errorCode } from './errors.js';
import { readMarksHeldElsewhere } from './wal-locks.js';

/** How long a call may take before it counts as held up by the lock (a healthy one: < 1 ms). */
export const STALL_MS = 50;

/**
 * How long a probe may be out before calls stop going to the main thread (not yet a sign of the
 * lock: that takes `STALL_MS` and the kernel's word). A healthy probe comes back in well under
 * 1 ms; one held up by a machine short of CPU costs the calls made meanwhile only a hop each.
 */
export const SUSPECT_MS = 10;

/** How long, at least, the kernel's word that no read mark is held elsewhere stands for a suspect probe. */
const KERNEL_WORD_MS = 5;
/** At most this share of the time goes to asking the kernel (see `active`). */
const KERNEL_SHARE = 0.02;

/** The probe: any statement that reads the database begins a read transaction, as calls do. */
const PROBE = 'SELECT 1 FROM sqlite_schema LIMIT 1';
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

export interface OffThread {
	/** Whether the lock is held, as far as the watch knows: calls run here until it goes. */
	readonly degraded: boolean;
	/**
	 * Whether calls should run here now: while `degraded`, and while a probe has been out longer
	 * than `SUSPECT_MS` (see the header comment).
	 */
	readonly active: boolean;
	/**
	 * A main-thread call was held up (`certain`: SQLite said it was the WAL index): run calls here
	 * until a probe says the lock is gone.
	 */
	stalled(certain: boolean): void;
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
	/** Bumped by each sign of the lock; a job that began at the current epoch and ends well clears it. */
	let epoch = 0;
	let tripped = false;
	/** When the probe running now began (`performance.now()`); `undefined`: none runs. */
	let probing: number | undefined;
	const given = new WeakSet<object>();
	/** The kernel's last word on a suspect probe (see `active`): when, and whether no lock was held. */
	let kernelAt = Number.NEGATIVE_INFINITY;
	let kernelWord = KERNEL_WORD_MS;
	let kernelSaysFree = false;
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

	/** Whether a call held up for `STALL_MS` was held up by the lock (not by a lack of CPU). */
	const lockSuspected = () => readMarksHeldElsewhere(path) !== false;

	/** A sign of the lock: calls run here until one that begins after it ends well. */
	const trip = () => {
		epoch++;
		tripped = true;
		probe();
	};

	function probe(): void {
		if (closed || running || pending > 0) return;
		void enqueue(undefined, async () => {
			probing = performance.now();
			try {
				await (await statement(PROBE)).all([]);
			} finally {
				probing = undefined;
			}
		}).catch(() => {});
	}

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
			const started = epoch;
			running = true;
			let finished = false;
			const watch = watchFor(() => !finished && !tripped);
			try {
				const result = await work(job);
				if (started === epoch) tripped = false;
				return result;
			} catch (error) {
				// SQLite gave up on the WAL index: still held. Any other answer of SQLite means this
				// call got its read transaction (or was refused at once): the lock did not hold it up.
				if (errorCode(error) === 'SQLITE_PROTOCOL') trip();
				else if (started === epoch && !given.has(error as object)) tripped = false;
				throw error;
			} finally {
				running = false;
				finished = true;
				watch.stop();
			}
		});
		const settle = () => {
			pending--;
			// Still degraded with nothing left to run: ask again.
			if (tripped && pending === 0) probe();
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

	/**
	 * Trips if the job that just began is still running `STALL_MS` from now and the lock is to
	 * blame (else looks again later). Checked from a `setImmediate`, which runs after the event
	 * loop's poll phase, where a call that came back delivers its answer: a main thread that was
	 * itself busy meanwhile does not make a quick call look held up.
	 */
	const watchFor = (stillRunning: () => boolean) => {
		let timer: ReturnType<typeof setTimeout> | undefined;
		const arm = () => {
			timer = setTimeout(
				() =>
					setImmediate(() => {
						if (!stillRunning()) return;
						if (lockSuspected()) trip();
						else arm();
					}),
				STALL_MS
			);
			timer.unref?.();
		};
		arm();
		return { stop: () => clearTimeout(timer) };
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

	const timer = probeInterval > 0 ? setInterval(probe, probeInterval) : undefined;
	timer?.unref?.();

	return {
		get degraded() {
			return tripped;
		},
		get active() {
			// A probe out longer than a healthy one takes may be stuck on the lock: until it comes
			// back, calls wait their turn here rather than risk the main thread (at worst, if it
			// was merely slow, they paid a hop). Noticing then takes `SUSPECT_MS`, not `STALL_MS`.
			if (tripped) return true;
			if (probing === undefined) return false;
			const now = performance.now();
			if (now - probing <= SUSPECT_MS) return false;
			// Under load a probe looks out long when it came back but the event loop, busy with
			// requests, has not taken its answer yet: then every call would pay a hop (measured:
			// +20–30 % CPU per sign-in with database sessions). Where the kernel's lock table can be
			// read, it tells a held lock from that. A look costs 25 µs on an idle machine and up to
			// ~0.5 ms under load (measured), so its word holds long enough to keep the looks under
			// `KERNEL_SHARE` of the time, and at least `KERNEL_WORD_MS`.
			if (now - kernelAt > kernelWord) {
				kernelSaysFree = readMarksHeldElsewhere(path) === false;
				kernelAt = performance.now();
				kernelWord = Math.max(KERNEL_WORD_MS, (kernelAt - now) / KERNEL_SHARE);
			}
			return !kernelSaysFree;
		},
		stalled(certain) {
			if (certain || lockSuspected()) trip();
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
			if (timer) clearInterval(timer);
			// Returns at once even while a call here is held up (measured); that call then fails.
			db.close();
		}
	};
}
