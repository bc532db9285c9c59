/**
 * Which libSQL writes may commit without waiting for the disk: a new session only (a power cut
 * that forgets it asks its user to sign in again). Sign-outs, revocations, users and accounts
 * wait for it — a forgotten sign-out would bring a session back. Watched at the seam the SQLite
 * statements' writes go through (the guarded client's `relaxed` and `batch`), on a real file.
 */
import { createClient } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { afterEach, describe, expect, it } from 'vitest';
import { writeGuardedClient } from '../../src/lib/adapters/libsql/engine/client.js';
import { createGuard } from '../../src/lib/adapters/libsql/engine/guard.js';
import { libsqlExec } from '../../src/lib/adapters/libsql/exec.js';
import { migrate } from '../../src/lib/adapters/libsql/index.js';
import { libsqlCounters } from '../../src/lib/adapters/libsql/rate-limits.js';
import { sqliteStatements } from '../../src/lib/adapters/sqlite/statements.js';
import { resolveTables } from '../../src/lib/adapters/sqlite/tables.js';
import { tempDatabase, type TempDatabase } from './support.js';

let database: TempDatabase | undefined;
afterEach(() => database?.remove());

async function statementsWatched() {
	database = tempDatabase('kitauth-durability-');
	const client = createClient({ url: database.url });
	await migrate(client);
	const inner = writeGuardedClient(client, 5000, true);
	// Each write (a batch of the client, whoever starts it) records whether it began inside `relaxed`.
	let relaxed = false;
	const writes: boolean[] = [];
	const guarded: typeof inner = Object.assign(Object.create(inner) as typeof inner, {
		relaxed: <T>(start: () => T): T => {
			const outer = relaxed;
			relaxed = true;
			try {
				return inner.relaxed(start);
			} finally {
				relaxed = outer;
			}
		},
		batch: (stmts: Parameters<typeof inner.batch>[0], mode?: Parameters<typeof inner.batch>[1]) => (writes.push(relaxed), inner.batch(stmts, mode))
	});
	const guard = createGuard(guarded, { busyTimeout: 5000, remoteTimeout: 10_000 });
	const watched = libsqlExec(drizzle({ client: guarded }), guarded, guard);
	const tables = resolveTables();
	return { statements: sqliteStatements(watched, tables, libsqlCounters(watched, guarded, guard, tables.rateLimitsTable), false), writes, client };
}

describe('libSQL write durability', () => {
	it('a new session commits relaxed; its user, its sign-out and a revocation of all wait for the disk', async () => {
		const { statements, writes, client } = await statementsWatched();
		await statements.users.insertUser({ id: 'u1', email: 'ada@example.com' });
		expect(writes.splice(0)).toEqual([false]);
		const expires = new Date(Date.now() + 3_600_000);
		await statements.sessions.insertSession({ sessionToken: 's1', userId: 'u1', expires, createdAt: new Date() });
		await statements.sessions.insertSession({ sessionToken: 's2', userId: 'u1', expires, createdAt: new Date() });
		expect(writes.splice(0)).toEqual([true, true]);
		// Committed all the same: another connection reads it.
		expect((await client.execute("SELECT count(*) AS n FROM session WHERE userId = 'u1'")).rows[0]!.n).toBe(2);
		await statements.sessions.deleteSession('s1');
		await statements.sessions.deleteSessionsOfUser('u1', undefined);
		await statements.sessions.updateSession('s2', { expires: new Date(expires.getTime() + 1) });
		expect(writes.splice(0)).not.toContain(true);
		client.close();
	});
});
