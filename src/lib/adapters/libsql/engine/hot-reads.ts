/**
 * The reads a signed-in page pays for on every request (session and user, the user's sessions,
 * the user's accounts), compiled once. drizzle builds their SQL; their rows come back as arrays
 * of values (`GuardedClient.cachedValues`, else `clientValues`) and are decoded with drizzle's
 * own column decoders (`shared/decode.ts`). That skips drizzle's generic result path (row objects with a
 * property defined per column, then copied, then mapped), which under load cost as much as the
 * query itself. On the cached connection a list comes back as one JSON row (`listAsJson`).
 */
import type { Column } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { type Fields, fieldsOf, rowDecoder } from '../../shared/decode.js';
import type { Row } from '../../shared/rows.js';
import type { GuardedClient } from './client.js';
import { parseJsonRows } from './local-statements.js';

/** A query with one placeholder, as drizzle builds it (`.where(eq(col, sql.placeholder(…)))`). */
interface Built {
	toSQL(): { sql: string; params: unknown[] };
}

/** One compiled read, mapped to what the adapter method returns. */
export interface HotRead<T> {
	/**
	 * The answer from the local connection, synchronously; `undefined` when it cannot give one
	 * (not open yet, not a local file): then `load`. It never waits for a lock: a locked database
	 * throws (the guard then retries `load` with timers).
	 */
	now(arg: string): T | undefined;
	/** The answer once the local connection is open, or through the client. */
	load(arg: string): Promise<T>;
}

/**
 * How a read's rows come back: `single`, the first row or null (one step on the cached path);
 * `orderBy`, every row, sorted ascending by these columns (the query's own ORDER BY: on the cached
 * path they come back as one JSON value, see `listAsJson`).
 */
export type HotShape = { single: true } | { orderBy: readonly Column[] };

/**
 * Compiles `query`, whose result columns are those of `tables` in order (one table for
 * `select().from(t)`, several for `select({ a: t1, b: t2 })`), into a read by its one argument.
 */
export function hotRead<K extends string, T>(
	client: GuardedClient,
	query: Built,
	tables: Record<K, SQLiteTable>,
	shape: { single: true },
	map: (row: Record<K, Row> | null) => T
): HotRead<T>;
export function hotRead<K extends string, T>(
	client: GuardedClient,
	query: Built,
	tables: Record<K, SQLiteTable>,
	shape: { orderBy: readonly Column[] },
	map: (rows: Record<K, Row>[]) => T
): HotRead<T>;
export function hotRead<K extends string, T>(
	client: GuardedClient,
	query: Built,
	tables: Record<K, SQLiteTable>,
	shape: HotShape,
	map: ((row: Record<K, Row> | null) => T) | ((rows: Record<K, Row>[]) => T)
): HotRead<T> {
	const { sql, params } = query.toSQL();
	if (params.length !== 1) throw new TypeError(`A hot read takes one argument, this query has ${params.length}`);
	const decode = rowDecoder(tables);
	if ('single' in shape) {
		const one = map as (row: Record<K, Row> | null) => T;
		const result = (rows: unknown[][]): T => one(rows[0] ? decode(rows[0]) : null);
		return {
			now(arg) {
				const rows = client.cachedValues({ sql, args: [arg] }, true);
				return rows === undefined ? undefined : result(rows);
			},
			async load(arg) {
				return result(await client.clientValues({ sql, args: [arg] }, true));
			}
		};
	}
	const all = (rows: unknown[][]): T => (map as (rows: Record<K, Row>[]) => T)(rows.map(decode));
	const fields = Object.values<SQLiteTable>(tables).flatMap(fieldsOf);
	const json = listAsJson(sql, fields, shape.orderBy);
	return {
		now(arg) {
			if (json === undefined) {
				const rows = client.cachedValues({ sql, args: [arg] }, false);
				return rows === undefined ? undefined : all(rows);
			}
			const rows = client.cachedValues({ sql: json, args: [arg] }, true);
			return rows === undefined ? undefined : all(parseJsonRows(rows[0]?.[0]));
		},
		async load(arg) {
			return all(await client.clientValues({ sql, args: [arg] }, false));
		}
	};
}

/**
 * A list read as one row holding its rows as a JSON array of arrays, for the cached connection.
 * `libsql` hands several rows back through a cursor (two native calls and a batch array per
 * read), which costs more than the read itself on the short lists these are; one row is one step.
 * The aggregate's own ORDER BY keeps the order (SQLite ≥ 3.44, which `libsql` bundles). Only for
 * tables of text and integer columns: JSON has no blobs, and its numbers are checked on the way
 * back (`parseJsonRows`). The client keeps the plain query (any server, any column type).
 */
function listAsJson(sql: string, fields: Fields, orderBy: readonly Column[]): string | undefined {
	const names = fields.map(([, column]) => column.name);
	if (new Set(names).size !== names.length) return undefined;
	if (fields.some(([, column]) => !/^(text|integer)\b/i.test(column.getSQLType()))) return undefined;
	const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
	const order = orderBy.map((column) => quote(column.name)).join(', ');
	return `select json_group_array(json_array(${names.map(quote).join(', ')}) order by ${order}) from (${sql})`;
}
