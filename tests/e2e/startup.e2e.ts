import { expect, test } from '@playwright/test';
import { spawn } from 'node:child_process';
import { idpPort, PORTS } from './servers.js';

/** Starts the built demo with the given environment and collects what it prints until it exits. */
function runDemo(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
	return new Promise((resolve) => {
		const child = spawn(process.execPath, ['build'], {
			env: {
				PATH: process.env.PATH ?? '',
				HOST: '127.0.0.1',
				PORT: String(PORTS.startup),
				DEMO_IDP_PORT: String(idpPort(PORTS.startup)),
				...env
			},
			stdio: ['ignore', 'pipe', 'pipe']
		});
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		// A server that started would keep running: stop it once it says so.
		child.stdout.on('data', () => {
			if (output.includes('Listening on')) child.kill();
		});
		child.on('exit', (code) => resolve({ code, output }));
	});
}

test('in production the demo refuses to start without AUTH_SECRET, saying how to make one', async () => {
	const { code, output } = await runDemo({ DATABASE_URL: 'file::memory:' });
	expect(code).not.toBe(0);
	expect(output).toContain('MissingSecret');
	expect(output).toContain('openssl rand -base64 33');
	expect(output).not.toContain('Listening on');
});

test('the demo starts with only rotated secrets (AUTH_SECRET_1) set, as kitauth accepts them', async () => {
	const { output } = await runDemo({
		DATABASE_URL: 'file::memory:',
		AUTH_SECRET_1: 'e2e-rotated-secret-0123456789abcdef0123456789'
	});
	expect(output).not.toContain('MissingSecret');
	expect(output).toContain('Listening on');
});
