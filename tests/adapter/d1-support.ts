/**
 * Cloudflare D1 for the D1 adapter's tests: a real D1 database in workerd through miniflare, as
 * wrangler runs it locally (`getPlatformProxy`), reached from this process through its bindings;
 * migrated by `wrangler d1 migrations apply --local` (the real CLI) with `migrations_dir` at
 * ./drizzle/sqlite, or left empty. Raw reads go through the binding, bypassing the adapter.
 */
import type { Client } from '@libsql/client';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getPlatformProxy } from 'wrangler';
import type { D1Binding, D1Statement } from '../../src/lib/adapters/d1/index.js';
import type { ConformanceDb } from './conformance.js';
import { rawReads } from './support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WRANGLER = join(ROOT, 'node_modules/wrangler/bin/wrangler.js');
const DATABASE_ID = '00000000-0000-4000-8000-00000000d1d1';

export interface LocalD1 {
	db: D1Binding;
	/** The binding as miniflare's proxy gives it (the Sessions API included). */
	raw: unknown;
	/** `wrangler d1 migrations apply` on this database (stopped and reopened around it). */
	wranglerApply(): Promise<string>;
	close(): Promise<void>;
}

/** Wrangler's environment: offline, no metrics, no prompts. */
function wranglerEnv(dir: string): NodeJS.ProcessEnv {
	const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(VITEST|NODE_ENV$|CLOUDFLARE_|WRANGLER_|CF_)/.test(name)));
	return { ...env, CI: 'true', WRANGLER_SEND_METRICS: 'false', NO_UPDATE_NOTIFIER: '1', WRANGLER_LOG_PATH: join(dir, 'logs') };
}

function runWrangler(args: string[], dir: string): Promise<string> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [WRANGLER, ...args], { cwd: dir, env: wranglerEnv(dir), stdio: ['ignore', 'pipe', 'pipe'] });
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.once('error', reject);
		child.once('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`wrangler ${args.join(' ')} failed (${code}):\n${output}`))));
	});
}

/** A fresh local D1 database (empty: migrate it with `wranglerApply()` or the adapter's `migrate()`). */
export async function localD1(): Promise<LocalD1> {
	const dir = mkdtempSync(join(tmpdir(), 'kitauth-d1-'));
	const config = join(dir, 'wrangler.json');
	writeFileSync(
		config,
		JSON.stringify({
			name: 'kitauth-d1-test',
			compatibility_date: '2026-11-01',
			d1_databases: [{ binding: 'DB', database_name: 'kitauth', database_id: DATABASE_ID, migrations_dir: join(ROOT, 'drizzle/sqlite') }]
		})
	);
	// wrangler's own local platform (miniflare inside), on the state `--persist-to dir` keeps.
	const open = () => getPlatformProxy<{ DB: D1Binding }>({ configPath: config, persist: { path: join(dir, 'v3') }, remoteBindings: false, envFiles: [] });
	let proxy = await open();
	const current = { db: oneAtATime(proxy.env.DB) };
	return {
		get db() {
			return current.db;
		},
		get raw() {
			return proxy.env.DB;
		},
		async wranglerApply() {
			await proxy.dispose();
			const output = await runWrangler(['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', dir, '--config', config], dir);
			proxy = await open();
			current.db = oneAtATime(proxy.env.DB);
			return output;
		},
		async close() {
			await proxy.dispose();
			rmSync(dir, { recursive: true, force: true });
		}
	};
}

/**
 * The binding as the tests use it: statements are built here and sent to workerd when they run,
 * one call at a time. miniflare's proxy of a binding into Node sometimes fails an assertion of its
 * own (in its `hydrate`) when many calls with statement objects cross it at once; a Worker calls
 * D1 with no proxy, and D1 runs one statement at a time anyway (a database is one Durable
 * Object), so each call stays the unit it is (a statement, or a batch as one transaction).
 */
function oneAtATime(remote: D1Binding): D1Binding {
	let queue: Promise<unknown> = Promise.resolve();
	const serial = <T>(call: () => Promise<T>): Promise<T> => {
		const next = queue.then(call, call);
		queue = next.catch(() => {});
		return next;
	};
	const statement = (sql: string, args: unknown[]): D1Statement & { toRemote(): D1Statement } => ({
		bind: (...values) => statement(sql, values),
		raw: <T>() => serial(() => remote.prepare(sql).bind(...args).raw<T>()),
		all: <T>() => serial(() => remote.prepare(sql).bind(...args).all<T>()),
		run: () => serial(() => remote.prepare(sql).bind(...args).run()),
		toRemote: () => remote.prepare(sql).bind(...args)
	});
	return {
		prepare: (sql) => statement(sql, []),
		batch: <T>(statements: D1Statement[]) =>
			serial(() => remote.batch<T>(statements.map((one) => (one as ReturnType<typeof statement>).toRemote())))
	};
}

/** The conformance suite's raw reads, over the D1 binding (the libSQL ones' SQL, D1's rows). */
export function d1RawReads(db: D1Binding): ConformanceDb {
	const client = {
		async execute({ sql, args }: { sql: string; args: unknown[] }) {
			return { rows: (await db.prepare(sql).bind(...args).all()).results };
		}
	};
	return rawReads(client as unknown as Client);
}
