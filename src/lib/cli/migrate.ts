/**
 * `kitauth migrate`: applies this kitauth's migrations to the app's database, for the engine its
 * configuration uses (or the one --database names).
 */
import { findAuthModule } from './auth-module.js';
import { type Command, COMMON_HELP, COMMON_OPTIONS } from './command.js';
import { adapterIdInSource, engineById, engineInSource, ENGINES, type Engine } from './engines.js';
import { projectEnv } from './env-file.js';
import { UsageError } from './errors.js';
import { folder, type Files } from './project.js';

/** The engine the app's configuration imports the adapter of, or `--database`. */
export function configuredEngine(files: Files, named: string | undefined): Engine {
	if (named) return engineById(named);
	const auth = findAuthModule(files);
	if (!auth) throw new UsageError('No kitauth configuration found (SvelteKitAuth in src/auth.ts or src/hooks.server.ts): run npx kitauth init, or pass --database.');
	const engine = engineInSource(auth.source);
	if (engine) return engine;
	const other = adapterIdInSource(auth.source);
	throw new UsageError(
		other
			? `${auth.path} uses kitauth/adapters/${other}, whose migrations this CLI does not apply yet (it knows ${ENGINES.map((e) => e.id).join(', ')}).`
			: `${auth.path} uses no kitauth adapter, so there is nothing to migrate.`
	);
}

export const migrateCommand: Command = {
	name: 'migrate',
	summary: "apply kitauth's migrations to the app's database",
	help: `Usage: kitauth migrate [--database libsql] [--mode <mode>]

Applies this kitauth's migrations to the app's database: the engine is the adapter src/auth.ts
imports (or --database), the database is DATABASE_URL (and DATABASE_AUTH_TOKEN) from the
environment or the app's .env files, else the file auth.db in the app's folder. Applying them again
changes nothing.

  --database <id>     the engine: ${ENGINES.map((e) => e.id).join(', ')}
  --mode <mode>       which .env files to read, as Vite does (default: production)
${COMMON_HELP}`,
	options: { ...COMMON_OPTIONS, database: { type: 'string' }, mode: { type: 'string' } },
	async run(values, { terminal, cwd, env }) {
		const files = folder(cwd);
		const engine = configuredEngine(files, values.database as string | undefined);
		const mode = typeof values.mode === 'string' ? values.mode : 'production';
		const { where, applied } = await engine.migrate(projectEnv(files, mode, env), files.root);
		terminal.say(applied.length ? `Applied to ${where}: ${applied.join(', ')}.` : `${where} is up to date.`);
		return 0;
	}
};
