/**
 * How the SQLite statements run on D1 (`sqlite/statements.ts`'s `SQLiteExec`): every write one
 * `batch` (D1 runs a batch as one transaction), errors as `D1AdapterError`, and the per-request
 * reads as statements compiled once whose rows come back as arrays (`raw()`), decoded with
 * drizzle's column decoders (`shared/decode.ts`). Their SQL is built once per set of tables, not
 * per adapter: a Worker may make an adapter per request (a Sessions API session per request).
 */
import type { Column, Table } from 'drizzle-orm';
import type { DrizzleD1Database } from 'drizzle-orm/d1';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { rowDecoder } from '../shared/decode.js';
import type { Row } from '../shared/rows.js';
import type { BuiltRead, ReadShape, SQLiteExec } from '../sqlite/statements.js';
import type { D1Binding } from './client.js';
import { wrapError } from './errors.js';

/** The SQL of each compiled read, by the first table it reads and the operation. */
const compiled = new WeakMap<Table, Map<string, string>>();

function sqlOf(operation: string, query: BuiltRead, first: Table): string {
	let byOperation = compiled.get(first);
	if (!byOperation) compiled.set(first, (byOperation = new Map()));
	let text = byOperation.get(operation);
	if (text === undefined) {
		const built = query.toSQL();
		if (built.params.length !== 1) throw new TypeError(`A compiled read takes one argument, this query has ${built.params.length}`);
		byOperation.set(operation, (text = built.sql));
	}
	return text;
}

export function d1Exec(db: DrizzleD1Database, binding: D1Binding): SQLiteExec {
	const run: SQLiteExec['run'] = async (operation, work) => {
		try {
			return await work();
		} catch (error) {
			throw wrapError(operation, error);
		}
	};
	function read<K extends string>(operation: string, query: BuiltRead, tables: Record<K, SQLiteTable>, shape: { single: true }): (arg: string) => Promise<Record<K, Row> | null>;
	function read<K extends string>(operation: string, query: BuiltRead, tables: Record<K, SQLiteTable>, shape: { orderBy: readonly Column[] }): (arg: string) => Promise<Record<K, Row>[]>;
	function read<K extends string>(operation: string, query: BuiltRead, tables: Record<K, SQLiteTable>, shape: ReadShape) {
		const text = sqlOf(operation, query, Object.values<SQLiteTable>(tables)[0]!);
		const decode = rowDecoder(tables);
		const statement = binding.prepare(text);
		if ('single' in shape) {
			return (arg: string) => run(operation, async () => {
				const [row] = await statement.bind(arg).raw();
				return row ? decode(row) : null;
			});
		}
		return (arg: string) => run(operation, async () => (await statement.bind(arg).raw()).map(decode));
	}
	// One statement is a transaction of its own on D1, as a batch is; its durability is Cloudflare's.
	const insertRelaxed: SQLiteExec['insertRelaxed'] = (operation, { sql, args }) => run(operation, () => binding.prepare(sql).bind(...args).raw());
	return { db, run, relaxed: (start) => start(), batch: (queries) => db.batch(queries), insertRelaxed, read };
}
