/**
 * How the PostgreSQL statements run (`statements.ts`, `counters.ts`): drizzle (over the driver,
 * through drizzle's proxy driver) builds the SQL and decodes rows; `query` sends one statement;
 * `run` makes it one adapter operation (`operation.ts`).
 */
import type { PgDatabase, PgQueryResultHKT, PgTable } from 'drizzle-orm/pg-core';
import { rowDecoder } from '../shared/decode.js';
import type { Row } from '../shared/rows.js';
import type { PgRun } from './client.js';
import type { RunOperation } from './operation.js';

export type PgDb = PgDatabase<PgQueryResultHKT>;

/** How the statements run: drizzle over the driver, the driver itself, one operation at a time. */
export interface PgExec {
	db: PgDb;
	query: PgRun;
	run: RunOperation;
}

/** A read by one argument, compiled once: the SQL built now, only the value bound per call. */
export function compiledRead<K extends string>(
	{ query, run }: PgExec,
	operation: string,
	built: { toSQL(): { sql: string; params: unknown[] } },
	tables: Record<K, PgTable>
): (arg: string) => Promise<Record<K, Row>[]> {
	const { sql: text, params } = built.toSQL();
	if (params.length !== 1) throw new TypeError(`A compiled read takes one argument, this query has ${params.length}`);
	const decode = rowDecoder(tables);
	return (arg) => run(operation, async () => (await query(text, [arg])).map(decode));
}
