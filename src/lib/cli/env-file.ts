/**
 * The app's environment as its server sees it, and edits of its `.env`: one variable set or
 * replaced, every other line kept as written.
 */
import { parseEnv } from 'node:util';
import { envFileVariables } from '../sveltekit/dotenv.js';
import type { Files } from './project.js';

export type Variables = Record<string, string | undefined>;

/**
 * The variables of the app's `.env` files (those Vite reads for `mode`, a later file winning) under
 * those of the environment the CLI runs in.
 */
export function projectEnv(project: Files, mode = 'production', env: Variables = process.env): Variables {
	const files = envFileVariables(project.root, mode, { read: (path) => project.read(path.slice(project.root.length + 1)), parse: (text) => parseEnv(text) as Record<string, string> });
	return { ...files, ...env };
}

const ASSIGNMENT = (name: string) => new RegExp(`^[ \\t]*(?:export[ \\t]+)?${name}[ \\t]*=.*$`, 'm');

/** Whether `.env` assigns `name` (whatever its value). */
export function envFileHas(project: Files, name: string): boolean {
	return ASSIGNMENT(name).test(project.read('.env') ?? '');
}

/** Sets `name` in `.env` (created when missing): its line replaced when there is one, else added. */
export function setEnvFileVariable(project: Files, name: string, value: string): void {
	const text = project.read('.env') ?? '';
	const line = `${name}=${value}`;
	if (ASSIGNMENT(name).test(text)) project.write('.env', text.replace(ASSIGNMENT(name), () => line));
	else project.write('.env', `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${line}\n`);
}
