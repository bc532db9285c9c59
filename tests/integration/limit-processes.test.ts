/**
 * One budget across OS processes: two app processes (tests/support/limit-worker.ts) with their own
 * limiters share one store (the libSQL adapter on one file, one Redis, one PostgreSQL), attempt at
 * the same moment, and between them are allowed exactly one budget, counted here in the parent
 * from what they report and from the store itself. With per-process counters each would get the
 * whole budget.
 */
import { createClient as createLibSQLClient } from '@libsql/client';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createClient as createRedisClient } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/lib/adapters/libsql/index.js';
import { PostgresStore } from '../../src/lib/limit/postgres.js';
import { tempDatabase, type TempDatabase } from '../adapter/support.js';
import { startPostgres, type PostgresCluster } from '../support/postgres.js';
import { startRedis, type RedisServer } from '../support/redis.js';

const hook = fileURLToPath(new URL('../support/ts-svelte-import-hook.ts', import.meta.url));
const worker = fileURLToPath(new URL('../support/limit-worker.ts', import.meta.url));
const SECRET = 'processes-limit-secret-0123456789abcdef';
const ATTEMPTS = 40;

interface Report {
	results: { allowed: number; refused: number }[];
	errors: string[];
}

/** The phases every worker runs: an address budget, an account budget, an account's delay gate. */
const ADDRESS = '192.0.2.200';
const rules = {
	'oauth-start': { address: { limit: 10 } },
	credentials: { address: false as const, account: { freeAttempts: 1000, delay: 0, limit: 15 } },
	'email-code': { address: false as const, account: { freeAttempts: 3, delay: 600, maxDelay: 600 } }
};
const phases = [
	{ kind: 'oauth-start', attempts: ATTEMPTS, address: ADDRESS },
	{ kind: 'credentials', attempts: ATTEMPTS, identifier: 'Shared@Example.com' },
	{ kind: 'email-code', attempts: ATTEMPTS, identifier: 'gated@example.com' }
];
/** Allowed across all processes: the address limit, the account limit, the free attempts (the third opens the gate). */
const EXPECTED = [10, 15, 3];

const children: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
	for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
});

function startWorker(job: object): { ready: Promise<void>; go: () => void; done: Promise<Report> } {
	const child = spawn(process.execPath, ['--no-warnings', '--experimental-transform-types', '--import', hook, worker, JSON.stringify(job)], {
		stdio: ['pipe', 'pipe', 'pipe']
	});
	children.push(child);
	let stdout = '';
	let stderr = '';
	let markReady: () => void = () => {};
	const ready = new Promise<void>((resolve) => (markReady = resolve));
	child.stdout.on('data', (chunk: Buffer) => {
		stdout += chunk.toString();
		if (stdout.startsWith('ready\n')) markReady();
	});
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const done = new Promise<Report>((resolve, reject) => {
		child.on('error', reject);
		child.on('close', (code) => {
			if (code !== 0) reject(new Error(`worker exited with ${code}: ${stderr}`));
			else resolve(JSON.parse(stdout.slice('ready\n'.length)) as Report);
		});
	});
	return { ready: Promise.race([ready, done.then(() => {})]), go: () => child.stdin.end('go\n'), done };
}

/** Two workers on one store, released together; their reports. */
async function runTwo(store: string, url: string): Promise<Report[]> {
	const workers = [0, 1].map((index) => startWorker({ store, url, secret: SECRET, rules, phases, lanes: 4, worker: index }));
	await Promise.all(workers.map((w) => w.ready));
	workers.forEach((w) => w.go());
	return Promise.all(workers.map((w) => w.done));
}

function expectOneBudget(reports: Report[]): void {
	expect(reports.flatMap((report) => report.errors)).toEqual([]);
	EXPECTED.forEach((budget, phase) => {
		const allowed = reports.reduce((sum, report) => sum + report.results[phase]!.allowed, 0);
		const refused = reports.reduce((sum, report) => sum + report.results[phase]!.refused, 0);
		expect({ phase: phases[phase]!.kind, allowed, refused }).toEqual({ phase: phases[phase]!.kind, allowed: budget, refused: 2 * ATTEMPTS - budget });
	});
}

describe('two processes, one budget', () => {
	it('the libSQL adapter on one database file', { timeout: 120_000 }, async () => {
		const database: TempDatabase = tempDatabase('kitauth-limit-procs-');
		try {
			const client = createLibSQLClient({ url: database.url });
			await migrate(client);
			const reports = await runTwo('libsql', database.url);
			expectOneBudget(reports);
			const row = await client.execute({ sql: 'SELECT count FROM rateLimit WHERE key = ?', args: [`oauth-start:a:${ADDRESS}`] });
			expect(Number(row.rows[0]?.['count'])).toBe(2 * ATTEMPTS);
			client.close();
		} finally {
			database.remove();
		}
	});

	it('one Redis', { timeout: 120_000 }, async () => {
		const server: RedisServer = await startRedis();
		try {
			const reports = await runTwo('redis', server.url);
			expectOneBudget(reports);
			const client = createRedisClient({ url: server.url });
			await client.connect();
			expect(await client.hGet(`kitauth:rl:oauth-start:a:${ADDRESS}`, 'n')).toBe(String(2 * ATTEMPTS));
			client.destroy();
		} finally {
			await server.close();
		}
	});

	it('one PostgreSQL', { timeout: 180_000 }, async () => {
		const cluster: PostgresCluster = await startPostgres();
		const pool = new pg.Pool({ connectionString: cluster.connectionString, max: 2 });
		try {
			await PostgresStore(pool).createTable();
			const reports = await runTwo('postgres', cluster.connectionString);
			expectOneBudget(reports);
			const row = await pool.query('SELECT count FROM kitauth_rate_limit WHERE key = $1', [`oauth-start:a:${ADDRESS}`]);
			expect(Number(row.rows[0]?.count)).toBe(2 * ATTEMPTS);
		} finally {
			await pool.end();
			cluster.stop();
		}
	});
});
