/**
 * The hot path at its limit (issue 33), in process and load-independent where it can be: the
 * bench app (tests/bench-app) built with kitauth (`jwt`, `libsql`) and without (`none`), each
 * build's SvelteKit server loaded into this process and driven through `server.respond()` (no
 * sockets, no client sharing the CPU). Per row of the issue's table, against the same request to
 * the same app without kitauth:
 *
 * - µs per request (median of interleaved blocks) and the ratio `none µs / kitauth µs` (what
 *   requests per second would show on one core);
 * - bytes allocated per request (allocation.ts: V8's heap, not a timing: the same on a busy machine);
 * - the physical floor: the JWE decrypt alone and the indexed session query alone (with the
 *   token's SHA-256), in process, so what kitauth adds above SvelteKit is set against what no
 *   implementation can avoid;
 * - the work one database sign-in does: the adapter's calls (each one statement or one transaction).
 *
 * RSS after a fixed NUMBER of requests (not a fixed time) is `hotpath-rss.ts`, over HTTP.
 *
 *     npx node --expose-gc --experimental-transform-types --import ./tests/support/ts-svelte-import-hook.ts tests/bench/hotpath.ts
 *
 * Environment: BENCH_HOTPATH_REQUESTS (per block, default 2000), BENCH_HOTPATH_BLOCKS (default 7),
 * BENCH_QUICK=1 (500 × 3), BENCH_FOOTPRINT_BUILD=skip (reuse tests/bench-app's builds).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bytesPerCall } from './allocation.ts';
import { buildBenchApp, buildDir, type Variant } from './bench-app.ts';
import { median } from './median.ts';
import { hotpathRows, ORIGIN, type KitServer, type Op } from './hotpath-rows.ts';
import { BENCH_SECRET, SESSION_COOKIE } from './sessions.ts';

const QUICK = process.env.BENCH_QUICK === '1';
const PER_BLOCK = Number(process.env.BENCH_HOTPATH_REQUESTS ?? (QUICK ? 500 : 2000));
const BLOCKS = Math.max(1, Number(process.env.BENCH_HOTPATH_BLOCKS ?? (QUICK ? 3 : 7)));

const dir = mkdtempSync(join(tmpdir(), 'kitauth-hotpath-'));
const DATABASE_URL = `file:${join(dir, 'hotpath.db')}`;
// Read by the builds' hooks and kitauth's environment defaults when they load.
Object.assign(process.env, { AUTH_SECRET: BENCH_SECRET, AUTH_TRUST_HOST: 'true', BENCH_APP_DATABASE_URL: DATABASE_URL, BENCH_APP_LIMITER: 'off' });

async function load(variant: Variant): Promise<KitServer> {
	const { server } = (await import(join(buildDir(variant), 'server/server.js'))) as { server: KitServer };
	await server.init({ env: { ...process.env } });
	return server;
}

/** µs per op, the median of blocks interleaved between the ops (so the machine's drift hits all). */
async function timeOps(ops: Op[]): Promise<number[]> {
	const times: number[][] = ops.map(() => []);
	for (const op of ops) for (let i = 0; i < PER_BLOCK; i++) await op(i);
	for (let block = 0; block < BLOCKS; block++) {
		for (const [index, op] of (block % 2 ? [...ops.entries()].reverse() : [...ops.entries()])) {
			const started = performance.now();
			for (let i = 0; i < PER_BLOCK; i++) await op(i);
			times[index]!.push(((performance.now() - started) * 1000) / PER_BLOCK);
		}
	}
	return times.map(median);
}

/** The adapter with each method call counted, by method name. */
function countingAdapter<T extends object>(adapter: T): { adapter: T; counts: Map<string, number> } {
	const counts = new Map<string, number>();
	const counted = Object.fromEntries(
		Object.entries(adapter).map(([name, value]) => [
			name,
			typeof value === 'function' ? (...args: unknown[]) => (counts.set(name, (counts.get(name) ?? 0) + 1), value.apply(adapter, args)) : value
		])
	) as T;
	return { adapter: counted, counts };
}

async function signInWork(): Promise<string> {
	const { LibSQLAdapter, migrate } = await import('../../src/lib/adapters/libsql/index.ts');
	const { createAuthServer } = await import('../../src/lib/core/server.ts');
	const { default: Credentials } = await import('../../src/lib/providers/credentials.ts');
	const database = { url: `file:${join(dir, 'signin-count.db')}` };
	await migrate(database);
	const { adapter, counts } = countingAdapter(LibSQLAdapter(database));
	const server = createAuthServer(
		{
			adapter,
			session: { strategy: 'database' },
			trustHost: true,
			secret: BENCH_SECRET,
			rateLimit: false,
			providers: [Credentials({ credentials: { email: {}, password: {} }, authorize: ({ email }) => ({ id: String(email).split('@')[0]!, email: String(email) }) })]
		},
		{ env: { NODE_ENV: 'production' } }
	);
	const signIn = async (email: string) => {
		const csrf = await server.handle(new Request(`${ORIGIN}/auth/csrf`));
		const cookie = csrf.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
		const { csrfToken } = (await csrf.json()) as { csrfToken: string };
		counts.clear();
		const body = new URLSearchParams({ csrfToken, email, password: 'x' });
		const response = await server.handle(
			new Request(`${ORIGIN}/auth/callback/credentials`, { method: 'POST', body, headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' } })
		);
		if (response.status !== 302) throw new Error(`the counted sign-in answered ${response.status}`);
		return [...counts].map(([kind, n]) => `${n} ${kind}`).join(', ');
	};
	const first = await signIn('new@example.com');
	const again = await signIn('new@example.com');
	return `first sign-in of a user: ${first}; a returning user: ${again}`;
}

async function floors(tokens: string[], dbTokens: string[]): Promise<{ jwe: number; query: number; jweBytes: number; queryBytes: number }> {
	const { backend } = await import('../../src/lib/core/crypto/node/index.ts');
	const keyring = backend.createKeyring(BENCH_SECRET);
	// The query as the adapter runs it: prepared once on a connection of its own (libSQL's native
	// binding; `@libsql/client` prepares every statement anew, which costs more than the lookup).
	const { default: Database } = await import('libsql');
	const db = new Database(DATABASE_URL.slice('file:'.length));
	const statement = db.prepare('SELECT * FROM session JOIN user ON user.id = session.userId WHERE session.sessionToken = ?').raw(true);
	const open: Op = async (i) => backend.openJwe(keyring, SESSION_COOKIE, tokens[i % tokens.length]!);
	const query: Op = async (i) => statement.get([createHash('sha256').update(dbTokens[i % dbTokens.length]!).digest('hex')]);
	if (!(await open(0))) throw new Error('the JWE floor does not open the bench tokens');
	if ((await query(0)) === undefined) throw new Error('the query floor found nothing');
	const [jwe, q] = await timeOps([open, query]);
	const result = { jwe: jwe!, query: q!, jweBytes: (await bytesPerCall(open, PER_BLOCK)).bytes, queryBytes: (await bytesPerCall(query, PER_BLOCK)).bytes };
	db.close();
	return result;
}

async function main(): Promise<void> {
	if (process.env.BENCH_FOOTPRINT_BUILD !== 'skip' || !(['none', 'jwt', 'libsql'] as const).every((v) => existsSync(buildDir(v)))) {
		console.log('[hotpath] packaging kitauth and building tests/bench-app (none, jwt, libsql)…');
		await buildBenchApp(['none', 'jwt', 'libsql']);
	}
	const none = await load('none');
	const jwt = await load('jwt');
	const libsql = await load('libsql'); // migrates the database in its `init`
	const { rows, jwtTokens, dbTokens } = await hotpathRows({ none, jwt, libsql }, DATABASE_URL);
	const table = [];
	for (const row of rows) {
		process.stdout.write(`[hotpath] ${row.scenario}…\n`);
		const [kit, base] = await timeOps(row.baseline ? [row.kitauth, row.baseline] : [row.kitauth]);
		const kitBytes = (await bytesPerCall(row.kitauth, PER_BLOCK)).bytes;
		const baseBytes = row.baseline ? (await bytesPerCall(row.baseline, PER_BLOCK)).bytes : undefined;
		table.push({
			scenario: row.scenario,
			'kitauth µs': kit!.toFixed(1),
			'without µs': base?.toFixed(1) ?? '',
			'× without (req/s)': base ? (base / kit!).toFixed(2) : '',
			'kitauth B/req': Math.round(kitBytes),
			'without B/req': baseBytes === undefined ? '' : Math.round(baseBytes),
			'Δ B/req': baseBytes === undefined ? '' : Math.round(kitBytes - baseBytes)
		});
	}
	console.log(`\nHot path in process through server.respond() (µs: medians of ${BLOCKS} interleaved blocks of ${PER_BLOCK}; bytes: V8 heap allocated per request):`);
	console.table(table);
	const floor = await floors(jwtTokens, dbTokens);
	console.log(
		`Physical floor, in process: JWE decrypt alone ${floor.jwe.toFixed(1)} µs (${Math.round(floor.jweBytes)} B); ` +
			`indexed session query alone (SHA-256 of the token + one prepared SELECT … JOIN on libSQL's own connection) ${floor.query.toFixed(1)} µs (${Math.round(floor.queryBytes)} B).`
	);
	console.log(`Work per database sign-in (adapter calls): ${await signInWork()}`);
}

await main();
