import { defineConfig } from 'drizzle-kit';

// The PostgreSQL adapter's schema. `npm run db:generate` writes a migration to ./drizzle/postgres,
// then `node scripts/embed-migrations.ts` embeds it for `migrate()`. `drizzle-kit migrate` with
// this file and `migrate()` keep their records in the same table (`drizzle.__kitauth_migrations`),
// in drizzle's format, so they agree about what is applied.
export default defineConfig({
	dialect: 'postgresql',
	schema: './src/lib/adapters/postgres/schema.ts',
	out: './drizzle/postgres',
	migrations: { table: '__kitauth_migrations', schema: 'drizzle' },
	dbCredentials: { url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres' }
});
