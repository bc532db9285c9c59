/**
 * A CLI command as data: its options (node:util parseArgs), its help, and what it does. The
 * dispatcher (main.ts) parses, prints help and turns mistakes into messages; a command returns its
 * exit code.
 */
import type { ParseArgsOptionsConfig } from 'node:util';
import type { Terminal } from './terminal.js';

export interface CommandContext {
	terminal: Terminal;
	/** The app's folder (`--cwd`, default the working directory). */
	cwd: string;
	/** The environment the app's server would see, besides its `.env` files. */
	env: Record<string, string | undefined>;
}

export type OptionValues = Record<string, string | boolean | undefined>;

export interface Command {
	name: string;
	/** One line, for `kitauth --help`. */
	summary: string;
	/** The full help: usage, then one line per option. */
	help: string;
	options: ParseArgsOptionsConfig;
	run(values: OptionValues, context: CommandContext): Promise<number>;
}

/** The options every command takes. */
export const COMMON_OPTIONS = {
	cwd: { type: 'string' },
	help: { type: 'boolean', short: 'h' }
} as const satisfies ParseArgsOptionsConfig;

export const COMMON_HELP = `  --cwd <folder>      the app's folder (default: the current one)
  -h, --help          this help`;
