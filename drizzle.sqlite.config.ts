import { defineConfig } from 'drizzle-kit';

// The SQLite schema of the libSQL and D1 adapters. `npm run db:generate` writes a migration to
// ./drizzle/sqlite, then `node scripts/embed-migrations.ts` embeds it for `migrate()` (which must
// not read ./drizzle at run time: the library is bundled into apps). `drizzle-kit migrate` with
// this file and libSQL's `migrate()` keep their records in the same table, in drizzle's format, so
// they agree about what is applied. That table is kitauth's own, not `__drizzle_migrations`:
// drizzle's migrator only compares the newest `created_at`, so sharing a table with an app's own
// migrations would skip some of them. (D1 records them as `wrangler d1 migrations apply` does.)
export default defineConfig({
	dialect: 'turso',
	schema: './src/lib/adapters/sqlite/schema.ts',
	out: './drizzle/sqlite',
	migrations: { table: '__kitauth_migrations' },
	dbCredentials: {
		url: process.env.DATABASE_URL ?? 'file:local.db',
		authToken: process.env.DATABASE_AUTH_TOKEN
	}
});
