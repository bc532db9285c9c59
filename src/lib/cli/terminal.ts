/**
 * What the CLI says and asks, kept behind one interface so that the commands are tested with a
 * scripted terminal. Prompts only where a person is there to answer (stdin and stdout are TTYs);
 * elsewhere every question takes its default.
 */
import { createInterface } from 'node:readline/promises';

export interface Terminal {
	/** A line of the command's result (stdout). */
	say(line: string): void;
	/** A line about a problem (stderr). */
	warn(line: string): void;
	/** Whether questions reach a person. */
	readonly interactive: boolean;
	/** A question with a free answer; `fallback` when nobody answers or the answer is empty. */
	ask(question: string, fallback: string): Promise<string>;
}

/** A yes/no question; the default answers where the terminal is not interactive. */
export async function confirm(terminal: Terminal, question: string, byDefault: boolean): Promise<boolean> {
	if (!terminal.interactive) return byDefault;
	const answer = (await terminal.ask(`${question} ${byDefault ? '[Y/n]' : '[y/N]'}`, byDefault ? 'y' : 'n')).trim().toLowerCase();
	return answer === 'y' || answer === 'yes';
}

/** The process's own terminal. */
export function processTerminal(): Terminal {
	const interactive = !!process.stdin.isTTY && !!process.stdout.isTTY;
	return {
		say: (line) => process.stdout.write(`${line}\n`),
		warn: (line) => process.stderr.write(`${line}\n`),
		interactive,
		async ask(question, fallback) {
			if (!interactive) return fallback;
			const rl = createInterface({ input: process.stdin, output: process.stdout });
			try {
				const answer = (await rl.question(`${question} `)).trim();
				return answer === '' ? fallback : answer;
			} finally {
				rl.close();
			}
		}
	};
}
