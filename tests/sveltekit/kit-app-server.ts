import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Builds tests/kit-app with `vite build` and serves it with adapter-node (`node <out>`) on
 * 127.0.0.1, as a deployment would run it.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CONFIG = 'tests/kit-app/vite.config.ts';
const OUT = join(ROOT, 'tests/kit-app/.build');
export const SECRET = 'kit-app-secret-0123456789abcdef0123456789abcdef';

/** The environment of the child processes, without what vitest or the shell set for themselves. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [name, value] of Object.entries(process.env)) {
		if (/^(VITEST|NODE_ENV$|TEST$|AUTH_|NEXTAUTH_|ORIGIN$|PROTOCOL_HEADER$|HOST_HEADER$|PORT$|HOST$)/.test(name)) continue;
		env[name] = value;
	}
	return { ...env, ...extra };
}

function collect(child: ChildProcess): () => string {
	let output = '';
	child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
	return () => output;
}

/** `vite build` of the fixture (run from the repository root: adapter-node reads ./package.json). */
export async function buildFixture(): Promise<{ ms: number }> {
	const started = performance.now();
	// The Node running vitest (node@24 through npx), not whatever `node` is on PATH.
	const child = spawn(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', CONFIG], {
		cwd: ROOT,
		env: childEnv({}),
		stdio: ['ignore', 'pipe', 'pipe']
	});
	const output = collect(child);
	const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
	if (code !== 0) throw new Error(`vite build of the fixture failed (${code}):\n${output()}`);
	return { ms: Math.round(performance.now() - started) };
}

async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	await new Promise<void>((resolve) => server.close(() => resolve()));
	if (!address || typeof address === 'string') throw new Error('no port');
	return address.port;
}

export interface RunningApp {
	origin: string;
	/** The libSQL URL of the app's database (a temporary file). */
	databaseUrl: string;
	/** What the server printed so far. */
	output: () => string;
	stop: () => Promise<void>;
}

/** Starts the built fixture and waits until it answers; `env` adds to its environment. */
export async function startFixture(env: Record<string, string> = {}): Promise<RunningApp> {
	const port = await freePort();
	const origin = `http://127.0.0.1:${port}`;
	const dir = mkdtempSync(join(tmpdir(), 'kitauth-kit-app-'));
	const databaseUrl = `file:${join(dir, 'auth.db')}`;
	const child = spawn(process.execPath, [OUT], {
		cwd: ROOT,
		env: childEnv({
			HOST: '127.0.0.1',
			PORT: String(port),
			PROTOCOL_HEADER: 'x-forwarded-proto',
			AUTH_SECRET: SECRET,
			AUTH_TRUST_HOST: 'true',
			KIT_APP_DATABASE_URL: databaseUrl,
			...env
		}),
		stdio: ['ignore', 'pipe', 'pipe']
	});
	const output = collect(child);
	let exited = false;
	const exit = new Promise<void>((resolve) =>
		child.once('exit', () => {
			exited = true;
			resolve();
		})
	);
	const stop = async () => {
		if (!exited) {
			child.kill('SIGTERM');
			await exit;
		}
		rmSync(dir, { recursive: true, force: true });
	};
	for (let attempt = 0; attempt < 200; attempt++) {
		if (exited) break;
		const ok = await fetch(`${origin}/base/form`, { headers: { 'x-forwarded-proto': 'http' } }).then(
			(res) => res.ok,
			() => false
		);
		if (ok) return { origin, databaseUrl, output, stop };
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	await stop();
	throw new Error(`the fixture did not start:\n${output()}`);
}
