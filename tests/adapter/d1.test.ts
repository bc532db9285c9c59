/**
 * The D1 adapter on a real D1 database (workerd through miniflare): the conformance suite on a
 * database migrated by `wrangler d1 migrations apply` from ./drizzle/sqlite; its `migrate()` and
 * wrangler agreeing about what is applied.
 */
import { afterAll, describe, expect, test, vi } from 'vitest';
import { D1Adapter, d1Session, migrate, type D1WithSessions } from '../../src/lib/adapters/d1/index.js';
import type { AdapterUser } from '../../src/lib/core/types/models.js';
import { newSession, newUser } from './conformance/fixtures.js';
import { migrations } from '../../src/lib/adapters/sqlite/migrations.generated.js';
import { runAdapterConformance } from './conformance.js';
import { d1RawReads, localD1, type LocalD1 } from './d1-support.js';

// Each wrangler run (the CLI, then workerd restarted on its state) takes seconds; more on a busy machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const opened: LocalD1[] = [];
afterAll(async () => {
	await Promise.all(opened.map((d1) => d1.close()));
});
async function fresh(): Promise<LocalD1> {
	const d1 = await localD1();
	opened.push(d1);
	return d1;
}

runAdapterConformance('D1Adapter (wrangler-migrated)', async () => {
	const d1 = await fresh();
	await d1.wranglerApply();
	return { adapter: D1Adapter(d1.db), db: d1RawReads(d1.db) };
});

describe('D1 migrations', () => {
	const all = migrations.map((m) => m.tag);

	test('after `wrangler d1 migrations apply`, migrate() finds nothing to do', async () => {
		const d1 = await fresh();
		expect(await d1.wranglerApply()).toContain('0000_authjs_base.sql');
		expect(await migrate(d1.db)).toEqual({ applied: [], adopted: false });
	});

	test('after migrate(), wrangler finds nothing to do; the records are wrangler’s', async () => {
		const d1 = await fresh();
		expect(await migrate(d1.db)).toEqual({ applied: all, adopted: false });
		const { results } = await d1.db.prepare('SELECT name FROM d1_migrations ORDER BY id').all<{ name: string }>();
		expect(results.map((row) => row.name)).toEqual(all.map((tag) => `${tag}.sql`));
		expect(await d1.wranglerApply()).toMatch(/No migrations to apply/i);
		expect(await migrate(d1.db)).toEqual({ applied: [], adopted: false });
	});

	test('two Workers migrating at once: each migration applied once', async () => {
		const d1 = await fresh();
		const results = await Promise.all([migrate(d1.db), migrate(d1.db)]);
		expect(results.flatMap((result) => result.applied).sort()).toEqual(all);
		const { results: rows } = await d1.db.prepare('SELECT count(*) AS n FROM d1_migrations').all<{ n: number }>();
		expect(rows[0]?.n).toBe(all.length);
	});
});

describe('D1 read replicas (the Sessions API)', () => {
	test('a session created on one request is read on the next, on a session starting at the bookmark the first ended at', async () => {
		const d1 = await fresh();
		await migrate(d1.db);
		const database = d1.raw as D1WithSessions;
		const signIn = d1Session(database, undefined);
		const adapter = D1Adapter(signIn);
		const user = await adapter.createUser(newUser() as AdapterUser);
		const session = await adapter.createSession(newSession(user.id));
		const bookmark = await signIn.getBookmark();
		expect(bookmark).toEqual(expect.any(String));
		const next = D1Adapter(d1Session(database, bookmark));
		expect(await next.getSessionAndUser(session.sessionToken)).toEqual({ session, user });
	});

	test('a bookmark that is not one (a hostile cookie) is ignored: the read starts unconstrained', async () => {
		const d1 = await fresh();
		await migrate(d1.db);
		const database = d1.raw as D1WithSessions;
		for (const bookmark of ["' OR 1=1 --", 'x'.repeat(10_000), '', 'first-primary']) {
			const adapter = D1Adapter(d1Session(database, bookmark));
			expect(await adapter.getSessionAndUser('no-such-token')).toBeNull();
		}
	});
});
