/**
 * The databases `kitauth init`, `migrate` and `doctor` know, one entry per engine: which adapter
 * module an app imports for it, which packages it needs, and how its migrations are applied and
 * checked. libSQL today; an engine added beside it (PostgreSQL, D1) needs no change elsewhere.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { UsageError } from './errors.js';
import type { Variables } from './env-file.js';

export interface MigrationState {
	/** Where the database is, as the CLI opened it (no credentials). */
	where: string;
	/** The database does not exist yet. */
	missing?: boolean;
	/** Migrations of this kitauth not applied to it. */
	pending: string[];
}

export interface Engine {
	id: string;
	/** What an app imports its adapter and `migrate` from. */
	module: string;
	/** Packages the app needs besides kitauth (optional peers of kitauth). */
	packages: string[];
	/** Lines of `src/auth.ts`: the imports, and the adapter option's value. */
	config: { imports: string[]; declarations: string[]; adapter: string };
	/** Applies this kitauth's migrations to the app's database (`root`: the app's folder). */
	migrate(env: Variables, root: string): Promise<{ where: string; applied: string[] }>;
	state(env: Variables, root: string): Promise<MigrationState>;
}

/** The libSQL database of an app made by `init`: DATABASE_URL, else a file beside package.json. */
function libsqlSource(env: Variables, root: string): { url: string; authToken?: string } {
	const url = env['DATABASE_URL'] || 'file:auth.db';
	const file = /^file:(?!\/\/)(.*)$/.exec(url)?.[1];
	// A relative file is relative to where the server runs: the app's folder, whatever --cwd said.
	const resolved = file !== undefined && !isAbsolute(file) ? `file:${join(root, file)}` : url;
	return { url: resolved, ...(env['DATABASE_AUTH_TOKEN'] ? { authToken: env['DATABASE_AUTH_TOKEN'] } : {}) };
}

/** A database URL fit to print: no credentials or query (a file URL as it is). */
export function printable(url: string): string {
	if (url.startsWith('file:')) return url;
	try {
		const parsed = new URL(url);
		return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
	} catch {
		return '(DATABASE_URL, not a URL)';
	}
}

/** The libSQL adapter's module, or a message naming the packages to install. */
async function libsqlAdapter() {
	try {
		return await import('../adapters/libsql/migrate.js');
	} catch (error) {
		if ((error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
		throw new UsageError(`The libSQL adapter needs @libsql/client, @libsql/core, libsql and drizzle-orm, which this app does not have: npm install @libsql/client @libsql/core libsql drizzle-orm (${(error as Error).message.split('\n')[0]})`);
	}
}

const libsql: Engine = {
	id: 'libsql',
	module: 'kitauth/adapters/libsql',
	// @libsql/core and libsql come with @libsql/client, but kitauth imports them too: listed, an
	// adapter-node build leaves them external instead of bundling the native engine's loader.
	packages: ['@libsql/client', '@libsql/core', 'libsql', 'drizzle-orm'],
	config: {
		imports: ["import { LibSQLAdapter } from 'kitauth/adapters/libsql';"],
		declarations: [
			'/** The database: a libSQL file beside package.json unless DATABASE_URL says otherwise. */',
			"export const database = { url: process.env.DATABASE_URL || 'file:auth.db', authToken: process.env.DATABASE_AUTH_TOKEN };"
		],
		adapter: 'LibSQLAdapter(database)'
	},
	async migrate(env, root) {
		const source = libsqlSource(env, root);
		const { migrate } = await libsqlAdapter();
		try {
			const { applied } = await migrate(source);
			return { where: printable(source.url), applied };
		} catch (error) {
			// The database's answer (locked, read-only, not kitauth's schema) is for the person, not a bug.
			throw new UsageError(`migrating ${printable(source.url)} failed: ${(error as Error).message}`);
		}
	},
	async state(env, root) {
		const source = libsqlSource(env, root);
		const file = /^file:(.*)$/.exec(source.url)?.[1];
		if (file !== undefined && !existsSync(file)) return { where: printable(source.url), missing: true, pending: [] };
		const { pendingMigrations } = await libsqlAdapter();
		return { where: printable(source.url), pending: await pendingMigrations(source) };
	}
};

export const ENGINES: readonly Engine[] = [libsql];

/** The engine `id` names, or a UsageError listing those there are. */
export function engineById(id: string): Engine {
	const engine = ENGINES.find((e) => e.id === id);
	if (!engine) throw new UsageError(`Unknown database "${id}": kitauth's CLI knows ${ENGINES.map((e) => e.id).join(', ')} (or none).`);
	return engine;
}

/** The engine whose adapter an auth module imports (a static read of its source). */
export function engineInSource(source: string): Engine | undefined {
	return ENGINES.find((engine) => source.includes(`'${engine.module}'`) || source.includes(`"${engine.module}"`));
}

/** The adapter an auth module imports, whether or not the CLI knows it (`kitauth/adapters/<id>`). */
export function adapterIdInSource(source: string): string | undefined {
	return /['"]kitauth\/adapters\/([\w-]+)['"]/.exec(source)?.[1];
}
