/**
 * App servers as OS processes, for the scale-out tests: a worker script (one of
 * tests/support/*-worker.ts, served by `app-server.ts`) started with Node 24's type stripping,
 * its port read from its first line, its stderr kept; and each process as a handler of requests
 * sent to it over HTTP.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const hook = fileURLToPath(new URL('./ts-svelte-import-hook.ts', import.meta.url));

export interface AppProcess {
	name: string;
	origin: string;
	child: ChildProcessWithoutNullStreams;
	/** What the process printed on stderr so far: one JSON line per error the core logged. */
	stderr: () => string;
}

/** Starts `worker` with `args` (and `AUTH_URL` = `origin`, as behind a load balancer); resolves once it listens. */
export async function startAppProcess(name: string, worker: string, args: string[], origin: string): Promise<AppProcess> {
	const flags = ['--no-warnings', '--experimental-transform-types', '--import', hook];
	const child = spawn(process.execPath, [...flags, worker, ...args], {
		env: { ...process.env, AUTH_URL: origin },
		stdio: ['pipe', 'pipe', 'pipe']
	});
	let stderr = '';
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const port = await new Promise<number>((resolve, reject) => {
		let stdout = '';
		child.stdout.on('data', (chunk: Buffer) => {
			stdout += chunk.toString();
			const lines = stdout.split('\n', 2);
			if (lines.length === 2) resolve((JSON.parse(lines[0]!) as { port: number }).port);
		});
		child.once('error', reject);
		child.once('exit', (code, signal) => reject(new Error(`app ${name} exited (${code ?? signal}) before listening:\n${stderr}`)));
	});
	return { name, origin: `http://127.0.0.1:${port}`, child, stderr: () => stderr };
}

/** Ends a process we started (if it still runs) and waits until it is gone. */
export async function stopAppProcess(app: AppProcess): Promise<void> {
	const { child } = app;
	if (child.exitCode !== null || child.signalCode !== null) return;
	const exited = once(child, 'exit');
	child.kill('SIGTERM');
	await exited;
}

/** A process as a handler of the site's requests: each sent to it over HTTP as it is (path, query, headers, body). */
export function httpHandler(app: AppProcess): (request: Request) => Promise<Response> {
	return async (request) => {
		const url = new URL(request.url);
		const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
		return fetch(`${app.origin}${url.pathname}${url.search}`, { method: request.method, headers: request.headers, body, redirect: 'manual' });
	};
}
