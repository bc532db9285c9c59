/**
 * kitauth against Auth.js (issue 33's "against" column), in process, on one Node: each library's
 * core answering the same requests, as its SvelteKit integration calls it — kitauth's auth server
 * made once (`createAuthServer(config).handle`, what its handle does), Auth.js's
 * `Auth(request, config)` per request (what `@auth/sveltekit` does) — with @auth/core 0.41.3, the
 * version of the issue's table. Interleaved blocks (every other one in reverse order), so a busy
 * machine's drift hits both alike; a ratio above 1 means kitauth answers more requests per second.
 * Exits 1 when a row misses the issue's target.
 *
 * Rows: the JWT session read (Auth.js sealed the cookies), `/auth/session` without a cookie, the
 * database session read on libSQL files (kitauth's adapter against Auth.js with its drizzle adapter),
 * and a credentials sign-in (kitauth on database sessions and on JWT, Auth.js on JWT: Auth.js refuses
 * credentials with database sessions).
 *
 *     npx node --experimental-transform-types --import ./tests/support/ts-svelte-import-hook.ts tests/bench/authjs.ts
 *
 * Environment: BENCH_AUTHJS_REQUESTS (per block, default 2000), BENCH_AUTHJS_BLOCKS (default 9),
 * BENCH_QUICK=1 (500 × 3).
 */
import { Auth as AuthJs } from '@auth/core';
import CredentialsAuthJs from '@auth/core/providers/credentials';
import GitHubAuthJs from '@auth/core/providers/github';
import { DrizzleAdapter } from '@auth/drizzle-adapter';
import { createClient } from '@libsql/client';
import { generateSQLiteDrizzleJson, generateSQLiteMigration } from 'drizzle-kit/api';
import { drizzle } from 'drizzle-orm/libsql';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineTables } from '../../node_modules/@auth/drizzle-adapter/lib/sqlite.js';
import { LibSQLAdapter, migrate } from '../../src/lib/adapters/libsql/index.ts';
import { createAuthServer } from '../../src/lib/core/server.ts';
import type { AuthConfig } from '../../src/lib/core/index.ts';
import Credentials from '../../src/lib/providers/credentials.ts';
import { betterAuthDatabase } from './better-auth.ts';
import { median } from './median.ts';
import { BENCH_SECRET, databaseTokens, jwtTokens, SESSION_COOKIE } from './sessions.ts';

const QUICK = process.env.BENCH_QUICK === '1';
const PER_BLOCK = Number(process.env.BENCH_AUTHJS_REQUESTS ?? (QUICK ? 500 : 2000));
const BLOCKS = Math.max(1, Number(process.env.BENCH_AUTHJS_BLOCKS ?? (QUICK ? 3 : 9)));
const ORIGIN = 'http://127.0.0.1:4390';
const SESSIONS = 500;
const dir = mkdtempSync(join(tmpdir(), 'kitauth-vs-authjs-'));

type Handler = (request: Request) => Promise<Response>;
type Op = (i: number) => Promise<unknown>;

/** The bench's user check (no password hashing: the libraries' own work is what is weighed). */
const authorize = (credentials: Partial<Record<string, unknown>>) => {
	const email = credentials.email;
	return typeof email === 'string' && /^bench\d*@example\.com$/.test(email) && credentials.password === 'bench' ? { id: email.split('@')[0]!, email } : null;
};
const fields = { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } } as const;

function kitauth(extra: Partial<AuthConfig>): Handler {
	const server = createAuthServer(
		{ secret: BENCH_SECRET, trustHost: true, basePath: '/auth', rateLimit: false, providers: [Credentials({ credentials: fields, authorize })], ...extra },
		{ env: { NODE_ENV: 'production' } }
	);
	return (request) => server.handle(request);
}

function authJs(extra: Record<string, unknown>): Handler {
	const config = { secret: BENCH_SECRET, trustHost: true, basePath: '/auth', providers: [CredentialsAuthJs({ credentials: fields, authorize })], ...extra };
	return (request) => AuthJs(request, config) as Promise<Response>;
}

/** A request through a handler, its body read. */
async function send(handler: Handler, path: string, init: RequestInit = {}): Promise<{ response: Response; body: string }> {
	const response = await handler(new Request(`${ORIGIN}${path}`, init));
	return { response, body: await response.text() };
}

const sessionRead = (handler: Handler, cookies?: string[]): Op => (i) =>
	send(handler, '/auth/session', cookies ? { headers: { cookie: `${SESSION_COOKIE}=${cookies[i % cookies.length]}` } } : {});

/** A credentials sign-in op for a handler: its CSRF cookie and token fetched once, then POSTs. */
async function signIn(handler: Handler): Promise<Op> {
	const csrf = await send(handler, '/auth/csrf');
	const cookie = csrf.response.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
	const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
	return (i) =>
		send(handler, '/auth/callback/credentials', {
			method: 'POST',
			headers: { cookie, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ csrfToken, email: `bench${i % 50}@example.com`, password: 'bench' })
		});
}

/** A libSQL file as Auth.js's drizzle adapter makes it, with `count` users and sessions (raw tokens, as Auth.js stores them). */
async function authJsDatabase(count: number): Promise<{ handler: ReturnType<typeof DrizzleAdapter>; tokens: string[] }> {
	const client = createClient({ url: `file:${join(dir, 'authjs.db')}` });
	const tables = await generateSQLiteDrizzleJson({ ...defineTables() });
	for (const statement of await generateSQLiteMigration(await generateSQLiteDrizzleJson({}), tables)) await client.execute(statement);
	const adapter = DrizzleAdapter(drizzle({ client }));
	const tokens: string[] = [];
	for (let i = 0; i < count; i++) {
		const user = await adapter.createUser!({ id: `bench-${i}`, name: `Bench User ${i}`, email: `bench${i}@example.com`, emailVerified: null, image: null });
		const token = crypto.randomUUID();
		await adapter.createSession!({ sessionToken: token, userId: user.id, expires: new Date(Date.now() + 30 * 86_400_000 - 60_000) });
		tokens.push(token);
	}
	return { handler: adapter, tokens };
}

interface Row {
	scenario: string;
	kitauth: Op;
	/** The library weighed against (Auth.js unless named). */
	peer?: string;
	authJs: Op;
	/** kitauth's requests per second at least this many times the peer's (undefined: shown, no target). */
	target?: number;
	expect: (kit: { response: Response; body: string }, them: { response: Response; body: string }) => boolean;
}

/** µs per op of both, the median of interleaved blocks. */
async function timeBoth(ops: [Op, Op]): Promise<[number, number]> {
	const times: [number[], number[]] = [[], []];
	for (const op of ops) for (let i = 0; i < PER_BLOCK; i++) await op(i);
	for (let block = 0; block < BLOCKS; block++) {
		for (const index of block % 2 ? [1, 0] : [0, 1]) {
			const started = performance.now();
			for (let i = 0; i < PER_BLOCK; i++) await ops[index]!(i);
			times[index]!.push(((performance.now() - started) * 1000) / PER_BLOCK);
		}
	}
	return [median(times[0]), median(times[1])];
}

async function main(): Promise<void> {
	const jwtCookies = await jwtTokens(SESSIONS);
	const kitUrl = `file:${join(dir, 'kitauth.db')}`;
	await migrate({ url: kitUrl });
	const kitDbTokens = await databaseTokens(kitUrl, SESSIONS);
	const authJsDb = await authJsDatabase(SESSIONS);
	const betterAuthDb = await betterAuthDatabase(`file:${join(dir, 'better-auth.db')}`, ORIGIN, '/auth', BENCH_SECRET, SESSIONS);

	const kitJwt = kitauth({});
	const kitDb = kitauth({ adapter: LibSQLAdapter({ url: kitUrl }), session: { strategy: 'database' } });
	const theirJwt = authJs({});
	// Auth.js refuses a credentials provider beside database sessions: an OAuth one stands in (unused).
	const theirDb = authJs({ adapter: authJsDb.handler, session: { strategy: 'database' }, providers: [GitHubAuthJs({ clientId: 'x', clientSecret: 'y' })] });

	const signedIn = (r: { response: Response }) => r.response.status === 302 && r.response.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=`));
	const both = (check: (r: { response: Response; body: string }) => boolean) => (a: { response: Response; body: string }, b: { response: Response; body: string }) => check(a) && check(b);
	const hasUser = both((r) => r.body.includes('bench0@example.com'));
	const rows: Row[] = [
		{ scenario: 'JWT session read (GET /auth/session)', kitauth: sessionRead(kitJwt, jwtCookies), authJs: sessionRead(theirJwt, jwtCookies), target: 4, expect: hasUser },
		{ scenario: 'database session read, libSQL (kitauth adapter vs @auth/drizzle-adapter)', kitauth: sessionRead(kitDb, kitDbTokens), authJs: sessionRead(theirDb, authJsDb.tokens), target: 4, expect: hasUser },
		{
			scenario: 'database session read, libSQL (kitauth adapter vs better-auth 1.7 with its drizzle adapter)',
			kitauth: sessionRead(kitDb, kitDbTokens),
			peer: 'better-auth',
			authJs: (i) => send(betterAuthDb.handler, '/auth/get-session', { headers: { cookie: betterAuthDb.cookies[i % betterAuthDb.cookies.length]! } }),
			target: 8,
			expect: hasUser
		},
		{ scenario: 'GET /auth/session without a cookie', kitauth: sessionRead(kitJwt), authJs: sessionRead(theirJwt), target: 1.1, expect: both((r) => r.response.ok && r.body === 'null') },
		{ scenario: 'credentials sign-in: kitauth database sessions, Auth.js JWT', kitauth: await signIn(kitDb), authJs: await signIn(theirJwt), target: 1.5, expect: both(signedIn) },
		{ scenario: 'credentials sign-in, both on JWT sessions', kitauth: await signIn(kitJwt), authJs: await signIn(theirJwt), expect: both(signedIn) }
	];
	const table = [];
	for (const row of rows) {
		// Each row's answers checked once: a row measuring an error page would mean nothing.
		const kit = await row.kitauth(0) as { response: Response; body: string };
		const them = await row.authJs(0) as { response: Response; body: string };
		if (!row.expect(kit, them)) throw new Error(`${row.scenario}: unexpected answers ${kit.response.status} / ${them.response.status}`);
		process.stdout.write(`[authjs] ${row.scenario}…\n`);
		const [k, a] = await timeBoth([row.kitauth, row.authJs]);
		const ratio = a / k;
		const verdict = row.target === undefined ? '' : ratio >= row.target ? `ok (≥ ${row.target}×)` : `MISSED (< ${row.target}×)`;
		table.push({ scenario: row.scenario, 'kitauth µs': k.toFixed(1), peer: row.peer ?? 'Auth.js', 'peer µs': a.toFixed(1), '× peer (req/s)': ratio.toFixed(2), target: verdict });
	}
	console.log(`\nkitauth against Auth.js (@auth/core 0.41.3) and better-auth 1.7.25, in process on Node ${process.version} (medians of ${BLOCKS} interleaved blocks of ${PER_BLOCK}):`);
	console.table(table);
	if (table.some((row) => row.target.startsWith('MISSED'))) process.exitCode = 1;
}

await main();
