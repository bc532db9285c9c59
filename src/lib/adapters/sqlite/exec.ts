/**
 * How one SQLite engine (libSQL, D1) runs statements: what `statements.ts`, `counters.ts` and
 * `two-factor.ts` are built on, in a file of its own so that they do not import each other.
 */
import type { Column } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { BaseSQLiteDatabase, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Row } from '../shared/rows.js';

/** A drizzle SQLite database of an async driver (libSQL, D1). */
export type SQLiteDb = BaseSQLiteDatabase<'async', unknown>;

/** A query with one placeholder, as drizzle builds it (`.where(eq(col, sql.placeholder(…)))`). */
export interface BuiltRead {
	toSQL(): { sql: string; params: unknown[] };
}

/** How a compiled read's rows come back: the first or none, or all in the query's order. */
export type ReadShape = { single: true } | { orderBy: readonly Column[] };

/** How one engine runs the statements. */
export interface SQLiteExec {
	db: SQLiteDb;
	/** Runs one adapter operation: the engine's retries, timeouts and errors. */
	run<T>(operation: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T>;
	/**
	 * Calls `start`, whose write (begun synchronously) may commit without waiting for the disk where
	 * the engine can tell it so (a libSQL file: `synchronous = NORMAL` for that transaction, atomic
	 * still; a power cut may forget it). Elsewhere it runs as any write (D1's durability is
	 * Cloudflare's). Only for rows whose loss costs no one anything they had: a new session.
	 */
	relaxed<T>(start: () => T): T;
	/** Writes as ONE transaction; each query's result (rows for those with RETURNING), in order. */
	batch(queries: [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]): Promise<unknown[]>;
	/**
	 * A new row whose loss on a power cut costs its owner nothing (a new session), by one statement
	 * compiled once (`compiled-insert.ts`): committed without waiting for the disk where the engine
	 * can (libSQL: relaxed durability, in one transaction with the other such rows of the same turn,
	 * `libsql/engine/commit-group.ts`); errors as the engine's, named `operation`; none stored when
	 * `signal` aborted before it committed. The rows it returns, as arrays of values in order.
	 */
	insertRelaxed(operation: string, statement: { sql: string; args: unknown[] }, signal?: AbortSignal): Promise<unknown[][]>;
	/**
	 * A per-request read by one argument, compiled once, run as the operation `operation` (its
	 * rows decoded by table key, as `select({ a: t1, b: t2 })` names them).
	 */
	read<K extends string>(
		operation: string,
		query: BuiltRead,
		tables: Record<K, SQLiteTable>,
		shape: { single: true }
	): (arg: string) => Promise<Record<K, Row> | null>;
	read<K extends string>(
		operation: string,
		query: BuiltRead,
		tables: Record<K, SQLiteTable>,
		shape: { orderBy: readonly Column[] }
	): (arg: string) => Promise<Record<K, Row>[]>;
}
