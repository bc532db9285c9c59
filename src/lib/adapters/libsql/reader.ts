/**
 * Reads of a local file database through prepared statements kept for reuse.
 *
 * `@libsql/client` prepares every statement anew and reads its column list twice: with libsql
 * 0.5 that costs ~55 µs, more than running a session lookup. The adapter's queries are a small,
 * fixed set, so on a local file it keeps one extra connection for reads with each query prepared
 * once (a session lookup drops from ~120 µs to ~30 µs; `/account` pays for three). Adapters on
 * the same client share that connection, so an adapter made per request costs no file handle.
 *
 * Why this is safe: the connection sees exactly what every pooled connection of the client sees,
 * the last committed state (each statement runs to completion, so no read transaction stays open;
 * a connection found inside one is dropped). Writes never come here. Anything unusual sends the
 * read through the client as before: `:memory:` (a second connection would be another database),
 * a closed client, a locked database (the client waits for it with its busy timeout; this
 * connection never waits, so a read does not wait twice), and any other error (the connection is
 * dropped and reopened on the next read; after three failures in a row, e.g. an encrypted file,
 * the client answers for good). Embedded replicas (`syncUrl`) must not be read behind the
 * client's back: the adapter turns this off for them (`cachedReads: false`).
 */
import type { Client, InArgs, InStatement, InValue, ResultSet, Row, Value } from '@libsql/client';
import { ResultSetImpl } from '@libsql/core/util';
import Database from 'libsql';
import { errorCode, isBusy } from './errors.js';

/** Distinct statements kept per connection; the adapter issues a few dozen at most. */
const MAX_STATEMENTS = 128;
/** Consecutive non-busy failures after which the client answers every read. */
const MAX_FAILURES = 3;

export interface CachedReader {
	/** The statement's result, or `undefined` when it must go through the client instead. */
	read(stmt: InStatement): Promise<ResultSet | undefined>;
	/**
	 * The statement's rows as arrays of values (`single`: the first row at most, read with one
	 * step instead of a cursor), or `undefined` when it must go through the client instead. It
	 * answers synchronously: until the connection is open it says `undefined` and opens it.
	 */
	values(stmt: InStatement, single: boolean): unknown[][] | undefined;
	/** Closes the connection (it reopens on the next read while the client is open). */
	close(): void;
}

interface Prepared {
	stmt: Database.Statement;
	columns: string[];
	types: string[];
}

interface Open {
	db: Database.Database;
	statements: Map<string, Prepared>;
}

/** One reader per client, shared by every adapter on it (gone with the client). */
const readers = new WeakMap<Client, CachedReader>();

export function cachedReader(client: Client): CachedReader {
	let reader = readers.get(client);
	if (!reader) {
		reader =
			client.protocol === 'file'
				? fileReader(client)
				: { read: async () => undefined, values: () => undefined, close() {} };
		readers.set(client, reader);
	}
	return reader;
}

function fileReader(client: Client): CachedReader {
	let path: Promise<string | null> | undefined;
	let open: Open | undefined;
	let noFile = false;
	let failures = 0;

	const close = () => {
		open?.db.close();
		open = undefined;
	};

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
		if (!open && !client.closed) {
			try {
				// `timeout: 0`: a locked database fails at once here and the client does the waiting.
				open = { db: new Database(file, { timeout: 0 }), statements: new Map() };
			} catch {
				failures++;
			}
		}
		return open;
	};

	/** The statement's SQL and arguments when the read connection may serve it. */
	const usable = (stmt: InStatement): { sql: string; args: InArgs | undefined } | undefined => {
		if (client.closed) close();
		if (noFile || failures >= MAX_FAILURES || client.closed) return undefined;
		const { sql, args } = typeof stmt === 'string' ? { sql: stmt, args: undefined } : stmt;
		return /^\s*select\b/i.test(sql) ? { sql, args } : undefined;
	};

	/** Runs a SELECT on the open read connection; `undefined` sends it through the client. */
	const run = (conn: Open, sql: string, args: InArgs | undefined, single: boolean) => {
		let prepared: Prepared;
		let rows: unknown[][];
		try {
			prepared = statementFor(conn, sql);
			// `get` steps once and resets the statement; a cursor (`all`) costs several times more.
			if (single) {
				const first = prepared.stmt.get(bindable(args)) as unknown[] | undefined;
				rows = first ? [first] : [];
			} else {
				rows = prepared.stmt.all(bindable(args)) as unknown[][];
			}
			if (conn.db.inTransaction) throw new Error('the read connection was left inside a transaction');
			failures = 0;
		} catch (error) {
			// A failed statement may hold a read transaction open: never reuse its connection.
			close();
			if (!isBusy(errorCode(error))) failures++;
			return undefined;
		}
		// Outside the try: a value the client could not represent either throws as it would there.
		for (const row of rows) for (let i = 0; i < row.length; i++) row[i] = fromSql(row[i]);
		return { prepared, rows: rows as Value[][] };
	};

	return {
		async read(stmt) {
			const query = usable(stmt);
			if (!query) return undefined;
			const conn = open ?? (await connection());
			if (!conn || client.closed) return undefined;
			const result = run(conn, query.sql, query.args, false);
			if (!result) return undefined;
			const { columns, types } = result.prepared;
			return new ResultSetImpl(columns, types, result.rows.map((row) => toRow(row, columns)), 0, undefined);
		},
		values(stmt, single) {
			const query = usable(stmt);
			if (!query) return undefined;
			if (!open) {
				// The first reads go through the client while the connection opens.
				void connection();
				return undefined;
			}
			return run(open, query.sql, query.args, single)?.rows;
		},
		close
	};
}

function statementFor(conn: Open, sql: string): Prepared {
	let prepared = conn.statements.get(sql);
	if (!prepared) {
		const stmt = conn.db.prepare(sql);
		stmt.safeIntegers(true);
		stmt.raw(true);
		const columns = stmt.columns();
		prepared = { stmt, columns: columns.map((c) => c.name), types: columns.map((c) => c.type ?? '') };
		if (conn.statements.size >= MAX_STATEMENTS) conn.statements.clear();
		conn.statements.set(sql, prepared);
	}
	return prepared;
}

/** Arguments as `@libsql/client` converts them (intMode `number`, the adapter's requirement). */
function bindable(args: InArgs | undefined): unknown[] | Record<string, unknown> {
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
function toRow(values: Value[], columns: string[]): Row {
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

function fromSql(value: unknown): Value {
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
