/**
 * Faults: a database locked past the busy timeout and a read-only database file make adapter calls
 * reject with a clear error: never hang, never resolve as if the write had happened. And after a
 * busy error, the client the app handed us loses no later write (see `guard.ts`).
 */
import { createClient, type Client } from '@libsql/client';
import { chmodSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { LibSQLAdapter, migrate } from '../../src/lib/adapters/libsql/index.js';
import { localFile as cachedReader } from '../../src/lib/adapters/libsql/engine/local.js';
import type { AdapterUser } from '../../src/lib/core/types/models.js';
import { holdWriteLock, type Release } from '../support/lock-holders.js';
import { spawnNodeUnprivileged } from '../support/unprivileged.js';
import { newUser } from './conformance/fixtures.js';
import { countRows, recording, tempDatabase, type TempDatabase } from './support.js';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).reverse().forEach((cleanup) => cleanup()));

async function migratedFile(options: { wal: boolean }): Promise<TempDatabase> {
	const database = tempDatabase('kitauth-faults-');
	cleanups.push(() => database.remove());
	const client = createClient({ url: database.url });
	if (options.wal) await migrate(client);
	else {
		// migrate() would switch the file to WAL; this test wants the rollback journal.
		const { migrations } = await import('../../src/lib/adapters/sqlite/migrations.generated.js');
		for (const migration of migrations) {
			await client.executeMultiple(migration.sql.replaceAll('--> statement-breakpoint', ''));
		}
	}
	client.close();
	return database;
}

/** Another process holding `BEGIN EXCLUSIVE` on the file, until the returned function is called. */
async function lockExclusively(path: string): Promise<Release> {
	const release = await holdWriteLock(path, 'exclusive');
	cleanups.push(() => void release());
	return release;
}

const user = () => newUser() as AdapterUser;

describe('a database locked past the busy timeout', () => {
	for (const source of ['config', 'client'] as const) {
		test(`writes reject with SQLITE_BUSY, then work again (adapter given a ${source})`, async () => {
			const database = await migratedFile({ wal: true });
			// One connection: the one a busy error poisons is then surely the one used next.
			const client: Client = createClient({ url: database.url, concurrency: 1 });
			cleanups.push(() => client.close());
			const adapter =
				source === 'config'
					? LibSQLAdapter({ url: database.url, concurrency: 1 }, { busyTimeout: 300 })
					: LibSQLAdapter(client, { busyTimeout: 300 });
			const existing = await adapter.createUser(user());

			const release = await lockExclusively(database.path);
			await expect(adapter.createUser(user())).rejects.toMatchObject({
				name: 'LibSQLAdapterError',
				code: 'SQLITE_BUSY',
				operation: 'createUser',
				message: expect.stringMatching(/locked for 300 ms; nothing was changed/)
			});
			await expect(adapter.deleteSession('any')).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
			// WAL: readers are not blocked by the writer.
			expect(await adapter.getUser(existing.id)).toEqual(existing);
			await release();

			const after = await Promise.all([adapter.createUser(user()), adapter.createUser(user())]);
			// The app's own autocommit write on the client we were handed must land too: a
			// connection poisoned by SQLITE_BUSY would swallow it.
			await client.execute(`INSERT INTO "verificationToken" VALUES ('app@example.com', 'y', 0)`);
			const fresh = createClient({ url: database.url });
			cleanups.push(() => fresh.close());
			const rows = async (sql: string, args: string[]) => (await fresh.execute({ sql, args })).rows;
			for (const created of after) {
				expect(await rows('SELECT id FROM "user" WHERE id = ?', [created.id])).toHaveLength(1);
			}
			const appRow = 'SELECT * FROM "verificationToken" WHERE identifier = ?';
			expect(await rows(appRow, ['app@example.com'])).toHaveLength(1);
			expect((await countRows(database.url)).user).toBe(3);
		});
	}

	test('with a rollback journal, reads reject too', async () => {
		const database = await migratedFile({ wal: false });
		const client = createClient({ url: database.url, timeout: 300 });
		cleanups.push(() => client.close());
		const { client: watched, executed } = recording(client);
		const adapter = LibSQLAdapter(watched, { busyTimeout: 300, wal: false });
		const existing = await adapter.createUser(user());
		const release = await lockExclusively(database.path);
		// The adapter's own connection never waits for the lock: it says busy at once, and the
		// guard does the waiting with timers.
		await expect(
			cachedReader(client).read({ sql: 'SELECT id FROM "user" WHERE id = ?', args: [existing.id] })
		).rejects.toMatchObject({ code: expect.stringMatching(/^SQLITE_BUSY/) });
		await expect(adapter.getUser(existing.id)).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
		await expect(adapter.createUser(user())).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
		for (let i = 0; i < 4; i++) await expect(adapter.getUser(existing.id)).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
		await release();
		// Busy errors are not failures of the cached path: it serves reads again.
		const before = executed.length;
		expect(await adapter.getUser(existing.id)).toEqual(existing);
		expect(executed.length).toBe(before);
	});
});

describe('a read-only database file', () => {
	test('reads work, an up-to-date migrate() works, writes reject with SQLITE_READONLY', async () => {
		const database = await migratedFile({ wal: true });
		const setup = createClient({ url: database.url });
		const existing = await LibSQLAdapter(setup).createUser(user());
		setup.close();
		chmodSync(database.path, 0o444);
		chmodSync(database.dir, 0o555);
		cleanups.push(() => chmodSync(database.dir, 0o755));

		// Root ignores file modes: then run the adapter without root's capabilities.
		const worker = fileURLToPath(new URL('../support/libsql-readonly-worker.ts', import.meta.url));
		const hook = fileURLToPath(new URL('../support/ts-import-hook.ts', import.meta.url));
		const run = spawnNodeUnprivileged(['--import', hook, worker, database.url, existing.id], { timeout: 60_000 });
		expect(run.status, run.stderr).toBe(0);
		type Settled = { ok: boolean; value?: unknown; code?: string; name?: string; message?: string };
		const result = JSON.parse(run.stdout) as Record<string, Settled>;
		expect(result['read']).toMatchObject({ ok: true, value: { id: existing.id, email: existing.email } });
		expect(result['migrate']).toEqual({ ok: true, value: { applied: [], adopted: false } });
		expect(result['write']).toMatchObject({
			ok: false,
			name: 'LibSQLAdapterError',
			code: 'SQLITE_READONLY',
			message: expect.stringContaining('read-only')
		});
		expect((await countRows(database.url)).user).toBe(1);
	});
});
