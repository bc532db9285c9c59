/**
 * A one-row INSERT … RETURNING whose SQL is built by drizzle once per set of columns given, then
 * run with the values alone (`SQLiteExec.write`), its returned row decoded with drizzle's column
 * decoders. For the insert every sign-in makes (its session): building the statement each time
 * (drizzle's query builder) was about a third of what a database sign-in allocated, and a tenth of
 * its CPU (issue 33's profile).
 *
 * Only a statement whose every value is a placeholder is kept. A column the values leave out whose
 * default drizzle computes in JavaScript (`$defaultFn`, `$onUpdateFn`: an app's adopted table may
 * have one) would be frozen into it at its first value: such a set of columns is built per call,
 * as before.
 */
import { is, Param, Placeholder, sql } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { rowDecoder } from '../shared/decode.js';
import type { Row } from '../shared/rows.js';
import type { SQLiteExec } from './exec.js';

/** A compiled statement: its SQL and, per argument, the placeholder it fills and its column's encoder. */
interface Compiled {
	sql: string;
	params: Param[];
}

export function compiledInsert(exec: SQLiteExec, table: SQLiteTable): (values: Row) => Promise<Row | undefined> {
	const byColumns = new Map<string, Compiled | null>();
	const decode = rowDecoder({ row: table });
	const query = (values: Row) => exec.db.insert(table).values(values).returning();

	const compile = (keys: string[]): Compiled | null => {
		const { sql: text, params } = query(Object.fromEntries(keys.map((key) => [key, sql.placeholder(key)]))).toSQL();
		const filled = params.filter((p): p is Param => is(p, Param) && is(p.value, Placeholder));
		return filled.length === params.length ? { sql: text, params: filled } : null;
	};

	return async (values) => {
		const keys = Object.keys(values);
		const id = keys.join(',');
		let compiled = byColumns.get(id);
		if (compiled === undefined) byColumns.set(id, (compiled = compile(keys)));
		if (!compiled) return ((await exec.batch([query(values)]))[0] as Row[])[0];
		// As drizzle fills a placeholder: NULL as it is, any other value through its column's encoder.
		const args = compiled.params.map(({ value, encoder }) => {
			const given = values[(value as Placeholder).name];
			return given === null || given === undefined ? null : encoder.mapToDriverValue(given);
		});
		const [row] = await exec.write({ sql: compiled.sql, args });
		return row ? decode(row).row : undefined;
	};
}
