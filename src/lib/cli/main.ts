/**
 * The `kitauth` command: picks the command, parses its options (node:util parseArgs), prints help,
 * and turns a user's mistake into a message and exit code 2 (no stack trace). Anything else is a
 * bug of ours and keeps its stack.
 */
import { parseArgs } from 'node:util';
import type { Command, CommandContext, OptionValues } from './command.js';
import { doctorCommand } from './doctor.js';
import { UsageError } from './errors.js';
import { initCommand } from './init.js';
import { migrateCommand } from './migrate.js';
import { secretCommand } from './secret.js';
import type { Terminal } from './terminal.js';

export const COMMANDS: readonly Command[] = [initCommand, secretCommand, migrateCommand, doctorCommand];

export const HELP = `Usage: npx kitauth <command> [options]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(9)}${c.summary}`).join('\n')}

npx kitauth <command> --help tells more about each.`;

/** Runs the command line `args` (without node and the script); the exit code. */
export async function main(args: string[], terminal: Terminal, env: Record<string, string | undefined> = process.env): Promise<number> {
	const [name, ...rest] = args;
	if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
		terminal.say(HELP);
		return name === undefined ? 2 : 0;
	}
	const command = COMMANDS.find((c) => c.name === name);
	if (!command) {
		terminal.warn(`Unknown command "${name}".\n\n${HELP}`);
		return 2;
	}
	try {
		let values: OptionValues;
		try {
			values = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: false }).values as OptionValues;
		} catch (error) {
			// parseArgs's own errors (ERR_PARSE_ARGS_*) are the user's.
			throw new UsageError(`${(error as Error).message}\n\n${command.help}`);
		}
		if (values['help']) {
			terminal.say(command.help);
			return 0;
		}
		const context: CommandContext = { terminal, cwd: typeof values['cwd'] === 'string' ? values['cwd'] : process.cwd(), env };
		return await command.run(values, context);
	} catch (error) {
		if (error instanceof UsageError) {
			terminal.warn(`kitauth ${name}: ${error.message}`);
			return 2;
		}
		throw error;
	}
}
