/**
 * `migrate(env.DB)`: applies the SQLite migrations (./drizzle/sqlite, embedded at build time) to
 * a D1 database, recording them as `wrangler d1 migrations apply` does: one row per file in
 * `d1_migrations` (wrangler's table, its `name` the file's name). So the two agree: a database
 * migrated with wrangler (`migrations_dir` pointing at `node_modules/kitauth/drizzle/sqlite`) has
 * nothing left to do here, and the other way round. Each migration and its record go in one
 * `batch`, which D1 runs as one transaction; when two Workers migrate at once, the second's batch
 * fails on the record's unique name and changes nothing, and it finds the migration applied.
 */
import { quote, splitStatements, type MigrateResult } from '../shared/migrations.js';
import { migrations } from '../sqlite/migrations.generated.js';
import type { D1Binding } from './client.js';
import { wrapError } from './errors.js';

/** wrangler's default `migrations_table`. */
export const DEFAULT_D1_MIGRATIONS_TABLE = 'd1_migrations';

export interface D1MigrateOptions {
	/** wrangler's `migrations_table` (default `d1_migrations`). */
	migrationsTable?: string;
}

export async function migrate(db: D1Binding, options: D1MigrateOptions = {}): Promise<MigrateResult> {
	const table = quote(options.migrationsTable ?? DEFAULT_D1_MIGRATIONS_TABLE);
	const applied = async () => {
		const { results } = await db.prepare(`SELECT name FROM ${table}`).all<{ name: string }>();
		return new Set(results.map((row) => row.name));
	};
	try {
		// wrangler's own DDL for its table.
		await db.prepare(`CREATE TABLE IF NOT EXISTS ${table}(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)`).run();
		const done = await applied();
		const names: string[] = [];
		for (const migration of migrations) {
			const name = `${migration.tag}.sql`;
			if (done.has(name)) continue;
			const statements = splitStatements(migration.sql).map((statement) => db.prepare(statement));
			try {
				await db.batch([...statements, db.prepare(`INSERT INTO ${table} (name) VALUES (?)`).bind(name)]);
				names.push(name.slice(0, -'.sql'.length));
			} catch (error) {
				// Another Worker applied it meanwhile: all is well.
				if (!(await applied()).has(name)) throw error;
			}
		}
		return { applied: names, adopted: false };
	} catch (error) {
		throw wrapError('migrate', error);
	}
}
