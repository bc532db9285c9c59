/**
 * How long the libSQL adapter takes to notice that another process holds the WAL index's
 * read-mark locks (`src/lib/adapters/libsql/engine/lock-watch.ts`): from the moment the lock holder says
 * it holds them to the moment the adapter's calls go off the main thread (`offMainThread`). A
 * main-thread call made inside that window blocks the event loop until the lock goes or SQLite
 * gives up (~10 s), so this is the window's length. Nothing calls the database meanwhile (a call
 * would block this very measurement). Prints each episode and the median and maximum, per probe
 * interval. Speed lives here, never in tests.
 *
 *     npx node --experimental-transform-types --import ./tests/support/ts-svelte-import-hook.ts \
 *       tests/bench/lock-window.ts [probe interval ms …, default 100] [--episodes N, default 30]
 */
import { createClient } from '@libsql/client';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { LibSQLAdapter, migrate } from '../../src/lib/adapters/libsql/index.js';
import { localFile } from '../../src/lib/adapters/libsql/engine/local.js';
import { holdReadMarks } from '../support/lock-holders.js';

const args = process.argv.slice(2);
const at = args.indexOf('--episodes');
const episodes = at === -1 ? 30 : Number(args.splice(at, 2)[1]);
const intervals = args.length ? args.map(Number) : [100];

const dir = mkdtempSync(join(tmpdir(), 'kitauth-lock-window-'));
console.log(`Node ${process.version}, ${episodes} episodes per interval`);
try {
	for (const interval of intervals) {
		const path = join(dir, `auth-${interval}.db`);
		const client = createClient({ url: `file:${path}` });
		await migrate(client);
		const adapter = LibSQLAdapter(client, { lockProbeInterval: interval });
		// Opens the adapter's connections (the first read goes through the client meanwhile).
		await adapter.getSessionAndUser('none');
		await adapter.getSessionAndUser('none');
		const local = localFile(client);
		const windows: number[] = [];
		for (let episode = 0; episode < episodes; episode++) {
			// At a random phase of the probe's interval.
			await sleep(200 + Math.random() * interval);
			const release = await holdReadMarks(path);
			const taken = performance.now();
			while (!local.offMainThread && performance.now() - taken < 5000) await new Promise((resolve) => setImmediate(resolve));
			windows.push(performance.now() - taken);
			await release();
			while (local.degraded) await sleep(5);
		}
		client.close();
		windows.sort((a, b) => a - b);
		const median = windows[Math.floor(windows.length / 2)]!;
		console.log(`probe every ${interval} ms: noticed after median ${median.toFixed(0)} ms, max ${windows.at(-1)!.toFixed(0)} ms (${windows.map((ms) => ms.toFixed(0)).join(' ')})`);
	}
} finally {
	rmSync(dir, { recursive: true, force: true });
}
