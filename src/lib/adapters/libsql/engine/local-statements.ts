/**
 * Statements and values on the adapter's own connection, shaped as `@libsql/client` shapes them:
 * what `batch` takes, prepared statements kept per connection, arguments bound and rows read
 * back as the client converts them (`local-main-thread.ts` runs them).
 */
import type { InArgs, InStatement, InValue, ResultSet, Row, Value } from '@libsql/client';
import { ResultSetImpl } from '@libsql/core/util';
import type Database from 'libsql';

/** Distinct statements kept per connection; the adapter issues a few dozen at most. */
const MAX_STATEMENTS = 128;

/**
 * A statement known to return at most one row (an upsert of one row with RETURNING): a write on
 * this connection reads its row with one step (`get`) instead of a cursor, ~7 µs instead of ~14
 * for a counter hit. Elsewhere the marker is ignored.
 */
export type OneRowStatement = Exclude<InStatement, string> & { oneRow: true };

/** What `Client.batch` takes. */
export type Statements = (InStatement | OneRowStatement | [string, InArgs?])[];

export function normalize(stmt: Statements[number]): { sql: string; args: InArgs | undefined; oneRow: boolean } {
	if (typeof stmt === 'string') return { sql: stmt, args: undefined, oneRow: false };
	if (Array.isArray(stmt)) return { sql: stmt[0], args: stmt[1], oneRow: false };
	return { sql: stmt.sql, args: stmt.args, oneRow: 'oneRow' in stmt && stmt.oneRow === true };
}

export interface Prepared {
	stmt: Database.Statement;
	/** Whether it returns rows (a SELECT, or a write with RETURNING). */
	reader: boolean;
	columns: string[];
	types: string[];
}

/**
 * A reader's rows as arrays of values; `single`: the first at most, with one step (`get` steps
 * once and resets the statement, as a COMMIT after it needs; a cursor, `all`, costs several
 * times more). (`run` would leave a RETURNING statement in progress.)
 */
export function rowsOf(prepared: Prepared, args: InArgs | undefined, single: boolean): unknown[][] {
	if (!single) return prepared.stmt.all(bindable(args)) as unknown[][];
	const first = prepared.stmt.get(bindable(args)) as unknown[] | undefined;
	return first ? [first] : [];
}

/** Where a connection keeps its prepared statements. */
export interface StatementCache {
	db: Database.Database;
	statements: Map<string, Prepared>;
}

/** A reader's result as `@libsql/client` shapes it: its rows (values already converted) as `Row`s. */
export function resultSet({ columns, types }: { columns: string[]; types: string[] }, rows: Value[][]): ResultSet {
	return new ResultSetImpl(columns, types, rows.map((row) => toRow(row, columns)), 0, undefined);
}

/** A write's result without rows, as `@libsql/client` shapes it. */
export function writeResult(changes: number, lastInsertRowid: number | bigint): ResultSet {
	return new ResultSetImpl([], [], [], changes, BigInt(lastInsertRowid));
}

export function statementFor(conn: StatementCache, sql: string): Prepared {
	let prepared = conn.statements.get(sql);
	if (!prepared) {
		const stmt = conn.db.prepare(sql);
		stmt.safeIntegers(true);
		const reader = stmt.reader;
		if (reader) stmt.raw(true);
		const columns = reader ? stmt.columns() : [];
		prepared = { stmt, reader, columns: columns.map((c) => c.name), types: columns.map((c) => c.type ?? '') };
		if (conn.statements.size >= MAX_STATEMENTS) conn.statements.clear();
		conn.statements.set(sql, prepared);
	}
	return prepared;
}

/** Arguments as `@libsql/client` converts them (intMode `number`, the adapter's requirement). */
export function bindable(args: InArgs | undefined): unknown[] | Record<string, unknown> {
	if (args === undefined) return [];
	if (Array.isArray(args)) return args.map(toSql);
	const named: Record<string, unknown> = {};
	for (const [name, value] of Object.entries(args)) named[name.replace(/^[@$:]/, '')] = toSql(value);
	return named;
}

function toSql(value: InValue): unknown {
	if (typeof value === 'number' && !Number.isFinite(value)) throw new RangeError('Only finite numbers can be bound');
	if (typeof value === 'boolean') return value ? 1 : 0;
	if (value instanceof ArrayBuffer) return Buffer.from(value);
	if (value instanceof Date) return value.valueOf();
	if (value === undefined) throw new TypeError('undefined cannot be bound');
	return value;
}

/** A row as `@libsql/client` shapes it: values by index (not enumerable) and by column name. */
export function toRow(values: Value[], columns: string[]): Row {
	const row = {} as Row;
	Object.defineProperty(row, 'length', { value: values.length });
	for (let i = 0; i < values.length; i++) {
		const value = values[i] as Value;
		Object.defineProperty(row, i, { value });
		const column = columns[i] as string;
		if (!Object.hasOwn(row, column)) row[column] = value;
	}
	return row;
}

const UNSAFE_INTEGER = 'Received integer which cannot be safely represented as a JavaScript number';

export function fromSql(value: unknown): Value {
	if (typeof value === 'bigint') {
		if (value < BigInt(Number.MIN_SAFE_INTEGER) || value > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(UNSAFE_INTEGER);
		return Number(value);
	}
	if (Buffer.isBuffer(value)) return value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength) as ArrayBuffer;
	// SQLite's other storage classes: NULL, REAL (a number) and TEXT.
	return value as Value;
}

/**
 * Rows that SQLite returned as a JSON array of arrays (`json_group_array(json_array(…))`), as
 * `@libsql/client` would have returned them. JSON numbers are doubles: an integer past 2^53 would
 * come back silently rounded, so any integral number outside the safe range is refused, as the
 * client refuses it.
 */
export function parseJsonRows(json: unknown): Value[][] {
	if (typeof json !== 'string') throw new TypeError('A JSON list read returned no JSON text');
	const rows: unknown = JSON.parse(json);
	if (!Array.isArray(rows)) throw new TypeError('A JSON list read returned no array');
	for (const row of rows as unknown[]) {
		if (!Array.isArray(row)) throw new TypeError('A JSON list read returned a row that is no array');
		for (const value of row as unknown[]) {
			if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) throw new RangeError(UNSAFE_INTEGER);
		}
	}
	return rows as Value[][];
}
