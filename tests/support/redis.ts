/**
 * A throwaway Redis server for tests, from the Debian package (`apt-get install redis-server`):
 * `/usr/bin/redis-server` on a free port of 127.0.0.1, no persistence, its working directory a
 * temporary one. `stop()` ends it (SIGTERM, then waits for the exit) and deletes the directory;
 * `start()` again on the same port brings an empty server back (for "store down, then up" tests).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const REDIS_SERVER = '/usr/bin/redis-server';

export interface RedisServer {
	host: '127.0.0.1';
	port: number;
	url: string;
	/** Whether the server process is running. */
	readonly running: boolean;
	/** Stops the server (the port stays reserved for `restart`). */
	stop(): Promise<void>;
	/** Starts it again on the same port, empty. */
	restart(): Promise<void>;
	/** Stops it for good and deletes its directory. */
	close(): Promise<void>;
}

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

/** Starts a fresh server. Throws (never skips) when redis-server is missing or does not start. */
export async function startRedis(): Promise<RedisServer> {
	if (!existsSync(REDIS_SERVER)) {
		throw new Error(
			`Redis is not installed: no ${REDIS_SERVER}. Install the Debian package \`redis-server\`: ` +
				'`apt-get install -y redis-server`.'
		);
	}
	const dir = mkdtempSync(join(tmpdir(), 'kitauth-redis-'));
	const port = await freePort();
	let child: ChildProcess | undefined;

	const launch = async () => {
		const args = [
			'--port', String(port), '--bind', '127.0.0.1', '--dir', dir,
			'--save', '', '--appendonly', 'no', '--daemonize', 'no', '--protected-mode', 'yes',
			'--loglevel', 'warning'
		];
		const server = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
		let output = '';
		server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
		server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child = server;
		await waitForPort(port, server, () => output);
	};

	const stop = async () => {
		const current = child;
		child = undefined;
		if (!current || current.exitCode !== null || current.signalCode !== null) return;
		const exited = once(current, 'exit');
		current.kill('SIGTERM');
		await exited;
	};

	await launch();
	return {
		host: '127.0.0.1',
		port,
		url: `redis://127.0.0.1:${port}`,
		get running() {
			return child !== undefined && child.exitCode === null && child.signalCode === null;
		},
		stop,
		async restart() {
			await stop();
			await launch();
		},
		async close() {
			await stop();
			rmSync(dir, { recursive: true, force: true });
		}
	};
}

/** Resolves once the server answers PING on `port`; rejects if it exits first or takes 20 s. */
async function waitForPort(port: number, child: ChildProcess, output: () => string): Promise<void> {
	const deadline = Date.now() + 20_000;
	let exited = false;
	child.once('exit', () => (exited = true));
	while (!exited && Date.now() < deadline) {
		if (await pings(port)) return;
		await new Promise((resolve) => setTimeout(resolve, 25));
	}
	throw new Error(`redis-server did not start on port ${port}${exited ? ' (it exited)' : ''}:\n${output()}`);
}

function pings(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = connect(port, '127.0.0.1');
		let reply = '';
		socket.setTimeout(500, () => socket.destroy());
		socket.on('connect', () => socket.write('PING\r\n'));
		socket.on('data', (chunk: Buffer) => {
			reply += chunk.toString();
			if (reply.includes('\r\n')) socket.end();
		});
		socket.on('error', () => resolve(false));
		socket.on('close', () => resolve(reply.startsWith('+PONG')));
	});
}
