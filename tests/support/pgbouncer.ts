/**
 * PgBouncer in transaction mode (from the Debian package `pgbouncer`) in front of a test cluster:
 * a server connection is a client's only for one transaction (or one statement outside any), as
 * with the poolers of serverless platforms. So session state (a `SET`, a named prepared
 * statement, a session advisory lock) does not outlive its statement. It refuses to run as root,
 * so as root it runs as the `postgres` OS user (`runuser`), which owns its directory. `stop()`
 * ends it and deletes everything.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import type { PostgresCluster } from './postgres.js';

const BINARY = '/usr/sbin/pgbouncer';

export interface Pooler {
	connectionString: string;
	stop(): Promise<void>;
}

async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	await new Promise<void>((resolve) => server.close(() => resolve()));
	if (!address || typeof address === 'string') throw new Error('no port');
	return address.port;
}

function listening(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = createConnection({ port, host: '127.0.0.1' }, () => {
			socket.end();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}

export async function startPgBouncer(cluster: PostgresCluster): Promise<Pooler> {
	if (!existsSync(BINARY)) {
		throw new Error('PgBouncer is not installed: no /usr/sbin/pgbouncer. Install the Debian package: `apt-get install -y pgbouncer`.');
	}
	const dir = mkdtempSync(join(tmpdir(), 'kitauth-pgbouncer-'));
	const port = await freePort();
	const ini = join(dir, 'pgbouncer.ini');
	writeFileSync(join(dir, 'users.txt'), '"postgres" ""\n');
	writeFileSync(
		ini,
		[
			'[databases]',
			`* = host=127.0.0.1 port=${cluster.port}`,
			'[pgbouncer]',
			'listen_addr = 127.0.0.1',
			`listen_port = ${port}`,
			'unix_socket_dir =',
			'auth_type = trust',
			`auth_file = ${join(dir, 'users.txt')}`,
			'pool_mode = transaction',
			'default_pool_size = 4',
			'max_client_conn = 500',
			'ignore_startup_parameters = extra_float_digits',
			`logfile = ${join(dir, 'pgbouncer.log')}`,
			''
		].join('\n')
	);
	const asRoot = process.getuid?.() === 0;
	if (asRoot) {
		const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
		const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
		for (const path of [dir, ini, join(dir, 'users.txt')]) chownSync(path, uid, gid);
	}
	const child = asRoot ? spawn('runuser', ['-u', 'postgres', '--', BINARY, ini], { stdio: 'ignore' }) : spawn(BINARY, [ini], { stdio: 'ignore' });
	const deadline = Date.now() + 15_000;
	while (!(await listening(port))) {
		if (child.exitCode !== null || Date.now() > deadline) {
			const log = existsSync(join(dir, 'pgbouncer.log')) ? readFileSync(join(dir, 'pgbouncer.log'), 'utf8') : '';
			child.kill();
			rmSync(dir, { recursive: true, force: true });
			throw new Error(`PgBouncer did not start (${child.exitCode ?? 'still running'}):\n${log}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	return {
		connectionString: `postgresql://postgres@127.0.0.1:${port}/postgres`,
		async stop() {
			if (child.exitCode === null && child.signalCode === null) {
				const exited = once(child, 'exit');
				child.kill('SIGTERM');
				await exited;
			}
			rmSync(dir, { recursive: true, force: true });
		}
	};
}
