import type { Env } from '../core/index.js';

/** What kitauth reads from the environment: its own variables and Auth.js's legacy ones. */
export const AUTH_VARIABLE = /^(AUTH_|NEXTAUTH_)/;

/** Reading and parsing one env file; `undefined` when there is no such file. */
export interface EnvFileReader {
	read(path: string): string | undefined;
	parse(text: string): Record<string, string>;
}

/**
 * The `AUTH_*` (and `NEXTAUTH_*`) variables of the `.env` files in `dir`, in the files and order
 * Vite's `loadEnv` uses: `.env`, `.env.local`, `.env.<mode>`, `.env.<mode>.local`, a later file
 * winning. Other variables are left out, so a `.env` that sets e.g. NODE_ENV for another tool
 * does not change how kitauth behaves. (Vite also expands `${VAR}` references; these are read
 * as written.)
 */
export function envFileAuthVariables(dir: string, mode: string, reader: EnvFileReader): Env {
	return envFileVariables(dir, mode, reader, AUTH_VARIABLE);
}

/** The variables of the same files whose names match `keep` (all of them by default). */
export function envFileVariables(dir: string, mode: string, reader: EnvFileReader, keep: RegExp = /^/): Env {
	const variables: Env = {};
	for (const name of ['.env', '.env.local', `.env.${mode}`, `.env.${mode}.local`]) {
		const text = reader.read(`${dir}/${name}`);
		if (text === undefined) continue;
		for (const [key, value] of Object.entries(reader.parse(text))) {
			if (keep.test(key)) variables[key] = value;
		}
	}
	return variables;
}

interface NodeProcess {
	cwd(): string;
	getBuiltinModule?(id: string): unknown;
}

/**
 * Node's fs and `util.parseEnv` (the parser Vite uses), fetched when called rather than imported:
 * this module is part of every app bundle, a Worker's included, and must not pull in Node
 * built-ins. `undefined` where there is no Node (or one too old for `getBuiltinModule`).
 */
function nodeReader(node: NodeProcess): EnvFileReader | undefined {
	const fs = node.getBuiltinModule?.('node:fs') as { readFileSync(path: string, encoding: 'utf8'): string } | undefined;
	const util = node.getBuiltinModule?.('node:util') as { parseEnv?(text: string): Record<string, string> } | undefined;
	const parse = util?.parseEnv;
	if (!fs || !parse) return undefined;
	return {
		read(path) {
			try {
				return fs.readFileSync(path, 'utf8');
			} catch {
				return undefined; // no such file (or a directory): Vite skips it too
			}
		},
		parse: (text) => parse(text)
	};
}

/** Vite's mode (`vite dev --mode staging`), where the bundler defines it. */
function viteMode(): string {
	return (import.meta as ImportMeta & { env?: { MODE?: string } }).env?.MODE ?? 'development';
}

/**
 * The `AUTH_*` variables of the app's `.env` files, for development servers: `vite dev` loads
 * those files for SvelteKit's own env modules but not into `process.env`, and SvelteKit 3 hands
 * an app's code only the variables its `src/env.ts` declares (its `$env/*` modules, deprecated,
 * are views of those), so a library cannot get them from SvelteKit there. Read from the working
 * directory, where `vite dev` runs and SvelteKit looks by default.
 */
export function devEnvFileVariables(): Env {
	const node = (globalThis as { process?: NodeProcess }).process;
	const reader = node && nodeReader(node);
	return node && reader ? envFileAuthVariables(node.cwd(), viteMode(), reader) : {};
}
