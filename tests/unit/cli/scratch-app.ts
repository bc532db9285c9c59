/** A scratch SvelteKit app folder for the CLI's tests, and a terminal that records what it is told. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { main } from '../../../src/lib/cli/main.js';
import type { Terminal } from '../../../src/lib/cli/terminal.js';

export interface ScratchApp {
	dir: string;
	write(path: string, text: string): void;
	read(path: string): string;
	remove(): void;
}

/** An app on SvelteKit `kit` whose package.json already lists kitauth and the libSQL packages (nothing to install). */
export function scratchApp(kit: 2 | 3 = 3, extra: Record<string, string> = {}): ScratchApp {
	const dir = mkdtempSync(join(tmpdir(), 'kitauth-cli-'));
	const write = (path: string, text: string) => {
		mkdirSync(dirname(join(dir, path)), { recursive: true });
		writeFileSync(join(dir, path), text);
	};
	write(
		'package.json',
		JSON.stringify({
			name: 'scratch',
			type: 'module',
			dependencies: { kitauth: '^0.1.0', '@libsql/client': '^0.18.0', '@libsql/core': '^0.18.0', libsql: '^0.5.29', 'drizzle-orm': '^0.45.4' },
			devDependencies: { '@sveltejs/kit': kit === 3 ? '^3.2.0' : '^2.63.0', '@types/node': '^24', ...extra }
		})
	);
	write('tsconfig.json', '{}');
	return { dir, write, read: (path) => readFileSync(join(dir, path), 'utf8'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Recorded extends Terminal {
	out: string[];
	errors: string[];
	asked: string[];
	text(): string;
}

/** `answers`: replies to the questions in turn (then interactive); none: not a TTY. */
export function recorder(answers?: string[]): Recorded {
	const out: string[] = [];
	const errors: string[] = [];
	const asked: string[] = [];
	return {
		out,
		errors,
		asked,
		interactive: answers !== undefined,
		say: (line) => out.push(line),
		warn: (line) => errors.push(line),
		async ask(question, fallback) {
			asked.push(question);
			return answers?.shift() ?? fallback;
		},
		text: () => [...out, ...errors].join('\n')
	};
}

/** `npx kitauth …args` in the app, with `env` as the environment. */
export async function kitauth(app: ScratchApp, args: string[], terminal = recorder(), env: Record<string, string> = {}) {
	const code = await main([...args, '--cwd', app.dir], terminal, env);
	return { code, terminal };
}
