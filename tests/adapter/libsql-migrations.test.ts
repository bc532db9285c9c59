/**
 * migrate(): idempotent, in step with ./drizzle and with `drizzle-kit migrate`, and the schema in
 * step with the migrations.
 */
import { createClient } from '@libsql/client';
import { generateSQLiteDrizzleJson, generateSQLiteMigration } from 'drizzle-kit/api';
import { drizzle } from 'drizzle-orm/libsql';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { migrate } from '../../src/lib/adapters/libsql/index.js';
import { DEFAULT_MIGRATIONS_TABLE } from '../../src/lib/adapters/shared/migrations.js';
import * as schema from '../../src/lib/adapters/sqlite/schema.js';
import {
	embeddedModulePath,
	migrationsFolder,
	renderEmbeddedMigrations
} from '../../scripts/embed-migrations.js';
import { runDrizzleKit } from './drizzle-kit.js';
import { tempDatabase, type TempDatabase } from './support.js';

interface Journal {
	entries: { tag: string; when: number }[];
}
const journal = JSON.parse(
	readFileSync(resolve(migrationsFolder, 'meta/_journal.json'), 'utf8')
) as Journal;
const expectedRecords = journal.entries.map(({ tag, when }) => ({
	hash: createHash('sha256').update(readFileSync(resolve(migrationsFolder, `${tag}.sql`))).digest('hex'),
	created_at: when
}));

const databases: TempDatabase[] = [];
afterEach(() => databases.splice(0).forEach((database) => database.remove()));
function fileDatabase(): TempDatabase {
	const database = tempDatabase('kitauth-migrate-');
	databases.push(database);
	return database;
}

async function records(url: string) {
	const client = createClient({ url });
	try {
		const result = await client.execute(
			`SELECT hash, created_at FROM "${DEFAULT_MIGRATIONS_TABLE}" ORDER BY created_at`
		);
		return result.rows.map((row) => ({ hash: row['hash'], created_at: Number(row['created_at']) }));
	} finally {
		client.close();
	}
}

describe('migrate()', () => {
	test('applies every migration once, recording drizzle’s hash and created_at', async () => {
		const database = fileDatabase();
		const client = createClient({ url: database.url });
		expect(await migrate(client)).toEqual({
			applied: journal.entries.map((entry) => entry.tag),
			adopted: false
		});
		expect(await migrate(client)).toEqual({ applied: [], adopted: false });
		expect(await migrate(drizzle({ client }))).toEqual({ applied: [], adopted: false });
		client.close();
		expect(await records(database.url)).toEqual(expectedRecords);
		const check = createClient({ url: database.url });
		expect((await check.execute('PRAGMA journal_mode')).rows[0]?.['journal_mode']).toBe('wal');
		check.close();
	});

	test('accepts a client configuration', async () => {
		const database = fileDatabase();
		expect((await migrate({ url: database.url })).applied).toHaveLength(journal.entries.length);
		expect(await migrate({ url: database.url })).toEqual({ applied: [], adopted: false });
		expect(await records(database.url)).toEqual(expectedRecords);
	});

	test('concurrent migrate() calls on one file all succeed and apply once', async () => {
		const database = fileDatabase();
		const clients = Array.from({ length: 4 }, () => createClient({ url: database.url }));
		const results = await Promise.all(clients.map((client) => migrate(client)));
		clients.forEach((client) => client.close());
		expect(results.flatMap((result) => result.applied)).toEqual(journal.entries.map((e) => e.tag));
		expect(await records(database.url)).toEqual(expectedRecords);
	});

	test('after `drizzle-kit migrate`, migrate() finds nothing to do', async () => {
		const database = fileDatabase();
		const run = await runDrizzleKit(['migrate', '--config', 'drizzle.sqlite.config.ts'], { DATABASE_URL: database.url });
		expect(run.code, run.output).toBe(0);
		expect(await records(database.url)).toEqual(expectedRecords);
		const client = createClient({ url: database.url });
		expect(await migrate(client)).toEqual({ applied: [], adopted: false });
		client.close();
	});

	test('after migrate(), `drizzle-kit migrate` finds nothing to do', async () => {
		const database = fileDatabase();
		const client = createClient({ url: database.url });
		await migrate(client);
		client.close();
		const run = await runDrizzleKit(['migrate', '--config', 'drizzle.sqlite.config.ts'], { DATABASE_URL: database.url });
		expect(run.code, run.output).toBe(0);
		expect(await records(database.url)).toEqual(expectedRecords);
	});
});

describe('the migrations stay in step', () => {
	test('the embedded module is what scripts/embed-migrations.ts makes of ./drizzle', () => {
		expect(readFileSync(embeddedModulePath, 'utf8')).toBe(renderEmbeddedMigrations());
	});

	test('the schema has no change that is not in a migration', async () => {
		const last = journal.entries.at(-1);
		expect(last).toBeDefined();
		const snapshotFile = resolve(migrationsFolder, `meta/${last?.tag.slice(0, 4)}_snapshot.json`);
		const snapshot = JSON.parse(readFileSync(snapshotFile, 'utf8')) as Awaited<
			ReturnType<typeof generateSQLiteDrizzleJson>
		>;
		const current = await generateSQLiteDrizzleJson({ ...schema });
		expect(await generateSQLiteMigration(snapshot, current)).toEqual([]);
	});
});
