/** Runs the real drizzle-kit CLI in a child process (give `--config drizzle.<dialect>.config.ts`). */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = fileURLToPath(new URL('../../node_modules/drizzle-kit/bin.cjs', import.meta.url));

export function runDrizzleKit(
	args: string[],
	env: Record<string, string>
): Promise<{ code: number | null; output: string }> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [bin, ...args], {
			cwd: root,
			env: { ...process.env, ...env },
			stdio: ['ignore', 'pipe', 'pipe']
		});
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.on('error', reject);
		child.on('close', (code) => resolve({ code, output }));
	});
}
