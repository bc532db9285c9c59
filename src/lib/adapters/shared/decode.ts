/**
 * Rows that come back as arrays of values (a query compiled once and run on the driver directly,
 * skipping drizzle's generic result path), decoded with drizzle's own column decoders into the
 * rows drizzle itself would have returned. Shared by every dialect's per-request reads.
 */
import { type Column, getTableColumns, type Table } from 'drizzle-orm';
import type { Row } from './rows.js';

/** One table's columns, in the order drizzle selects them. */
export type Fields = [key: string, column: Column][];

export function fieldsOf(table: Table): Fields {
	return Object.entries(getTableColumns(table));
}

/**
 * A decoder of one result row of a query whose columns are those of `tables` in order (one table
 * for `select().from(t)`, several for `select({ a: t1, b: t2 })`): a row per table, by its key.
 */
export function rowDecoder<K extends string>(tables: Record<K, Table>): (values: unknown[]) => Record<K, Row> {
	const groups = Object.entries<Table>(tables).map(([name, table]) => [name as K, fieldsOf(table)] as const);
	return (values) => {
		const out = {} as Record<K, Row>;
		let offset = 0;
		for (const [name, fields] of groups) {
			out[name] = decodeFields(fields, values, offset);
			offset += fields.length;
		}
		return out;
	};
}

/** As drizzle decodes a selected column: NULL stays null, binary becomes a Buffer, then the column's decoder. */
function decodeFields(fields: Fields, values: unknown[], offset: number): Row {
	const row: Row = {};
	for (let i = 0; i < fields.length; i++) {
		const [key, column] = fields[i] as Fields[number];
		const value = values[offset + i];
		row[key] =
			value === null || value === undefined
				? null
				: column.mapFromDriverValue(value instanceof ArrayBuffer && typeof Buffer === 'function' ? Buffer.from(value) : value);
	}
	return row;
}
