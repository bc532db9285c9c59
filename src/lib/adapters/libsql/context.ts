import type { LibSQLDatabase } from 'drizzle-orm/libsql';
import type { GuardedClient } from './client.js';
import type { Guard } from './guard.js';
import type { LibSQLTables } from './tables.js';

/** What every group of adapter methods works with. */
export interface AdapterContext {
	/** A drizzle instance over the write-guarded client (`client.ts`). */
	db: LibSQLDatabase;
	/** The same client, for the reads compiled in `hot-reads.ts`. */
	client: GuardedClient;
	tables: LibSQLTables;
	guard: Guard;
}
