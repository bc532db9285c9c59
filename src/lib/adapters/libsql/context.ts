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
	/**
	 * Does `deleteUser` delete the user's two-factor record? Where the table is known to exist:
	 * kitauth's own tables (its migrations made it), or a `twoFactorsTable` the app gave. An app on
	 * its own tables without one keeps the `deleteUser` it had.
	 */
	deletesTwoFactor: boolean;
}
