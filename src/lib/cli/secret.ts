/**
 * `kitauth secret`: a fresh AUTH_SECRET in the app's `.env`. An existing one is replaced only when
 * the person says so (or with --yes): replacing it signs everyone out.
 */
import { randomBytes } from 'node:crypto';
import { type Command, COMMON_HELP, COMMON_OPTIONS } from './command.js';
import { envFileHas, setEnvFileVariable } from './env-file.js';
import { folder, type Files } from './project.js';
import { confirm, type Terminal } from './terminal.js';

/** 32 random bytes, base64url: 43 characters, past the 32 kitauth asks for. */
export function newSecret(): string {
	return randomBytes(32).toString('base64url');
}

export type SecretOutcome = 'written' | 'replaced' | 'kept';

/** Writes AUTH_SECRET to `.env` unless one is there and the person (or --yes) does not replace it. */
export async function writeSecret(project: Files, terminal: Terminal, yes: boolean): Promise<SecretOutcome> {
	if (envFileHas(project, 'AUTH_SECRET')) {
		const replace = yes || (await confirm(terminal, '.env already has an AUTH_SECRET. Replace it (this signs everyone out)?', false));
		if (!replace) {
			terminal.say('Kept the AUTH_SECRET in .env (--yes replaces it).');
			return 'kept';
		}
		setEnvFileVariable(project, 'AUTH_SECRET', newSecret());
		terminal.say('Replaced AUTH_SECRET in .env.');
		return 'replaced';
	}
	setEnvFileVariable(project, 'AUTH_SECRET', newSecret());
	terminal.say('Wrote a new AUTH_SECRET to .env.');
	return 'written';
}

export const secretCommand: Command = {
	name: 'secret',
	summary: 'write a fresh AUTH_SECRET to .env',
	help: `Usage: kitauth secret [--yes] [--raw]

Writes a fresh AUTH_SECRET (32 random bytes, base64url) to the app's .env, creating the file when
it is missing. An AUTH_SECRET already there is kept unless you agree to replace it.

  --yes               replace an existing AUTH_SECRET without asking
  --raw               print a fresh secret on stdout instead, and write nothing
${COMMON_HELP}`,
	options: { ...COMMON_OPTIONS, yes: { type: 'boolean', short: 'y' }, raw: { type: 'boolean' } },
	async run(values, { terminal, cwd }) {
		if (values.raw) {
			terminal.say(newSecret());
			return 0;
		}
		await writeSecret(folder(cwd), terminal, values.yes === true);
		return 0;
	}
};
