/**
 * A Worker served by a real workerd: `wrangler dev` (wrangler and workerd from npm), started and
 * stopped by the test, on 127.0.0.1. Wrangler bundles the Worker (its own esbuild, the `workerd`
 * and `worker` export conditions) and runs it locally with its bindings, D1 included, kept in
 * SQLite under `persistTo`. Nothing reaches the network: the `Request.cf` download, metrics and
 * update checks are switched off.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WRANGLER = join(ROOT, 'node_modules/wrangler/bin/wrangler.js');

export interface RunningWorker {
	origin: string;
	/** What wrangler and the Worker printed so far. */
	output: () => string;
	stop: () => Promise<void>;
}

async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	await new Promise<void>((resolve) => server.close(() => resolve()));
	if (!address || typeof address === 'string') throw new Error('no port');
	return address.port;
}

/** What keeps wrangler (and the adapter's local bindings under `vite dev`) offline, logging under `home`. */
export function offlineWrangler(home: string): Record<string, string> {
	return {
		CLOUDFLARE_CF_FETCH_ENABLED: 'false',
		WRANGLER_SEND_METRICS: 'false',
		WRANGLER_LOG_PATH: join(home, 'logs'),
		// No "update available" lookup, no interactive hotkeys.
		CI: 'true',
		NO_UPDATE_NOTIFIER: '1'
	};
}

/** The environment wrangler runs in: the test's, less what vitest and Auth.js read, offline. */
function wranglerEnv(home: string): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [name, value] of Object.entries(process.env)) {
		if (/^(VITEST|NODE_ENV$|TEST$|AUTH_|CLOUDFLARE_|WRANGLER_|CF_)/.test(name)) continue;
		env[name] = value;
	}
	return { ...env, ...offlineWrangler(home) };
}

/**
 * A wrangler command other than `dev` (`d1 migrations apply DB --local`, `d1 execute …`), run to
 * its end in `cwd`, offline, logging under `home`; what it printed, or an error with it.
 */
export function runWrangler(args: string[], cwd: string, home: string): Promise<string> {
	const child = spawn(process.execPath, [WRANGLER, ...args], { cwd, env: wranglerEnv(home), stdio: ['ignore', 'pipe', 'pipe'] });
	let output = '';
	child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
	return new Promise((resolve, reject) => {
		child.once('error', reject);
		child.once('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`wrangler ${args.join(' ')} failed (${code}):\n${output}`))));
	});
}

/**
 * `wrangler dev --config <config>` with `vars` overriding the config's, persisting local state
 * (D1) in `persistTo`; resolves once the Worker answers `probe`.
 */
export async function startWorker(options: {
	config: string;
	persistTo: string;
	vars?: Record<string, string>;
	probe?: string;
}): Promise<RunningWorker> {
	const port = await freePort();
	const origin = `http://127.0.0.1:${port}`;
	const args = [
		WRANGLER,
		'dev',
		'--config',
		options.config,
		'--ip',
		'127.0.0.1',
		'--port',
		String(port),
		'--persist-to',
		options.persistTo,
		'--inspector-port',
		String(await freePort()),
		'--show-interactive-dev-session=false',
		...Object.entries(options.vars ?? {}).flatMap(([name, value]) => ['--var', `${name}:${value}`])
	];
	// Its own process group, so stopping it stops the workerd it started too.
	const child: ChildProcess = spawn(process.execPath, args, {
		cwd: ROOT,
		env: wranglerEnv(options.persistTo),
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true
	});
	let output = '';
	child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
	let exited = false;
	const exit = new Promise<void>((resolve) =>
		child.once('exit', () => {
			exited = true;
			resolve();
		})
	);
	const stop = async () => {
		if (exited || child.pid === undefined) return;
		try {
			process.kill(-child.pid, 'SIGTERM');
		} catch {
			// gone already
		}
		const killed = setTimeout(() => {
			try {
				process.kill(-child.pid!, 'SIGKILL');
			} catch {
				// gone already
			}
		}, 5_000);
		await exit;
		clearTimeout(killed);
	};
	const deadline = Date.now() + 60_000;
	while (Date.now() < deadline && !exited) {
		try {
			const res = await fetch(`${origin}${options.probe ?? '/'}`, { redirect: 'manual' });
			await res.arrayBuffer();
			if (res.status < 500) return { origin, output: () => output, stop };
		} catch {
			// not listening yet
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	await stop();
	throw new Error(`wrangler dev did not serve ${origin} within 60 s:\n${output}`);
}
