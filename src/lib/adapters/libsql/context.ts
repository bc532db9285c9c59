import type { LibSQLDatabase } from 'drizzle-orm/libsql';
import type { Guard } from './guard.js';
import type { LibSQLTables } from './tables.js';

/** What every group of adapter methods works with. */
export interface AdapterContext {
	/** A drizzle instance over the write-guarded client (`client.ts`). */
	db: LibSQLDatabase;
	tables: LibSQLTables;
	guard: Guard;
}
