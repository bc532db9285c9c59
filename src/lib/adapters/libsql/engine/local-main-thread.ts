/**
 * The calls on the local file's main-thread connection, each run synchronously and leaving no
 * transaction open: a SELECT, a write's single transaction (with the relaxed-durability switch of
 * `PRAGMA synchronous`) and a PRAGMA. `local.ts` opens the connection, keeps its state (`Keeper`)
 * and decides which calls run here.
 *
 * Writes are one `BEGIN IMMEDIATE … COMMIT` each, run synchronously from BEGIN to COMMIT, so reads
 * and writes share the connection without ever seeing each other's transaction. BEGIN IMMEDIATE
 * takes the write lock first: a busy database fails before any statement ran. Any failure inside
 * rolls back before the error leaves (measured: after a ROLLBACK the connection loses no later
 * write; `close()` alone does NOT end an open transaction while statements of the connection are
 * alive: the lock stays held until they are garbage-collected). A write whose deadline passed
 * before COMMIT (SQLite itself stalled inside a statement, see `guard.ts`) is rolled back and
 * reported busy: a call that rejected never commits later.
 */
import type { InArgs, ResultSet, Value } from '@libsql/client';
import type Database from 'libsql';
import { abortedError, errorCode, isBusy } from '../errors.js';
import { busy } from './local-errors.js';
import { bindable, fromSql, normalize, type Prepared, resultSet, rowsOf, statementFor, type Statements, writeResult } from './local-statements.js';

/**
 * How a write reaches the disk. `full` (the connection's own setting, SQLite's default): COMMIT
 * waits for fsync. `relaxed`: `synchronous = NORMAL` for that one transaction — in WAL mode still
 * atomic and never corrupting, but a power loss may forget the last commits. Only for data whose
 * loss costs nothing (the rate limiter's counters): measured on this machine kind, an fsync per
 * commit makes a counter hit ~1–2 ms instead of ~40 µs.
 */
export type Durability = 'full' | 'relaxed';

/** The main-thread connection. */
export interface Open {
	db: Database.Database;
	statements: Map<string, Prepared>;
	/**
	 * The connection's own `PRAGMA synchronous` (0–3), restored after a relaxed write; read at the
	 * first one (the pragma reads the schema, so it may meet a lock like any statement).
	 */
	synchronous: number | undefined;
}

/** What the calls here need of the connection's state, which `local.ts` keeps. */
export interface Keeper {
	/** The connection open now: a call's own may have been dropped since it began. */
	readonly open: Open | undefined;
	/** Whether a statement succeeded on the file: a later failure is the statement's, not the file's. */
	readonly verified: boolean;
	/** A call succeeded: the file is verified, and its count of failures starts over. */
	succeeded(): void;
	/** A failure that may be the file's, not the statement's: counted towards giving the file up. */
	failed(): void;
	/** Drops the open connection (it reopens on the next call). */
	drop(): void;
	/** After a call that began at `started` (`heldUp` in `local.ts`): one held up by another process's lock sends later calls off the main thread. */
	heldUp(started: number, error?: unknown): void;
}

/**
 * Runs a SELECT on the open connection. `undefined` sends it through the client (the file is
 * not usable here); a busy database throws.
 */
export function runSelect(keeper: Keeper, conn: Open, sql: string, args: InArgs | undefined, single: boolean): { prepared: Prepared; rows: Value[][] } | undefined {
	let prepared: Prepared;
	let rows: unknown[][];
	const started = performance.now();
	try {
		prepared = statementFor(conn, sql);
		rows = rowsOf(prepared, args, single);
		if (conn.db.inTransaction) throw new Error('the local connection was left inside a transaction');
		keeper.succeeded();
	} catch (error) {
		// A failed statement may hold a read transaction open: never reuse its connection.
		keeper.drop();
		keeper.heldUp(started, error);
		if (isBusy(errorCode(error))) throw busy(error);
		keeper.failed();
		return undefined;
	}
	keeper.heldUp(started);
	// Outside the try: a value the client could not represent either throws as it would there.
	for (const row of rows) for (let i = 0; i < row.length; i++) row[i] = fromSql(row[i]);
	return { prepared, rows: rows as Value[][] };
}

/** A SELECT's result on the open connection, as the client shapes it; `undefined` as `runSelect`. */
export function runRead(keeper: Keeper, conn: Open, sql: string, args: InArgs | undefined): ResultSet | undefined {
	const result = runSelect(keeper, conn, sql, args, false);
	if (!result) return undefined;
	return resultSet(result.prepared, result.rows);
}

/** One transaction, BEGIN to COMMIT without yielding; rolled back on any failure. */
export function transact(keeper: Keeper, conn: Open, stmts: Statements, deadline: number, durability: Durability, signal?: AbortSignal): ResultSet[] | undefined {
	const { db } = conn;
	const started = performance.now();
	if (durability === 'relaxed') conn.synchronous ??= synchronousOf(db);
	const relaxed = durability === 'relaxed' && conn.synchronous !== undefined;
	try {
		// Outside a transaction, and restored below before anything else can run on this connection.
		if (relaxed) db.exec('PRAGMA synchronous = NORMAL');
		db.exec('BEGIN IMMEDIATE');
		const results: ResultSet[] = [];
		for (const stmt of stmts) {
			const { sql, args, oneRow } = normalize(stmt);
			const prepared = statementFor(conn, sql);
			if (prepared.reader) {
				const rows = rowsOf(prepared, args, oneRow);
				results.push(resultSet(prepared, rows.map((row) => row.map(fromSql))));
			} else {
				const info = prepared.stmt.run(bindable(args)) as { changes: number; lastInsertRowid: number | bigint };
				results.push(writeResult(info.changes, info.lastInsertRowid));
			}
		}
		if (Date.now() > deadline) throw late();
		if (signal?.aborted) throw abortedError();
		db.exec('COMMIT');
		keeper.succeeded();
		keeper.heldUp(started);
		return results;
	} catch (error) {
		rollback(keeper, conn);
		keeper.heldUp(started, error);
		if (isBusy(errorCode(error))) throw busy(error);
		if (keeper.verified) throw error; // the statement's own error, e.g. a constraint
		// A file this connection may not be able to use (e.g. encrypted): the client decides.
		keeper.failed();
		return undefined;
	} finally {
		if (relaxed) restoreSynchronous(keeper, conn);
	}
}

/** A PRAGMA's rows on the open connection; a failure rolls back and throws. */
export function runPragma(keeper: Keeper, conn: Open, sql: string): unknown[][] {
	const started = performance.now();
	try {
		const rows = conn.db.prepare(sql).raw(true).all() as unknown[][];
		keeper.heldUp(started);
		return rows;
	} catch (error) {
		rollback(keeper, conn);
		keeper.heldUp(started, error);
		throw isBusy(errorCode(error)) ? busy(error) : error;
	}
}

function restoreSynchronous(keeper: Keeper, conn: Open): void {
	try {
		conn.db.exec(`PRAGMA synchronous = ${conn.synchronous}`);
	} catch {
		// A connection that cannot take its own setting back must not serve durable writes.
		if (keeper.open === conn) keeper.drop();
	}
}

/** Ends an open transaction; a connection that cannot is dropped (see the note on `close()` above). */
function rollback(keeper: Keeper, conn: Open): void {
	if (!conn.db.inTransaction) return;
	try {
		conn.db.exec('ROLLBACK');
	} catch {
		if (keeper.open === conn) keeper.drop();
	}
}

function late(): Error {
	const error = new Error('the database stayed locked past the deadline; the write was rolled back') as Error & {
		code: string;
	};
	error.code = 'SQLITE_BUSY';
	return error;
}

/** The connection's `PRAGMA synchronous` level (0–3), or `undefined` when it cannot be read. */
function synchronousOf(db: Database.Database): number | undefined {
	try {
		const [row] = db.prepare('PRAGMA synchronous').raw(true).all() as unknown[][];
		const level = Number(row?.[0]);
		return Number.isInteger(level) && level >= 0 && level <= 3 ? level : undefined;
	} catch {
		return undefined;
	}
}
