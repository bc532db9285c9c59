/**
 * `kitauth init`: adds kitauth to an existing SvelteKit 2 or 3 app — the packages, `src/auth.ts`,
 * the hook in `src/hooks.server.ts` (merged with the app's own), sign-in and sign-out pages, an
 * AUTH_SECRET in `.env`, and the database with its migrations. A second run changes nothing; a
 * file of the app's is replaced only when the person agrees.
 */
import { type Command, COMMON_HELP, COMMON_OPTIONS } from './command.js';
import { engineById, type Engine } from './engines.js';
import { envFileHas, projectEnv } from './env-file.js';
import { UsageError } from './errors.js';
import { hooksInstructions, mergeHooks } from './hooks.js';
import { installCommand, runInstall } from './install.js';
import { envPrefix, parseProviders, presetIds, type ProviderChoice } from './providers.js';
import { hasDependency, openProject, type Project } from './project.js';
import { writeSecret } from './secret.js';
import { AUTH_FILE, authFile, PASSWORDS, PASSWORDS_FILE, SIGNIN_PAGE, SIGNIN_SERVER, SIGNOUT_PAGE, SIGNOUT_SERVER } from './templates.js';
import { confirm, type Terminal } from './terminal.js';

export interface Choices {
	providers: ProviderChoice[];
	engine: Engine | undefined;
	install: boolean;
}

/** From the options, else asked (the defaults where nobody answers). */
export async function choose(values: Record<string, unknown>, terminal: Terminal): Promise<Choices> {
	const providers = parseProviders(
		typeof values['providers'] === 'string'
			? values['providers']
			: await terminal.ask(`Sign-in methods, comma-separated (${presetIds().join(', ')}) [credentials]:`, 'credentials')
	);
	const database = typeof values['database'] === 'string' ? values['database'] : await terminal.ask('Database (libsql, none) [libsql]:', 'libsql');
	const engine = database === 'none' ? undefined : engineById(database);
	const needing = providers.filter((p) => p.needsDatabase);
	if (!engine && needing.length) throw new UsageError(`${needing.map((p) => p.id).join(', ')} need${needing.length > 1 ? '' : 's'} a database: choose --database libsql.`);
	return { providers, engine, install: values['no-install'] !== true };
}

/** Writes `path` when missing; when it differs, only if the person agrees. Whether it changed. */
async function writeFile(project: Project, terminal: Terminal, path: string, text: string): Promise<boolean> {
	const existing = project.read(path);
	if (existing === text) return false;
	if (existing !== undefined && !(await confirm(terminal, `${path} exists and differs from what kitauth would write. Replace it?`, false))) {
		terminal.say(`  left alone: ${path} (yours; kitauth would have written another)`);
		return false;
	}
	project.write(path, text);
	terminal.say(`  ${existing === undefined ? 'created' : 'replaced'}: ${path}`);
	return true;
}

/** The hooks file: the app's own (.ts or .js), else a new src/hooks.server.ts. */
function hooksPath(project: Project): string {
	return ['src/hooks.server.ts', 'src/hooks.server.js'].find((path) => project.exists(path)) ?? 'src/hooks.server.ts';
}

async function addHook(project: Project, terminal: Terminal): Promise<boolean> {
	const path = hooksPath(project);
	const edit = mergeHooks(project.read(path), './auth');
	if (edit.kind === 'present') return false;
	if (edit.kind === 'manual') {
		terminal.warn(`  left alone: ${path}, since ${edit.reason}. Add kitauth's hook yourself:\n${indent(hooksInstructions('./auth'))}`);
		return false;
	}
	if (edit.kind === 'merged' && !(await confirm(terminal, `Add kitauth's hook to your ${path}?`, true))) {
		terminal.say(`  left alone: ${path}. Add kitauth's hook yourself:\n${indent(hooksInstructions('./auth'))}`);
		return false;
	}
	project.write(path, edit.text);
	terminal.say(edit.kind === 'create' ? `  created: ${path}` : `  merged into ${path}: ${edit.how}`);
	return true;
}

function indent(text: string): string {
	return text.replace(/^/gm, '    ');
}

async function installPackages(project: Project, terminal: Terminal, choices: Choices): Promise<boolean> {
	const needed = ['kitauth', ...(choices.engine?.packages ?? [])].filter((name) => !hasDependency(project, name));
	// Node's types, for what the generated code uses of Node (process.env, node:crypto).
	const usesNode = choices.engine !== undefined || choices.providers.some((p) => p.id === 'credentials');
	const dev = usesNode && !hasDependency(project, '@types/node') ? ['@types/node'] : [];
	const commands = [needed.length ? installCommand(project.packageManager, needed) : undefined, dev.length ? installCommand(project.packageManager, dev, true) : undefined].filter(
		(c): c is string[] => c !== undefined
	);
	if (commands.length === 0) return false;
	const shown = commands.map((c) => c.join(' ')).join(' && ');
	if (!choices.install || !(await confirm(terminal, `Install ${[...needed, ...dev].join(', ')} (${shown})?`, true))) {
		terminal.say(`  not installed: run ${shown}`);
		return false;
	}
	for (const command of commands) {
		terminal.say(`  ${command.join(' ')}`);
		if (!runInstall(project.root, command)) throw new UsageError(`${command.join(' ')} failed (its output is above).`);
	}
	// Re-read: the package manager updated package.json.
	Object.assign(project, { manifest: openProject(project.root).manifest });
	return true;
}

export async function init(project: Project, terminal: Terminal, choices: Choices, env: Record<string, string | undefined>): Promise<boolean> {
	terminal.say(`Adding kitauth to ${project.root} (SvelteKit ${project.kit}).`);
	let changed = await installPackages(project, terminal, choices);
	const files: [string, string][] = [
		[AUTH_FILE, authFile(choices.providers, choices.engine)],
		...(choices.providers.some((p) => p.id === 'credentials') ? ([[PASSWORDS_FILE, PASSWORDS]] as [string, string][]) : []),
		['src/routes/signin/+page.server.ts', SIGNIN_SERVER],
		['src/routes/signin/+page.svelte', SIGNIN_PAGE],
		['src/routes/signout/+page.server.ts', SIGNOUT_SERVER],
		['src/routes/signout/+page.svelte', SIGNOUT_PAGE]
	];
	for (const [path, text] of files) changed = (await writeFile(project, terminal, path, text)) || changed;
	changed = (await addHook(project, terminal)) || changed;
	if (!envFileHas(project, 'AUTH_SECRET')) changed = (await writeSecret(project, terminal, false)) !== 'kept' || changed;
	if (choices.engine) {
		const { where, applied } = await choices.engine.migrate(projectEnv(project, 'production', env), project.root);
		if (applied.length) {
			terminal.say(`  migrated ${where}: ${applied.join(', ')}`);
			changed = true;
		}
	}
	if (!changed) {
		terminal.say('Nothing to change: kitauth is already set up here.');
		return false;
	}
	terminal.say('kitauth is set up.');
	const oauth = choices.providers.filter((p) => p.oauth);
	const next = [
		...oauth.map((p) => `Set ${envPrefix(p.id)}_ID and ${envPrefix(p.id)}_SECRET in .env (callback URL: <your site>/auth/callback/${p.id}).`),
		...(choices.providers.some((p) => p.id === 'credentials') ? [`Finish ${PASSWORDS_FILE}: findUserByEmail() finds nobody yet.`] : []),
		...(choices.engine && !/auth\.db/.test(project.read('.gitignore') ?? '') ? ['Keep the database out of git: add auth.db* to .gitignore.'] : []),
		'Sign in at /signin; check the set-up with npx kitauth doctor.'
	];
	terminal.say(`Next:\n${next.map((line) => `  - ${line}`).join('\n')}`);
	return true;
}

export const initCommand: Command = {
	name: 'init',
	summary: 'add kitauth to a SvelteKit 2 or 3 app',
	help: `Usage: kitauth init [--providers <ids>] [--database libsql|none] [--yes] [--no-install]

Adds kitauth to the SvelteKit app: installs kitauth (and the database's packages), writes
src/auth.ts, adds kitauth's handle to src/hooks.server.ts (merged with yours through sequence),
writes the sign-in and sign-out pages, an AUTH_SECRET in .env, and creates the database with its
migrations. Asks before replacing any file of yours; a second run changes nothing.

  --providers <ids>   sign-in methods, comma-separated (default: credentials)
  --database <id>     libsql (a file, auth.db, unless DATABASE_URL says otherwise) or none
  -y, --yes           take the defaults without asking (files of yours are still never replaced)
  --no-install        print the install command instead of running it
${COMMON_HELP}`,
	options: {
		...COMMON_OPTIONS,
		providers: { type: 'string' },
		database: { type: 'string' },
		yes: { type: 'boolean', short: 'y' },
		'no-install': { type: 'boolean' }
	},
	async run(values, { terminal, cwd, env }) {
		const project = openProject(cwd);
		// --yes: every question takes its default (and a file of the app's is never replaced).
		const asked: Terminal = values.yes ? { ...terminal, interactive: false } : terminal;
		const choices = await choose(values, asked);
		await init(project, asked, choices, env);
		return 0;
	}
};
