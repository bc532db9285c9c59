/**
 * The local file's calls handed to its second connection, off the main thread (`off-thread.ts`;
 * `local.ts` decides when): arguments bound, and rows and results converted as the main-thread
 * path (`local-main-thread.ts`) converts them.
 */
import type { InArgs, ResultSet, Value } from '@libsql/client';
import { errorCode, isBusy } from '../errors.js';
import { busy } from './local-errors.js';
import type { Durability } from './local-main-thread.js';
import { bindable, fromSql, normalize, resultSet, type Statements, writeResult } from './local-statements.js';
import type { OffThread, OffThreadRows } from './off-thread.js';

/** A SELECT off the main thread: its raw rows, converted as the main-thread path converts them. */
export async function offRows(thread: OffThread, sql: string, args: InArgs | undefined, deadline: number): Promise<OffThreadRows> {
	try {
		const result = await thread.rows({ sql, args: bindable(args) }, deadline);
		for (const row of result.rows) for (let i = 0; i < row.length; i++) row[i] = fromSql(row[i]);
		return result;
	} catch (error) {
		throw isBusy(errorCode(error)) ? busy(error) : error;
	}
}

/** A SELECT's result off the main thread, as the client shapes it. */
export async function offRead(thread: OffThread, sql: string, args: InArgs | undefined, deadline: number): Promise<ResultSet> {
	const result = await offRows(thread, sql, args, deadline);
	return resultSet(result, result.rows as Value[][]);
}

/** A write off the main thread: one transaction, committed only before `deadline`. */
export async function offWrite(thread: OffThread, stmts: Statements, deadline: number, durability: Durability, signal?: AbortSignal): Promise<ResultSet[]> {
	let results: OffThreadRows[];
	try {
		const normalized = stmts.map((stmt) => {
			const { sql, args } = normalize(stmt);
			return { sql, args: bindable(args) };
		});
		results = await thread.transact(normalized, deadline, durability === 'relaxed', signal);
	} catch (error) {
		throw isBusy(errorCode(error)) ? busy(error) : error;
	}
	return results.map((result) =>
		result.reader ? resultSet(result, result.rows.map((row) => row.map(fromSql))) : writeResult(result.changes, result.lastInsertRowid)
	);
}
