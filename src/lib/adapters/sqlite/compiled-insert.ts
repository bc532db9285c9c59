/**
 * The insert every sign-in makes (its session), compiled: a one-row INSERT … RETURNING whose SQL
 * drizzle builds once per set of columns given, then run with the values alone through the
 * engine's `insertRelaxed` (no wait for the disk; on libSQL grouped with the other new sessions of
 * the same turn), its returned row decoded with drizzle's column decoders. Building the statement
 * per call was about a third of what a database sign-in allocated and a tenth of its CPU (issue
 * 33's profile).
 *
 * Only a statement whose every value is a placeholder is kept. A column the values leave out whose
 * default drizzle computes in JavaScript (`$defaultFn`, `$onUpdateFn`: an app's adopted table may
 * have one) would be frozen into it at its first value: such a set of columns is built per call,
 * as any other write is.
 */
import { is, Param, Placeholder, sql } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { rowDecoder } from '../shared/decode.js';
import type { Row } from '../shared/rows.js';
import type { SQLiteExec } from './exec.js';

/** A compiled statement: its SQL and, per argument, the placeholder it fills with its column's encoder. */
interface Compiled {
	sql: string;
	params: Param[];
}

export function relaxedInsert(exec: SQLiteExec, table: SQLiteTable, operation: string): (values: Row, signal?: AbortSignal) => Promise<Row | undefined> {
	const byColumns = new Map<string, Compiled | null>();
	const decode = rowDecoder({ row: table });
	const query = (values: Row) => exec.db.insert(table).values(values).returning();

	const compile = (keys: string[]): Compiled | null => {
		const { sql: text, params } = query(Object.fromEntries(keys.map((key) => [key, sql.placeholder(key)]))).toSQL();
		const filled = params.filter((p): p is Param => is(p, Param) && is(p.value, Placeholder));
		return filled.length === params.length ? { sql: text, params: filled } : null;
	};

	return async (values, signal) => {
		const keys = Object.keys(values);
		const id = keys.join(',');
		let compiled = byColumns.get(id);
		if (compiled === undefined) byColumns.set(id, (compiled = compile(keys)));
		if (!compiled) return exec.run(operation, () => exec.relaxed(async () => ((await exec.batch([query(values)]))[0] as Row[])[0]), signal);
		// As drizzle fills a placeholder: NULL as it is, any other value through its column's encoder.
		const args = compiled.params.map(({ value, encoder }) => {
			const given = values[(value as Placeholder).name];
			return given === null || given === undefined ? null : encoder.mapToDriverValue(given);
		});
		const [row] = await exec.insertRelaxed(operation, { sql: compiled.sql, args }, signal);
		return row ? decode(row).row : undefined;
	};
}
