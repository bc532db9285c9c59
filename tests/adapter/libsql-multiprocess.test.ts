/**
 * No lost writes: several OS processes sign users in through the adapter against one file, then a
 * separate, fresh connection counts the rows. Every write a process saw succeed must be there, and
 * every failure must have been reported as an error. Without the safeguards of `guard.ts`, libsql
 * reports writes as successful that never reach the file (toolchain.md §3.4). Measured here with
 * Auth.js's drizzle adapter on plain clients, same 4 × 250 sign-ins: 724 and 984 errors, and 2 and 4
 * users reported created that were not in the file; with this adapter's writes made autocommit and
 * no reconnect, the `foreign` case below found 3 of 1000 users.
 */
import { createClient } from '@libsql/client';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { migrate } from '../../src/lib/adapters/libsql/index.js';
import { countRows, tempDatabase, type TempDatabase } from './support.js';

const hook = fileURLToPath(new URL('../support/ts-import-hook.ts', import.meta.url));
const worker = fileURLToPath(new URL('../support/libsql-signin-worker.ts', import.meta.url));
const PROCESSES = 4;
const SIGN_INS = 250;

interface Report {
	ok: { user: number; session: number; account: number };
	errors: { operation: string; name: string; code: string; message: string }[];
}

function runWorker(job: object): Promise<Report> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, ['--import', hook, worker, JSON.stringify(job)], {
			stdio: ['ignore', 'pipe', 'pipe']
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		child.on('error', reject);
		child.on('close', (code) => {
			if (code !== 0) reject(new Error(`worker exited with ${code}: ${stderr}`));
			else resolve(JSON.parse(stdout) as Report);
		});
	});
}

const databases: TempDatabase[] = [];
afterAll(() => databases.forEach((database) => database.remove()));

describe('several processes writing one file', () => {
	const cases = [
		{ mode: 'owned', busyTimeout: 5000 },
		{ mode: 'foreign', busyTimeout: 5000 },
		// Busy errors every few writes: retried, reconnected, or reported, but never lost.
		{ mode: 'foreign', busyTimeout: 2 }
	] as const;
	for (const { mode, busyTimeout } of cases) {
		const name = `every write reported as successful is in the file (${mode} client, busyTimeout ${busyTimeout})`;
		test(name, { timeout: 180_000 }, async () => {
			const database = tempDatabase('kitauth-multiproc-');
			databases.push(database);
			const setup = createClient({ url: database.url });
			await migrate(setup);
			setup.close();

			const reports = await Promise.all(
				Array.from({ length: PROCESSES }, (_, index) =>
					runWorker({ url: database.url, mode, busyTimeout, signIns: SIGN_INS, lanes: 4, worker: index })
				)
			);

			const claimed = { user: 0, session: 0, account: 0 };
			for (const report of reports) {
				for (const key of ['user', 'session', 'account'] as const) claimed[key] += report.ok[key];
			}
			const errors = reports.flatMap((report) => report.errors);
			expect(await countRows(database.url), `${errors.length} errors reported`).toEqual(claimed);
			// A failure is only ever a clear, typed error: the database was busy for too long.
			for (const error of errors) {
				expect(error).toMatchObject({ name: 'LibSQLAdapterError', code: 'SQLITE_BUSY' });
			}
			expect(claimed.user + errors.filter((e) => e.operation === 'user').length).toBe(PROCESSES * SIGN_INS);
			expect(claimed.user).toBeGreaterThan(0);
		});
	}
});
