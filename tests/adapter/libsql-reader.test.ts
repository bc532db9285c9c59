/**
 * Reads of a local file through cached statements (`reader.ts`): they see every committed write,
 * whoever made it, they really bypass the client's per-call prepare, and anything unusual falls
 * back to the client.
 */
import { createClient, type Client, type InValue } from '@libsql/client';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/libsql';
import { blob, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { readdirSync, readlinkSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LibSQLAdapter, LibSQLAdapterError, migrate } from '../../src/lib/adapters/libsql/index.js';
import { type GuardedClient, isReplicaConfig, writeGuardedClient } from '../../src/lib/adapters/libsql/engine/client.js';
import { hotRead } from '../../src/lib/adapters/libsql/engine/hot-reads.js';
import { localFile as cachedReader } from '../../src/lib/adapters/libsql/engine/local.js';
import { recording, tempDatabase, type TempDatabase } from './support.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
	while (cleanups.length) cleanups.pop()!();
});

async function fileDatabase(): Promise<{ database: TempDatabase; client: Client }> {
	const database = tempDatabase('kitauth-reader-');
	const client = createClient({ url: database.url });
	await migrate(client);
	cleanups.push(() => {
		client.close();
		database.remove();
	});
	return { database, client };
}

describe('cached reads on a local file', () => {
	it('serves repeated reads without a client round trip per read', async () => {
		const { client } = await fileDatabase();
		const { client: watched, executed } = recording(client);
		const adapter = LibSQLAdapter(watched);
		const user = await adapter.createUser({ id: '', email: 'reader@example.com', emailVerified: null, name: 'R' });
		const before = executed.length;
		for (let i = 0; i < 20; i++) expect((await adapter.getUser(user.id))?.email).toBe('reader@example.com');
		// At most the one-time "which file is this?" question reaches the client.
		expect(executed.slice(before).filter((sql) => /^\s*select/i.test(sql))).toEqual([]);
		expect(executed.length - before).toBeLessThanOrEqual(1);
	});

	it('sees writes made through another connection at once (no stale snapshot)', async () => {
		const { database, client } = await fileDatabase();
		const adapter = LibSQLAdapter(client);
		const user = await adapter.createUser({ id: '', email: 'before@example.com', emailVerified: null });
		expect((await adapter.getUser(user.id))?.email).toBe('before@example.com');
		const other = createClient({ url: database.url });
		cleanups.push(() => other.close());
		for (const email of ['one@example.com', 'two@example.com', 'three@example.com']) {
			await other.execute({ sql: 'UPDATE "user" SET email = ? WHERE id = ?', args: [email, user.id] });
			expect((await adapter.getUser(user.id))?.email).toBe(email);
		}
		await other.execute({ sql: 'DELETE FROM "user" WHERE id = ?', args: [user.id] });
		expect(await adapter.getUser(user.id)).toBeNull();
	});

	it('sees a session revoked by another process-like client (sign-out elsewhere)', async () => {
		const { database, client } = await fileDatabase();
		const adapter = LibSQLAdapter(client);
		const user = await adapter.createUser({ id: '', email: 'revoke@example.com', emailVerified: null });
		await adapter.createSession({ sessionToken: 'tok-1', userId: user.id, expires: new Date(Date.now() + 60_000) });
		expect((await adapter.getSessionAndUser('tok-1'))?.user.id).toBe(user.id);
		const other = LibSQLAdapter({ url: database.url });
		await other.deleteSession('tok-1');
		expect(await adapter.getSessionAndUser('tok-1')).toBeNull();
	});

	it('reads the same values as the client: numbers, nulls, text, dates', async () => {
		const { client } = await fileDatabase();
		const adapter = LibSQLAdapter(client);
		const user = await adapter.createUser({ id: '', email: 'v@example.com', emailVerified: new Date(1_700_000_000_123), name: null });
		const viaReader = await adapter.getUser(user.id);
		const row = (await client.execute({ sql: 'SELECT * FROM "user" WHERE id = ?', args: [user.id] })).rows[0]!;
		expect(viaReader).toEqual({ ...user, emailVerified: new Date(Number(row['emailVerified'])) });
		expect(viaReader?.emailVerified?.getTime()).toBe(1_700_000_000_123);
		expect(viaReader?.name ?? null).toBeNull();
	});

	it('falls back to the client on an error, and the client reports it', async () => {
		const { client } = await fileDatabase();
		const guarded = writeGuardedClient(client, 1000, true);
		await expect(guarded.execute('SELECT * FROM no_such_table')).rejects.toThrow(/no such table/);
		// One failure does not switch the cached path off: the next read is served again.
		const { client: watched, executed } = recording(client);
		const reader = cachedReader(watched);
		await reader.read('SELECT count(*) AS n FROM "user"');
		const before = executed.length;
		expect(await reader.read('SELECT * FROM no_such_table')).toBeUndefined();
		expect((await reader.read('SELECT count(*) AS n FROM "user"'))?.rows[0]?.['n']).toBe(0);
		// Three failures in a row (an encrypted file, say): the client answers for good.
		for (let i = 0; i < 3; i++) expect(await reader.read('SELECT * FROM no_such_table')).toBeUndefined();
		expect(await reader.read('SELECT count(*) AS n FROM "user"')).toBeUndefined();
		expect(executed.length).toBe(before);
	});

	it('one connection per client, however many adapters use it', async () => {
		const { database, client } = await fileDatabase();
		const openHandles = () =>
			readdirSync('/proc/self/fd').filter((fd) => {
				try {
					return readlinkSync(`/proc/self/fd/${fd}`) === database.path;
				} catch {
					return false;
				}
			}).length;
		const first = LibSQLAdapter(client);
		await first.getUser('nobody');
		const baseline = openHandles();
		for (let i = 0; i < 50; i++) await LibSQLAdapter(client).getUser('nobody');
		expect(openHandles()).toBe(baseline);
	});

	it('is off for an embedded replica configuration and when asked', async () => {
		const { database, client } = await fileDatabase();
		const { client: watched, executed } = recording(client);
		const adapter = LibSQLAdapter(watched, { cachedReads: false });
		await adapter.getUser('nobody');
		const before = executed.length;
		await adapter.getUser('nobody');
		expect(executed.slice(before).filter((sql) => /^\s*select/i.test(sql))).toHaveLength(1);
		expect(isReplicaConfig({ url: database.url, syncUrl: 'http://127.0.0.1:9' })).toBe(true);
		expect(isReplicaConfig({ url: database.url })).toBe(false);
		expect(isReplicaConfig(client)).toBe(false);
	});

	it('never takes writes, and stays out of :memory: and closed clients', async () => {
		const { client } = await fileDatabase();
		const reader = cachedReader(client);
		cleanups.push(() => reader.close());
		expect(await reader.read({ sql: 'INSERT INTO "user" (id, email) VALUES (?, ?)', args: ['x', 'x@example.com'] })).toBeUndefined();
		expect(Number((await client.execute('SELECT count(*) AS n FROM "user"')).rows[0]?.['n'])).toBe(0);

		const memory = createClient({ url: ':memory:' });
		cleanups.push(() => memory.close());
		expect(await cachedReader(memory).read('SELECT 1 AS one')).toBeUndefined();

		const closing = createClient({ url: (await fileDatabase()).database.url });
		const closingReader = cachedReader(closing);
		expect((await closingReader.read('SELECT 1 AS one'))?.rows[0]?.['one']).toBe(1);
		closing.close();
		expect(await closingReader.read('SELECT 1 AS one')).toBeUndefined();
	});
});

describe('the per-request reads (hot-reads.ts)', () => {
	/** A user with two sessions and two accounts, written through `adapter`. */
	async function seed(adapter: ReturnType<typeof LibSQLAdapter>) {
		const user = await adapter.createUser({ id: '', email: 'hot@example.com', emailVerified: new Date(1_700_000_000_123), name: 'Hot' });
		const expires = new Date(1_900_000_000_000);
		await adapter.createSession({ sessionToken: 'hot-b', userId: user.id, expires, createdAt: new Date(2_000), userAgent: 'B' });
		await adapter.createSession({ sessionToken: 'hot-a', userId: user.id, expires, createdAt: new Date(1_000), userAgent: null });
		for (const provider of ['zeta', 'alpha']) {
			await adapter.linkAccount({ userId: user.id, type: 'oidc', provider, providerAccountId: `${provider}-1`, expires_at: 1_900_000_000, access_token: 'at' });
		}
		return user;
	}

	async function readAll(adapter: ReturnType<typeof LibSQLAdapter>, userId: string) {
		return {
			sessionAndUser: await adapter.getSessionAndUser('hot-b'),
			missing: await adapter.getSessionAndUser('no-such-token'),
			sessions: await adapter.listSessionsByUserId(userId),
			accounts: await adapter.listAccountsByUserId(userId)
		};
	}

	it('read the same through the cached connection as through the client', async () => {
		const { client } = await fileDatabase();
		const { client: watched, executed } = recording(client);
		const cached = LibSQLAdapter(watched);
		const user = await seed(cached);
		// Until the read connection is open these reads go through the client; a drizzle read
		// waits for it to open.
		expect((await cached.getUser(user.id))?.id).toBe(user.id);
		const before = executed.length;
		const viaReader = await readAll(cached, user.id);
		expect(executed.slice(before).filter((sql) => /^\s*select/i.test(sql))).toEqual([]);
		const viaClient = await readAll(LibSQLAdapter(client, { cachedReads: false }), user.id);
		expect(viaReader).toEqual(viaClient);
		// And what they read is right: types decoded, order kept, no token columns left as null.
		expect(viaReader.sessionAndUser?.user).toEqual(user);
		expect(viaReader.sessionAndUser?.session).toEqual({ sessionToken: 'hot-b', userId: user.id, expires: new Date(1_900_000_000_000), createdAt: new Date(2_000), userAgent: 'B' });
		expect(viaReader.missing).toBeNull();
		expect(viaReader.sessions.map((s) => s.sessionToken)).toEqual(['hot-a', 'hot-b']);
		expect(viaReader.accounts.map((a) => a.provider)).toEqual(['alpha', 'zeta']);
		expect(viaReader.accounts[0]).toEqual({ userId: user.id, type: 'oidc', provider: 'alpha', providerAccountId: 'alpha-1', expires_at: 1_900_000_000, access_token: 'at' });
	});

	it('a single-row read leaves no snapshot open: a checkpoint by another connection completes', async () => {
		const { database, client } = await fileDatabase();
		const adapter = LibSQLAdapter(client);
		const user = await seed(adapter);
		expect((await adapter.getSessionAndUser('hot-b'))?.user.id).toBe(user.id);
		expect((await adapter.getUser(user.id))?.id).toBe(user.id); // the read connection is open
		const guarded = writeGuardedClient(client, 1000, true);
		// Several rows match; only the first is stepped to. The statement must be reset after it.
		expect(guarded.cachedValues({ sql: 'SELECT sessionToken FROM session ORDER BY sessionToken', args: [] }, true)).toEqual([['hot-a']]);
		const other = createClient({ url: database.url });
		cleanups.push(() => other.close());
		await other.execute({ sql: 'UPDATE session SET userAgent = ? WHERE sessionToken = ?', args: ['C', 'hot-b'] });
		const checkpoint = (await other.execute('PRAGMA wal_checkpoint(TRUNCATE)')).rows[0]!;
		expect(Number(checkpoint['busy'])).toBe(0);
		expect((await adapter.getSessionAndUser('hot-b'))?.session.userAgent).toBe('C');
	});

	it('a value JavaScript cannot hold is an adapter error on the cached path as through the client', async () => {
		const { client } = await fileDatabase();
		const cached = LibSQLAdapter(client);
		const user = await seed(cached);
		await client.execute({ sql: 'UPDATE account SET expires_at = ? WHERE provider = ?', args: [2n ** 60n, 'alpha'] });
		expect((await cached.getUser(user.id))?.id).toBe(user.id); // the read connection is open
		for (const adapter of [cached, LibSQLAdapter(client, { cachedReads: false })]) {
			const failure = await Promise.resolve(adapter.listAccountsByUserId(user.id)).catch((error: unknown) => error);
			expect(failure).toBeInstanceOf(LibSQLAdapterError);
			expect((failure as LibSQLAdapterError).message).toMatch(/listAccountsByUserId/);
		}
		// Nothing was switched off: the next reads are served as before.
		expect((await cached.getSessionAndUser('hot-b'))?.session.userAgent).toBe('B');
	});
});

describe('list reads on the cached connection come back as one JSON row (hot-reads.ts)', () => {
	/** A table with every kind of value a list holds: text, integers, NULLs, ties on the first key. */
	const items = sqliteTable('item', {
		owner: text('owner').notNull(),
		rank: integer('rank'),
		name: text('name').notNull(),
		note: text('note'),
		stamp: integer('stamp', { mode: 'timestamp_ms' })
	});
	const withBlob = sqliteTable('item', { owner: text('owner').notNull(), name: text('name').notNull(), data: blob('note') });

	async function itemsDatabase(rows: unknown[][]) {
		const { client } = await fileDatabase();
		await client.execute('CREATE TABLE item (owner TEXT NOT NULL, rank INTEGER, name TEXT NOT NULL, note TEXT, stamp INTEGER)');
		await client.batch(
			rows.map((args) => ({ sql: 'INSERT INTO item VALUES (?, ?, ?, ?, ?)', args: args as InValue[] })),
			'write'
		);
		const guarded = writeGuardedClient(client, 1000, true);
		// Open the read connection (its first read goes through the client while it opens).
		guarded.cachedValues('SELECT 1', true);
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(guarded.cachedValues('SELECT 1', true)).toEqual([[1]]);
		const sent: string[] = [];
		const spied: GuardedClient = {
			...guarded,
			cachedValues: (stmt, single) => {
				sent.push(typeof stmt === 'string' ? stmt : stmt.sql);
				return guarded.cachedValues(stmt, single);
			},
			clientValues: (stmt, single) => guarded.clientValues(stmt, single)
		};
		return { client, spied, sent };
	}

	const list = (client: GuardedClient, table = items) =>
		hotRead(
			client,
			drizzle(client).select().from(table).where(eq(table.owner, sql.placeholder('owner'))).orderBy(items.rank, items.name),
			{ item: table },
			{ orderBy: [items.rank, items.name] },
			(rows) => rows.map((row) => row.item)
		);

	it('reads what the client reads, in the same order (NULLs first, ties broken), in one JSON step', async () => {
		const rows = [
			['a', 2, 'delta', 'é "quoted" \\ \n', 1_700_000_000_123],
			['a', null, 'zulu', null, null],
			['a', 2, 'bravo', '', 0],
			['a', -9_007_199_254_740_991, 'min', '{"json":"text"}', 9_007_199_254_740_991],
			['a', 1, 'charlie', '🔑', -1],
			['b', 0, 'other owner', null, null]
		];
		const { spied, sent } = await itemsDatabase(rows);
		const read = list(spied);
		const cached = read.now('a');
		expect(sent).toHaveLength(1);
		expect(sent[0]).toMatch(/^select json_group_array\(json_array\(/);
		const viaClient = await read.load('a');
		expect(cached).toEqual(viaClient);
		expect(cached?.map((item) => item.name)).toEqual(['zulu', 'min', 'charlie', 'bravo', 'delta']);
		expect(cached?.[4]).toEqual({ owner: 'a', rank: 2, name: 'delta', note: 'é "quoted" \\ \n', stamp: new Date(1_700_000_000_123) });
		expect(cached?.[0]).toEqual({ owner: 'a', rank: null, name: 'zulu', note: null, stamp: null });
		expect(read.now('nobody')).toEqual([]);
	});

	it('refuses an integer past 2^53 instead of rounding it, as the client does', async () => {
		const { client, spied } = await itemsDatabase([['a', 1, 'x', null, null]]);
		await client.execute({ sql: 'UPDATE item SET rank = ?', args: [2n ** 53n + 1n] });
		const read = list(spied);
		expect(() => read.now('a')).toThrow(RangeError);
		await expect(read.load('a')).rejects.toThrow(RangeError);
	});

	it('a value JSON cannot hold (a blob in a text column) is read through the client instead', async () => {
		const { client, spied } = await itemsDatabase([['a', 1, 'x', null, null]]);
		await client.execute({ sql: 'UPDATE item SET note = ?', args: [new Uint8Array([1, 2, 3])] });
		const read = list(spied);
		expect(read.now('a')).toBeUndefined();
		expect((await read.load('a'))[0]?.name).toBe('x');
		// The failed statement's connection was dropped; it reopens and serves the reads again.
		await client.execute('UPDATE item SET note = NULL');
		await vi.waitFor(() => expect(read.now('a')?.[0]?.name).toBe('x'));
	});

	it('a table with a blob column keeps the plain row-by-row read', async () => {
		const { spied, sent } = await itemsDatabase([['a', 1, 'x', null, null]]);
		const read = list(spied, withBlob as unknown as typeof items);
		expect(read.now('a')?.[0]?.name).toBe('x');
		expect(sent[0]).not.toMatch(/json_group_array/);
	});
});
