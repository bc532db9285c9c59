/**
 * How the SQLite statements run on libSQL (`sqlite/statements.ts`'s `SQLiteExec`): every
 * operation through the guard (busy retries with timers, deadlines, errors as
 * `LibSQLAdapterError`), every write one `batch` (an explicit transaction, see
 * `engine/guard.ts`), and the per-request reads compiled onto the adapter's own connection
 * (`engine/hot-reads.ts`).
 */
import type { InStatement } from '@libsql/client';
import type { Column } from 'drizzle-orm';
import type { LibSQLDatabase } from 'drizzle-orm/libsql';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Row } from '../shared/rows.js';
import type { BuiltRead, ReadShape, SQLiteExec } from '../sqlite/statements.js';
import type { GuardedClient } from './engine/client.js';
import type { Guard } from './engine/guard.js';
import { commitGroup } from './engine/commit-group.js';
import { hotRead } from './engine/hot-reads.js';
import { errorCode, forOperation, LibSQLAdapterError, messageOf } from './errors.js';

export function libsqlExec(db: LibSQLDatabase, client: GuardedClient, guard: Guard): SQLiteExec {
	function read<K extends string>(operation: string, query: BuiltRead, tables: Record<K, SQLiteTable>, shape: { single: true }): (arg: string) => Promise<Record<K, Row> | null>;
	function read<K extends string>(operation: string, query: BuiltRead, tables: Record<K, SQLiteTable>, shape: { orderBy: readonly Column[] }): (arg: string) => Promise<Record<K, Row>[]>;
	function read<K extends string>(operation: string, query: BuiltRead, tables: Record<K, SQLiteTable>, shape: ReadShape) {
		// The rows as they are: the shared methods map them.
		if ('single' in shape) {
			const hot = hotRead(client, query, tables, shape, (row) => row);
			return (arg: string) => guard.read(operation, hot, arg);
		}
		const hot = hotRead(client, query, tables, shape, (rows) => rows);
		return (arg: string) => guard.read(operation, hot, arg);
	}
	// New sessions of one turn in one relaxed transaction, retried by the guard as one. A group that
	// one bad row failed (a constraint: its user deleted meanwhile), or that one sign-in left while
	// it waited for a lock, is committed again row by row.
	const newRows = commitGroup(
		(stmts, signal) => guard.run('createSession', () => client.relaxed(() => client.batch(stmts)), signal),
		(error) => error instanceof LibSQLAdapterError && (error.code === 'SQLITE_CONSTRAINT' || error.code === 'ABORTED')
	);
	return {
		db,
		run: (operation, work, signal) => guard.run(operation, work, signal),
		relaxed: (start) => client.relaxed(start),
		batch: (queries) => db.batch(queries),
		insertRelaxed: async (operation, statement, signal) => {
			try {
				const [result] = await newRows([statement as InStatement], signal);
				return (result?.rows ?? []).map((row) => Array.prototype.slice.call(row));
			} catch (error) {
				throw forOperation(operation, errorCode(error) === 'ABORTED' && !(error instanceof LibSQLAdapterError) ? new LibSQLAdapterError(operation, 'ABORTED', messageOf(error), error) : error);
			}
		},
		read
	};
}
