/**
 * A database locked by another process must not freeze the server (issue "Hardening"). Another OS
 * process holds a real lock on the file: SQLite's write lock (`BEGIN IMMEDIATE`), an exclusive
 * lock on a rollback-journal database (readers wait too), or the WAL index's read-mark locks in
 * the `-shm` file (there SQLite itself spins for ~10 s inside any call: the adapter's watch sends
 * calls off the main thread once it notices, see `lock-watch.ts`). While it does:
 * - the event loop keeps serving: an HTTP server in this process answers a static request, and
 *   `setImmediate` pings keep running, while an adapter call waits for the lock;
 * - the waiting call rejects, while the lock is still held, with a retryable `LibSQLAdapterError`
 *   (`SQLITE_BUSY`, `retryable`, `retryAfter` in seconds) for the core to answer 503;
 * - a write that rejected is not in the file once the lock is gone (counted from a separate
 *   connection), nothing retries after the rejection, and every write reported as done is there.
 */
import { createClient, type Client } from '@libsql/client';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { LibSQLAdapter, migrate, type LibSQLAdapterInstance } from '../../src/lib/adapters/libsql/index.js';
import { localFile } from '../../src/lib/adapters/libsql/engine/local.js';
import { openOffThread } from '../../src/lib/adapters/libsql/engine/off-thread.js';
import { readMarksHeldElsewhere } from '../../src/lib/adapters/libsql/engine/wal-locks.js';
import type { AdapterUser } from '../../src/lib/core/types/models.js';
import { holdReadMarks as takeReadMarks, holdWriteLock as takeWriteLock, type Release } from '../support/lock-holders.js';
import { newUser } from './conformance/fixtures.js';
import { tempDatabase, type TempDatabase } from './support.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function migratedFile(options: { wal: boolean }): Promise<TempDatabase> {
	const database = tempDatabase('kitauth-locks-');
	cleanups.push(() => database.remove());
	const client = createClient({ url: database.url });
	if (options.wal) await migrate(client);
	else {
		// migrate() would switch the file to WAL; these tests want the rollback journal.
		const { migrations } = await import('../../src/lib/adapters/sqlite/migrations.generated.js');
		for (const migration of migrations) {
			await client.executeMultiple(migration.sql.replaceAll('--> statement-breakpoint', ''));
		}
	}
	client.close();
	return database;
}

/** Holds a lock in another process until the test ends (or the returned function is called). */
async function held(taking: Promise<Release>): Promise<Release> {
	const release = await taking;
	cleanups.push(release);
	return release;
}

const holdWriteLock = (path: string, mode: 'immediate' | 'exclusive') => held(takeWriteLock(path, mode));
const holdReadMarks = (path: string, holdMs?: number) => held(takeReadMarks(path, { holdMs }));

/** A static file server in this process: it can only answer while the event loop runs. */
async function staticServer(): Promise<string> {
	const server: Server = createServer((_, res) => res.end('static'));
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	cleanups.push(() => new Promise((resolve) => server.close(resolve)));
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}/static.txt`;
}

/**
 * Event-loop turns that show the main thread was free while a call waited: a blocked thread gets
 * none (at most one) in that time, a free one hundreds on an idle machine but a few dozen on a
 * loaded one, so the bar is well above blocked and well below loaded.
 */
const MIN_TURNS = 10;

/**
 * While `pending` waits: fetches the static file, and counts `setImmediate` turns of the event
 * loop. Returns whether the file was answered before `pending` settled, and the turns counted
 * until it did.
 */
async function whileWaiting(pending: Promise<unknown>, url: string): Promise<{ answeredFirst: boolean; turns: number }> {
	let settled = false;
	const done = pending.then(
		() => (settled = true),
		() => (settled = true)
	);
	let turns = 0;
	const turn = () => {
		if (settled) return;
		turns++;
		setImmediate(turn);
	};
	setImmediate(turn);
	const body = await (await fetch(url)).text();
	const answeredFirst = !settled;
	expect(body).toBe('static');
	await done;
	return { answeredFirst, turns };
}

/** Waits (bounded) until `condition` holds. */
async function until(condition: () => boolean, what: string, ms = 15_000): Promise<void> {
	const deadline = Date.now() + ms;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}

async function sessionTokens(url: string): Promise<string[]> {
	const client = createClient({ url });
	try {
		const { rows } = await client.execute('SELECT sessionToken FROM "session" ORDER BY sessionToken');
		return rows.map((row) => String(row['sessionToken']));
	} finally {
		client.close();
	}
}

const RETRYABLE_BUSY = { name: 'LibSQLAdapterError', code: 'SQLITE_BUSY', retryable: true };

const session = (userId: string, sessionToken: string) => ({
	sessionToken,
	userId,
	expires: new Date(Date.now() + 86_400_000)
});

async function signedIn(adapter: LibSQLAdapterInstance): Promise<{ user: AdapterUser; token: string }> {
	const user = await adapter.createUser(newUser() as AdapterUser);
	const token = `a-${crypto.randomUUID()}`;
	await adapter.createSession(session(user.id, token));
	return { user, token };
}

describe('another process holds the write lock (BEGIN IMMEDIATE, WAL)', () => {
	for (const source of ['config', 'client'] as const) {
		test(`a write waits without blocking the event loop, rejects retryable while the lock is held, and never commits (adapter given a ${source})`, async () => {
			const database = await migratedFile({ wal: true });
			// The app's own client waits 5 s inside SQLite for a lock: the adapter must not.
			const appClient: Client = createClient({ url: database.url, timeout: 5000 });
			cleanups.push(() => appClient.close());
			const adapter =
				source === 'config'
					? LibSQLAdapter({ url: database.url, timeout: 5000 }, { busyTimeout: 1500 })
					: LibSQLAdapter(appClient, { busyTimeout: 1500 });
			const { user, token } = await signedIn(adapter);
			const url = await staticServer();

			const release = await holdWriteLock(database.path, 'immediate');
			const write = Promise.resolve(adapter.createSession(session(user.id, 'z-rejected')));
			const { answeredFirst, turns } = await whileWaiting(write, url);
			expect(answeredFirst).toBe(true);
			expect(turns).toBeGreaterThan(MIN_TURNS);
			await expect(write).rejects.toMatchObject({ ...RETRYABLE_BUSY, operation: 'createSession', retryAfter: 2 });
			await expect(adapter.updateUser({ id: user.id, name: 'during the lock' })).rejects.toMatchObject(RETRYABLE_BUSY);
			// WAL: readers are not blocked by the writer, on the hot path or off it.
			expect(await adapter.getSessionAndUser(token)).toMatchObject({ user: { id: user.id } });
			expect(await adapter.getUser(user.id)).toMatchObject({ id: user.id, name: user.name });
			await release();

			// Nothing retried after the rejection: the rejected write is not there, now or later.
			const later = [`b-${crypto.randomUUID()}`, `c-${crypto.randomUUID()}`];
			await Promise.all(later.map((sessionToken) => adapter.createSession(session(user.id, sessionToken))));
			// The app's own autocommit write on its client lands too (no connection left poisoned).
			await appClient.execute(`INSERT INTO "verificationToken" VALUES ('app@example.com', 'y', 0)`);
			expect(await sessionTokens(database.url)).toEqual([token, ...later].sort());
			expect((await adapter.getUser(user.id))?.name).toBe(user.name);
			const check = createClient({ url: database.url });
			cleanups.push(() => check.close());
			const tokens = await check.execute(`SELECT count(*) AS n FROM "verificationToken" WHERE identifier = 'app@example.com'`);
			expect(tokens.rows[0]?.['n']).toBe(1);
		});
	}

	test('every write reported as done is in the file across a lock episode (no silent loss)', async () => {
		const database = await migratedFile({ wal: true });
		const adapter = LibSQLAdapter({ url: database.url }, { busyTimeout: 200 });
		const { user } = await signedIn(adapter);
		const done: string[] = [];
		const rejected: string[] = [];
		const writeSome = async (prefix: string, count: number) => {
			await Promise.all(
				Array.from({ length: count }, async (_, i) => {
					const sessionToken = `${prefix}-${i}-${crypto.randomUUID()}`;
					try {
						await adapter.createSession(session(user.id, sessionToken));
						done.push(sessionToken);
					} catch (error) {
						expect(error).toMatchObject(RETRYABLE_BUSY);
						rejected.push(sessionToken);
					}
				})
			);
		};
		await writeSome('before', 10);
		const release = await holdWriteLock(database.path, 'immediate');
		await writeSome('during', 10);
		expect(rejected).toHaveLength(10);
		await release();
		await writeSome('after', 10);
		const stored = await sessionTokens(database.url);
		expect(stored).toHaveLength(21);
		for (const token of done) expect(stored).toContain(token);
		for (const token of rejected) expect(stored).not.toContain(token);
	});
});

describe('another process holds an exclusive lock on a rollback-journal database (readers wait too)', () => {
	test('per-request reads wait without blocking the event loop, reject retryable while the lock is held, then work', async () => {
		const database = await migratedFile({ wal: false });
		const adapter = LibSQLAdapter({ url: database.url }, { busyTimeout: 1000, wal: false, retryAfter: 7 });
		const { user, token } = await signedIn(adapter);
		await adapter.linkAccount({ userId: user.id, type: 'oauth', provider: 'github', providerAccountId: 'gh-1' });
		const url = await staticServer();

		const release = await holdWriteLock(database.path, 'exclusive');
		const read = Promise.resolve(adapter.getSessionAndUser(token));
		const { answeredFirst, turns } = await whileWaiting(read, url);
		expect(answeredFirst).toBe(true);
		expect(turns).toBeGreaterThan(MIN_TURNS);
		const busy = { ...RETRYABLE_BUSY, retryAfter: 7 };
		await expect(read).rejects.toMatchObject({ ...busy, operation: 'getSessionAndUser' });
		await expect(adapter.listSessionsByUserId(user.id)).rejects.toMatchObject(busy);
		await expect(adapter.listAccountsByUserId(user.id)).rejects.toMatchObject(busy);
		await expect(adapter.getUser(user.id)).rejects.toMatchObject(busy);
		await expect(adapter.createSession(session(user.id, 'z-rejected'))).rejects.toMatchObject(busy);
		await release();

		expect(await adapter.getSessionAndUser(token)).toMatchObject({ session: { sessionToken: token } });
		expect(await adapter.listAccountsByUserId(user.id)).toHaveLength(1);
		expect(await sessionTokens(database.url)).toEqual([token]);
	});
});

describe('another process holds the WAL index read-mark locks (-shm)', () => {
	// SQLite waits for these inside `walTryBeginRead`, up to ~10 s, whatever the busy timeout: a
	// call that meets them blocks the thread it runs on (see guard.ts). The adapter's watch probes
	// for them off the main thread; once it notices, every call runs there and gives up at its
	// deadline, and the event loop keeps serving.
	test('once the watch notices, the event loop keeps serving; reads and writes reject retryable while the lock is held; nothing commits late; afterwards calls work on the main thread again', { timeout: 60_000 }, async () => {
		const database = await migratedFile({ wal: true });
		const client = createClient({ url: database.url });
		cleanups.push(() => client.close());
		const adapter = LibSQLAdapter(client, { busyTimeout: 1000, retryAfter: 3 });
		const { user, token } = await signedIn(adapter);
		const local = localFile(client);
		const url = await staticServer();
		expect(local.degraded).toBe(false);

		const release = await holdReadMarks(database.path);
		await until(() => local.degraded, 'the watch notices the lock');
		const busy = { ...RETRYABLE_BUSY, retryAfter: 3 };
		const calls: [string, () => Promise<unknown>][] = [
			['getSessionAndUser', () => Promise.resolve(adapter.getSessionAndUser(token))],
			['createSession', () => Promise.resolve(adapter.createSession(session(user.id, 'z-rejected')))],
			['getUser', () => Promise.resolve(adapter.getUser(user.id))],
			['listSessionsByUserId', () => Promise.resolve(adapter.listSessionsByUserId(user.id))],
			['updateUser', () => Promise.resolve(adapter.updateUser({ id: user.id, name: 'during the lock' }))],
			['hitRateLimit', () => Promise.resolve(adapter.hitRateLimit('k', 60_000, Date.now()))]
		];
		for (const [operation, call] of calls) {
			const pending = call();
			const { answeredFirst, turns } = await whileWaiting(pending, url);
			expect(answeredFirst, operation).toBe(true);
			expect(turns, operation).toBeGreaterThan(100);
			await expect(pending, operation).rejects.toMatchObject({ ...busy, operation });
		}
		await release();

		await until(() => !local.degraded, 'the watch notices the lock is gone');
		// Whatever was given up has finished (rolled back) by now.
		await local.settled();
		expect(await adapter.getSessionAndUser(token)).toMatchObject({ user: { id: user.id, name: user.name } });
		const after = `b-${crypto.randomUUID()}`;
		await adapter.createSession(session(user.id, after));
		expect(local.degraded).toBe(false);
		expect(await sessionTokens(database.url)).toEqual([token, after].sort());
		expect((await adapter.getUser(user.id))?.name).toBe(user.name);
		expect(await adapter.hitRateLimit('k', 60_000, Date.now())).toMatchObject({ count: 1 });
	});

	test('the kernel lock table tells a held read mark from a slow call (Linux /proc/locks)', async () => {
		const database = await migratedFile({ wal: true });
		// A connection of this process creates the -shm file; its own locks never count.
		const client = createClient({ url: database.url });
		cleanups.push(() => client.close());
		await client.execute('SELECT count(*) FROM "user"');
		expect(readMarksHeldElsewhere(database.path)).toBe(false);
		expect(readMarksHeldElsewhere(`${database.path}.missing`)).toBeUndefined();
		// The write lock (byte 120) and the checkpoint and recovery locks (121, 122) are not read marks.
		const writeLock = await held(takeReadMarks(database.path, { first: 0, count: 3 }));
		expect(readMarksHeldElsewhere(database.path)).toBe(false);
		await writeLock();
		for (const [first, count] of [[3, 5], [7, 1], [2, 2]] as const) {
			const release = await held(takeReadMarks(database.path, { first, count }));
			expect(readMarksHeldElsewhere(database.path), `locks ${first}+${count}`).toBe(true);
			await release();
		}
		expect(readMarksHeldElsewhere(database.path)).toBe(false);
	});

	test('alwaysOffThread: a call made the moment the lock is taken (no watch at all) waits without blocking the event loop and rejects retryable; afterwards calls work', { timeout: 60_000 }, async () => {
		const database = await migratedFile({ wal: true });
		const client = createClient({ url: database.url });
		cleanups.push(() => client.close());
		const adapter = LibSQLAdapter(client, { busyTimeout: 500, retryAfter: 2, alwaysOffThread: true, lockProbeInterval: 0 });
		const { user, token } = await signedIn(adapter);
		const url = await staticServer();
		const release = await holdReadMarks(database.path);
		for (const [operation, call] of [
			['getSessionAndUser', () => Promise.resolve(adapter.getSessionAndUser(token))],
			['createSession', () => Promise.resolve(adapter.createSession(session(user.id, 'z-rejected')))]
		] as const) {
			const pending = call();
			const { answeredFirst, turns } = await whileWaiting(pending, url);
			expect(answeredFirst, operation).toBe(true);
			expect(turns, operation).toBeGreaterThan(100);
			await expect(pending, operation).rejects.toMatchObject({ ...RETRYABLE_BUSY, retryAfter: 2, operation });
		}
		await release();
		await localFile(client).settled();
		expect(await adapter.getSessionAndUser(token)).toMatchObject({ user: { id: user.id } });
		expect(await sessionTokens(database.url)).toEqual([token]);
	});

	test('calls leave the main thread once a probe has been out longer than a healthy one takes, before the watch is sure of the lock', { timeout: 60_000 }, async () => {
		const database = await migratedFile({ wal: true });
		const off = openOffThread(database.path, 20, (error) => error);
		if (!off) throw new Error('no second connection');
		cleanups.push(() => off.close());
		// Sampled every turn of an otherwise idle event loop: `active` (SUSPECT_MS after the probe
		// began) comes ~40 ms before `degraded` (STALL_MS, and the kernel's word). A process kept
		// off the CPU for those 40 ms would see both at once: up to three lock episodes.
		let seenFirst = false;
		for (let episode = 0; episode < 3 && !seenFirst; episode++) {
			const release = await holdReadMarks(database.path);
			const deadline = Date.now() + 5000;
			while (!off.degraded && Date.now() < deadline) {
				if (off.active) seenFirst = true;
				await new Promise((resolve) => setImmediate(resolve));
			}
			expect(off.degraded, 'the watch notices the lock').toBe(true);
			expect(off.active).toBe(true);
			await release();
			await until(() => !off.degraded && !off.active, 'the lock is gone');
		}
		expect(seenFirst).toBe(true);
	});

	test('a probe whose answer waits for a busy event loop does not send calls off the main thread where the kernel says no lock is held (Linux)', async () => {
		const database = await migratedFile({ wal: true });
		expect(readMarksHeldElsewhere(database.path), 'this test needs /proc/locks').toBe(false);
		const off = openOffThread(database.path, 2, (error) => error);
		if (!off) throw new Error('no second connection');
		cleanups.push(() => off.close());
		// A server under load: the main thread runs for 30 ms at a stretch, so a probe that came back
		// meanwhile is not taken in before `active` is asked.
		let asked = 0;
		let active = 0;
		for (let i = 0; i < 30; i++) {
			await new Promise((resolve) => setTimeout(resolve, 3));
			const until = performance.now() + 30;
			while (performance.now() < until) {
				// busy, as a request handler is
			}
			asked++;
			if (off.active) active++;
		}
		expect(asked).toBe(30);
		expect(active).toBe(0);
		expect(off.degraded).toBe(false);
	});

	test('off the main thread, a write held up inside SQLite past its deadline rejects busy at the deadline and rolls back when the lock goes (never commits late)', { timeout: 60_000 }, async () => {
		const database = await migratedFile({ wal: true });
		const adapter = LibSQLAdapter({ url: database.url });
		const { user, token } = await signedIn(adapter);
		const off = openOffThread(database.path, 0, (error) => error);
		if (!off) throw new Error('no second connection');
		cleanups.push(() => off.close());
		const url = await staticServer();
		const release = await holdReadMarks(database.path);
		const insert = { sql: 'INSERT INTO "session" ("sessionToken", "userId", "expires") VALUES (?, ?, ?)', args: ['z-late', user.id, Date.now() + 86_400_000] };
		// Nothing else runs there: BEGIN IMMEDIATE itself is held up inside SQLite.
		const write = off.transact([insert], Date.now() + 500, false);
		const { answeredFirst, turns } = await whileWaiting(write, url);
		expect(answeredFirst).toBe(true);
		expect(turns).toBeGreaterThan(MIN_TURNS);
		await expect(write).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
		expect(off.degraded).toBe(true);
		const read = off.rows({ sql: 'SELECT count(*) FROM "session"', args: [] }, Date.now() + 200);
		await expect(read).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
		await release();
		// BEGIN gets its lock now; the write, given up, rolls back instead of going on.
		await off.settled();
		expect(await sessionTokens(database.url)).toEqual([token]);
		// And the connection works: a write within its deadline commits.
		const done = await off.transact([{ ...insert, args: ['b-done', user.id, Date.now() + 86_400_000] }], Date.now() + 5000, false);
		expect(done[0]).toMatchObject({ reader: false, changes: 1 });
		expect(await sessionTokens(database.url)).toEqual(['b-done', token].sort());
		expect(off.degraded).toBe(false);
	});

	test('a write held up inside SQLite past its deadline is rolled back and rejects retryable', { timeout: 60_000 }, async () => {
		const database = await migratedFile({ wal: true });
		// No watch: the write meets the lock on the main thread.
		const adapter = LibSQLAdapter({ url: database.url }, { busyTimeout: 300, lockProbeInterval: 0 });
		const { user, token } = await signedIn(adapter);
		// Let go by itself after 2 s: until then this thread is inside SQLite.
		await holdReadMarks(database.path, 2000);
		await expect(adapter.createSession(session(user.id, 'z-late'))).rejects.toMatchObject({
			...RETRYABLE_BUSY,
			operation: 'createSession'
		});
		expect(await sessionTokens(database.url)).toEqual([token]);
		const after = `b-${crypto.randomUUID()}`;
		await adapter.createSession(session(user.id, after));
		expect(await sessionTokens(database.url)).toEqual([token, after]);
	});

	test('without the watch, the first call blocks until SQLite gives up (SQLITE_PROTOCOL) and rejects retryable; the calls after it wait off the main thread; after the lock they work', { timeout: 90_000 }, async () => {
		const database = await migratedFile({ wal: true });
		const client = createClient({ url: database.url });
		cleanups.push(() => client.close());
		const adapter = LibSQLAdapter(client, { busyTimeout: 300, lockProbeInterval: 0 });
		const { user, token } = await signedIn(adapter);
		const local = localFile(client);
		const url = await staticServer();
		const release = await holdReadMarks(database.path);
		await expect(adapter.getSessionAndUser(token)).rejects.toMatchObject({ ...RETRYABLE_BUSY, operation: 'getSessionAndUser' });
		expect(local.degraded).toBe(true);
		const write = Promise.resolve(adapter.createSession(session(user.id, 'z-rejected')));
		const { answeredFirst, turns } = await whileWaiting(write, url);
		expect(answeredFirst).toBe(true);
		expect(turns).toBeGreaterThan(MIN_TURNS);
		await expect(write).rejects.toMatchObject({ ...RETRYABLE_BUSY, operation: 'createSession' });
		await release();
		await until(() => !local.degraded, 'a probe finds the lock gone');
		await local.settled();
		expect(await adapter.getSessionAndUser(token)).toMatchObject({ user: { id: user.id } });
		expect(await sessionTokens(database.url)).toEqual([token]);
	});
});

/**
 * "A sign-in that failed from the client's side commits nothing": the core hands `createSession`
 * the request's signal (aborted when the client hangs up). A session created while the database
 * is locked must not be committed once the lock goes if its client left meanwhile — the server's
 * own deadline (`busyTimeout`) has not passed yet, so without the signal it would be.
 */
describe('the client of a write gives up while the database is locked', () => {
	const ABORTED = { name: 'LibSQLAdapterError', code: 'ABORTED', operation: 'createSession', retryable: false };

	test('write lock: the waiting createSession rejects ABORTED at once and commits nothing when the lock goes before its deadline; with a live signal it commits', { timeout: 60_000 }, async () => {
		const database = await migratedFile({ wal: true });
		const adapter = LibSQLAdapter({ url: database.url }, { busyTimeout: 10_000 });
		const { user, token } = await signedIn(adapter);

		const release = await holdWriteLock(database.path, 'immediate');
		const client = new AbortController();
		const write = Promise.resolve(adapter.createSession(session(user.id, 'z-abandoned'), { signal: client.signal }));
		const live = Promise.resolve(adapter.createSession(session(user.id, 'b-kept'), { signal: new AbortController().signal }));
		await new Promise((resolve) => setTimeout(resolve, 200));
		client.abort();
		// Rejected while the lock is still held: it gave up, it did not wait for the deadline.
		await expect(write).rejects.toMatchObject(ABORTED);
		await release();
		// The call whose client stayed commits once the lock goes (well before its deadline).
		await live;
		expect(await sessionTokens(database.url)).toEqual(['b-kept', token].sort());
	});

	test('read-mark lock (off the main thread): the queued createSession rejects ABORTED and rolls back when the lock goes', { timeout: 60_000 }, async () => {
		const database = await migratedFile({ wal: true });
		const client = createClient({ url: database.url });
		cleanups.push(() => client.close());
		const adapter = LibSQLAdapter(client, { busyTimeout: 10_000 });
		const { user, token } = await signedIn(adapter);
		const local = localFile(client);

		const release = await holdReadMarks(database.path);
		await until(() => local.degraded, 'the watch notices the lock');
		const gone = new AbortController();
		const write = Promise.resolve(adapter.createSession(session(user.id, 'z-abandoned'), { signal: gone.signal }));
		await new Promise((resolve) => setTimeout(resolve, 200));
		gone.abort();
		await expect(write).rejects.toMatchObject(ABORTED);
		await release();
		await until(() => !local.degraded, 'the watch notices the lock is gone');
		await local.settled();
		expect(await sessionTokens(database.url)).toEqual([token]);
		// A signal that never aborts changes nothing.
		await adapter.createSession(session(user.id, 'b-after'), { signal: new AbortController().signal });
		expect(await sessionTokens(database.url)).toEqual(['b-after', token].sort());
	});

	test('a signal already aborted: nothing is tried, nothing stored', async () => {
		const database = await migratedFile({ wal: true });
		const adapter = LibSQLAdapter({ url: database.url });
		const { user, token } = await signedIn(adapter);
		await expect(adapter.createSession(session(user.id, 'z-never'), { signal: AbortSignal.abort() })).rejects.toMatchObject(ABORTED);
		expect(await sessionTokens(database.url)).toEqual([token]);
	});
});
