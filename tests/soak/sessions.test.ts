/**
 * A bounded soak: two app processes (tests/support/soak-app-worker.ts, the core's `Auth()` with
 * database sessions) share one store, a libSQL file or a PostgreSQL server, while browser lanes
 * in this process sign in, read their session and sign out, each request over HTTP to either
 * process. Midway the store goes away for a few seconds, then comes back: PostgreSQL's cluster is
 * shut down; libSQL's file is locked by another process, first its write lock (writers wait,
 * readers do not), then the WAL index's read-mark locks (as SQLite holds them while it recovers
 * the WAL: every call waits).
 *
 * Every answer must be one the design allows: while the store is there, success; while it is
 * not, a clear 503 (JSON with `Retry-After`, or the Unavailable page) or a success that did not
 * need it; never a 500, a configuration error, a session cookie without its row, another user's
 * session, or a live session read as none. Afterwards, counted from the test's own connection:
 * the session rows are exactly the sign-ins that got a cookie minus the sign-outs that succeeded
 * (nothing lost, nothing duplicated, no orphan row); users are not duplicated. The apps logged
 * the outage and nothing before it, and both serve again once the store is back.
 *
 * Each app's event-loop lag per phase is printed. On libSQL, app A runs the adapter as it ships:
 * under this traffic some call always lands in the moment between another process taking the
 * read marks and the adapter's watch noticing, and blocks A until the lock goes (docs/content/databases.md, libSQL
 * adapter; measured here: about the outage's length). App B runs every call off the main thread
 * (`alwaysOffThread`): its lag must stay small throughout.
 *
 * Bounded: ~15–20 s per store. `SOAK_OUTAGE_SECONDS` (default 2) lengthens each outage for a
 * long run, such as the 12–30 s. Then SQLite gives up on the read marks after ~10 s, so
 * A freezes for ~10 s, past its HTTP keep-alive timeout: lanes see connections to A fail, and
 * the run fails on A's account (measured with 12 s: A 9980 ms, B 8 ms). That is the limit the
 * libSQL guide (docs/content/databases.md) states, shown, not hidden.
 */
import { createHash } from 'node:crypto';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createClient } from '@libsql/client';
import pg from 'pg';
import { afterEach, describe, expect, test } from 'vitest';
import { migrate } from '../../src/lib/adapters/libsql/index.js';
import { tempDatabase } from '../adapter/support.js';
import { isDeletion, sessionCookiesGranted, setCookies, TestClient } from '../support/client.js';
import { holdReadMarks, holdWriteLock, type Release } from '../support/lock-holders.js';
import { authSchemaDDL, startPostgres } from '../support/postgres.js';

const worker = fileURLToPath(new URL('../support/soak-app-worker.ts', import.meta.url));
const hook = fileURLToPath(new URL('../support/ts-svelte-import-hook.ts', import.meta.url));
const ORIGIN = 'http://localhost:3000';
/** The session cookie's name on http (the apps' `AUTH_URL`); `__Host-` on https. */
const SESSION_COOKIE = 'authjs.session-token';
const LANES = 6;
/** Users per lane: lanes sign the same users in again and again (several sessions per user). */
const USERS_PER_LANE = 3;
/** Store up, then each outage and the time after it; the last `after` before the lanes stop. */
const BEFORE_MS = 2000;
/** `SOAK_OUTAGE_SECONDS` (default 2) lengthens each outage for a long run, e.g. 12–30 as in the issue. */
const DOWN_MS = soakOutageMs();
const AFTER_MS = 2500;
/** After the store is back: time for pools to reconnect before every answer must be a success. */
const RECOVERY_GRACE_MS = 1500;
/**
 * The most an event loop that never waits for SQLite may lag here. A call stuck inside SQLite
 * shows as the outage's length (2 s or more); timers on a loaded 2-core machine fire late too
 * (up to ~0.5 s seen while a test app was being built next to the soak).
 */
const LAG_BOUND_MS = 1500;
/** No answer may take longer (far above any timeout in play; a frozen event loop shows here). */
const REQUEST_BOUND_MS = 20_000;

/** The test's timeout: the phases (one PostgreSQL outage, two libSQL ones) and a minute to start and count. */
const TIMEOUT_MS = 60_000 + BEFORE_MS + 2 * (DOWN_MS + AFTER_MS) + 2 * REQUEST_BOUND_MS;

function soakOutageMs(): number {
	const seconds = Number(process.env.SOAK_OUTAGE_SECONDS ?? 2);
	if (!Number.isFinite(seconds) || seconds <= 0) throw new Error(`SOAK_OUTAGE_SECONDS must be a positive number, got ${process.env.SOAK_OUTAGE_SECONDS}`);
	return seconds * 1000;
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface App {
	name: string;
	origin: string;
	child: ChildProcessWithoutNullStreams;
	stderr: () => string;
}

async function startApp(name: string, job: object): Promise<App> {
	const flags = ['--no-warnings', '--experimental-transform-types', '--import', hook];
	const child = spawn(process.execPath, [...flags, worker, JSON.stringify(job)], {
		env: { ...process.env, AUTH_URL: ORIGIN },
		stdio: ['pipe', 'pipe', 'pipe']
	});
	let stderr = '';
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	cleanups.push(async () => {
		if (child.exitCode !== null || child.signalCode !== null) return;
		const exited = once(child, 'exit');
		child.kill('SIGTERM');
		await exited;
	});
	const port = await new Promise<number>((resolve, reject) => {
		let stdout = '';
		child.stdout.on('data', (chunk: Buffer) => {
			stdout += chunk.toString();
			const lines = stdout.split('\n', 2);
			if (lines.length === 2) resolve((JSON.parse(lines[0]!) as { port: number }).port);
		});
		child.once('exit', (code, signal) => reject(new Error(`app ${name} exited (${code ?? signal}) before listening:\n${stderr}`)));
	});
	return { name, origin: `http://127.0.0.1:${port}`, child, stderr: () => stderr };
}

/** How late each app's timer fired since the last ask: the longest its event loop was blocked. */
async function lags(apps: App[]): Promise<Record<string, number>> {
	const out: Record<string, number> = {};
	for (const app of apps) out[app.name] = ((await (await fetch(`${app.origin}/__lag`)).json()) as { lag: number }).lag;
	return out;
}

interface Store {
	/** The sessionToken column, from the test's own connection. */
	sessionRows(): Promise<string[]>;
	/** User rows: total and distinct emails; session rows pointing at no user. */
	userCheck(): Promise<{ users: number; emails: number; dangling: number }>;
	/** The ways it goes away, one after the other. */
	outages: Outage[];
}

interface Outage {
	name: string;
	down(): Promise<void>;
	up(): Promise<void>;
}

/** When each outage began and ended (ms since the epoch; open while it lasts). */
type Timeline = { downAt: number; upAt: number }[];

/** Whether a request from `started` to `ended` overlapped an outage (or its recovery grace). */
function spansOutage(timeline: Timeline, started: number, ended: number): boolean {
	return timeline.some(({ downAt, upAt }) => ended >= downAt && started < upAt + RECOVERY_GRACE_MS);
}

/** What happened, for the final count and the report. */
interface Ledger {
	signedIn: Map<string, { lane: number; user: number }>;
	signedOut: Set<string>;
	counts: Record<string, number>;
	violations: string[];
	/** Successes per app after the store came back (plus the grace). */
	recovered: Record<string, number>;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * One browser lane: sign a user in, read the session a few times, sign out (most of the time),
 * again and again until `stop`; each request to a random app.
 */
async function lane(index: number, apps: App[], timeline: Timeline, ledger: Ledger, stop: { now: boolean }): Promise<void> {
	for (let round = 0; !stop.now; round++) {
		const user = index * USERS_PER_LANE + (round % USERS_PER_LANE);
		let target = apps[0]!;
		const client = new TestClient(
			async (request) => {
				target = apps[Math.floor(Math.random() * apps.length)]!;
				const url = new URL(request.url);
				const body = request.method === 'GET' ? undefined : await request.arrayBuffer();
				return fetch(`${target.origin}${url.pathname}${url.search}`, {
					method: request.method,
					headers: request.headers,
					body,
					redirect: 'manual',
					signal: AbortSignal.timeout(REQUEST_BOUND_MS)
				});
			},
			{ origin: ORIGIN }
		);
		/** Runs one step; classifies its answer as the phase it spanned allows. */
		const step = async (what: string, run: () => Promise<Response>, ok: (res: Response, text: string) => boolean): Promise<{ res: Response; text: string; success: boolean } | undefined> => {
			const started = Date.now();
			let res: Response;
			let text: string;
			try {
				res = await run();
				text = await res.text();
			} catch (error) {
				ledger.violations.push(`${what} (lane ${index}, ${target.name}): no answer: ${String(error)}`);
				return undefined;
			}
			const ended = Date.now();
			const mustSucceed = !spansOutage(timeline, started, ended);
			const success = ok(res, text);
			const unavailable = res.status === 503 && res.headers.has('retry-after') && (/unavailable/i.test(text));
			const key = `${what} ${success ? 'ok' : res.status}${mustSucceed ? '' : ' (outage)'}`;
			ledger.counts[key] = (ledger.counts[key] ?? 0) + 1;
			const last = timeline.at(-1);
			if (success && last && started >= last.upAt + RECOVERY_GRACE_MS) ledger.recovered[target.name] = (ledger.recovered[target.name] ?? 0) + 1;
			if (!success && (mustSucceed || !unavailable)) {
				ledger.violations.push(`${what} (lane ${index}, ${target.name}, ${mustSucceed ? 'store up' : 'outage'}): ${res.status} ${res.headers.get('location') ?? ''} ${text.slice(0, 200)}`);
			}
			// Under any of its names (an https answer would name it `__Host-`): none without a sign-in.
			const granted = sessionCookiesGranted(res, SESSION_COOKIE);
			if (granted.length && !(what === 'sign-in' && success)) ledger.violations.push(`${what} (lane ${index}): a session cookie with status ${res.status}`);
			return { res, text, success };
		};

		const signIn = await step(
			'sign-in',
			() => client.signInWithCredentials('credentials', { username: `soak-${user}`, password: `pw-${user}` }),
			(res) => res.status === 302 && res.headers.get('location') === ORIGIN && setCookies(res).some((c) => c.name === SESSION_COOKIE && !isDeletion(c))
		);
		const token = signIn?.success ? client.cookie(SESSION_COOKIE) : undefined;
		if (!token) continue;
		ledger.signedIn.set(token, { lane: index, user });
		for (let read = 0; read < 3 && !stop.now; read++) {
			await step(
				'session read',
				() => client.get('session'),
				(res, text) => {
					if (res.status !== 200) return false;
					const session = JSON.parse(text) as { user?: { email?: string } } | null;
					// A live session read as none, or as someone else's, is never right.
					if (session?.user?.email !== `soak-${user}@example.com`) ledger.violations.push(`session read (lane ${index}): ${text.slice(0, 200)} for soak-${user}`);
					return true;
				}
			);
		}
		if (round % 4 === 3) continue; // some sessions stay
		const out = await step(
			'sign-out',
			() => client.postForm('signout'),
			(res) => res.status === 302 && setCookies(res).some((c) => c.name === SESSION_COOKIE && isDeletion(c))
		);
		if (out?.success) ledger.signedOut.add(token);
	}
}

async function soak(store: Store, apps: App[]): Promise<{ ledger: Ledger; lag: Record<string, Record<string, number>> }> {
	const ledger: Ledger = { signedIn: new Map(), signedOut: new Set(), counts: {}, violations: [], recovered: {} };
	const timeline: Timeline = [];
	const stop = { now: false };
	const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
	await lags(apps);
	const lanes = Array.from({ length: LANES }, (_, index) => lane(index, apps, timeline, ledger, stop));
	const lag: Record<string, Record<string, number>> = {};
	await pause(BEFORE_MS);
	lag.before = await lags(apps);
	const logsBefore = apps.map((app) => app.stderr());
	for (const outage of store.outages) {
		const window = { downAt: Date.now(), upAt: Number.POSITIVE_INFINITY };
		timeline.push(window);
		await outage.down();
		await pause(DOWN_MS);
		await outage.up();
		window.upAt = Date.now();
		lag[outage.name] = await lags(apps);
		await pause(AFTER_MS);
	}
	stop.now = true;
	await Promise.all(lanes);
	lag.after = await lags(apps);
	// Nothing logged while the store was there; every refusal during the outage logged.
	expect(logsBefore, 'errors logged before the outage').toEqual(apps.map(() => ''));
	const logged = apps.flatMap((app) => app.stderr().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { name: string }));
	const refused = Object.entries(ledger.counts).filter(([key]) => / 503 /.test(key)).reduce((sum, [, n]) => sum + n, 0);
	expect(logged.length, 'errors logged during the outage').toBeGreaterThanOrEqual(refused);
	for (const entry of logged) expect(entry.name).toBe('AdapterError');
	return { ledger, lag };
}

/** The final count, from the store's own rows. */
async function account(store: Store, ledger: Ledger): Promise<void> {
	const live = [...ledger.signedIn.keys()].filter((token) => !ledger.signedOut.has(token));
	const rows = await store.sessionRows();
	const expected = live.map(sha256).sort();
	const missing = expected.filter((hash) => !rows.includes(hash));
	const orphans = rows.filter((hash) => !expected.includes(hash));
	expect({ missing: missing.length, orphans: orphans.length, duplicates: rows.length - new Set(rows).size }).toEqual({ missing: 0, orphans: 0, duplicates: 0 });
	expect(rows.sort()).toEqual(expected);
	const users = await store.userCheck();
	expect(users.users).toBe(users.emails);
	expect(users.dangling).toBe(0);
}

function summary(name: string, ledger: Ledger, lag: Record<string, Record<string, number>>): string {
	return `${name}: ${ledger.signedIn.size} sign-ins, ${ledger.signedOut.size} sign-outs; ${JSON.stringify(ledger.counts)}; recovered ${JSON.stringify(ledger.recovered)}; event-loop lag ms ${JSON.stringify(lag)}`;
}

describe('soak: two processes, one store, the store gone midway', () => {
	test(`libSQL file (another process holds its write lock for ${DOWN_MS / 1000} s, later the WAL index for ${DOWN_MS / 1000} s)`, { timeout: TIMEOUT_MS }, async () => {
		const database = tempDatabase('kitauth-soak-');
		cleanups.push(() => database.remove());
		const setup = createClient({ url: database.url });
		await migrate(setup);
		const check = createClient({ url: database.url });
		cleanups.push(() => check.close());
		setup.close();
		/** Another process holds a lock on the file from `down` until `up`. */
		const holding = (name: string, take: () => Promise<Release>): Outage => {
			let release: Release | undefined;
			return {
				name,
				down: async () => {
					release = await take();
					cleanups.push(release);
				},
				up: () => release!()
			};
		};
		const store: Store = {
			async sessionRows() {
				const { rows } = await check.execute('SELECT sessionToken FROM "session"');
				return rows.map((row) => String(row['sessionToken']));
			},
			async userCheck() {
				const { rows } = await check.execute('SELECT (SELECT count(*) FROM "user") AS users, (SELECT count(DISTINCT email) FROM "user") AS emails, (SELECT count(*) FROM "session" s LEFT JOIN "user" u ON u.id = s.userId WHERE u.id IS NULL) AS dangling');
				const row = rows[0]!;
				return { users: Number(row['users']), emails: Number(row['emails']), dangling: Number(row['dangling']) };
			},
			outages: [holding('write lock', () => holdWriteLock(database.path, 'immediate')), holding('read marks', () => holdReadMarks(database.path))]
		};
		// B runs every call off the main thread (`alwaysOffThread`): its event loop never waits for
		// SQLite, not even in the moment before the watch notices the read marks (A's may, see above).
		const job = { store: 'libsql', url: database.url, busyTimeout: 1000 };
		const apps = await Promise.all([startApp('A', job), startApp('B', { ...job, alwaysOffThread: true })]);
		const { ledger, lag } = await soak(store, apps);
		console.info(summary('libSQL', ledger, lag));
		for (const [phase, byApp] of Object.entries(lag)) expect(byApp['B'], `B's event loop blocked during "${phase}"`).toBeLessThan(LAG_BOUND_MS);
		expect(ledger.violations.slice(0, 20)).toEqual([]);
		for (const app of apps) expect(ledger.recovered[app.name] ?? 0, `${app.name} serves again`).toBeGreaterThan(0);
		await account(store, ledger);
	});

	test(`PostgreSQL (the cluster shut down for ${DOWN_MS / 1000} s)`, { timeout: TIMEOUT_MS }, async () => {
		const cluster = await startPostgres();
		cleanups.push(() => cluster.stop());
		const admin = new pg.Pool({ connectionString: cluster.connectionString, max: 2 });
		admin.on('error', () => {});
		cleanups.push(() => admin.end());
		for (const statement of await authSchemaDDL()) await admin.query(statement);
		const store: Store = {
			async sessionRows() {
				return (await admin.query<{ sessionToken: string }>('SELECT "sessionToken" FROM "session"')).rows.map((row) => row.sessionToken);
			},
			async userCheck() {
				const { rows } = await admin.query<{ users: string; emails: string; dangling: string }>(
					'SELECT (SELECT count(*) FROM "user") AS users, (SELECT count(DISTINCT email) FROM "user") AS emails, (SELECT count(*) FROM "session" s LEFT JOIN "user" u ON u.id = s."userId" WHERE u.id IS NULL) AS dangling'
				);
				return { users: Number(rows[0]!.users), emails: Number(rows[0]!.emails), dangling: Number(rows[0]!.dangling) };
			},
			outages: [{ name: 'shut down', down: () => cluster.halt(), up: () => cluster.start() }]
		};
		const job = { store: 'postgres', url: cluster.connectionString };
		const apps = await Promise.all([startApp('A', job), startApp('B', job)]);
		const { ledger, lag } = await soak(store, apps);
		console.info(summary('PostgreSQL', ledger, lag));
		expect(ledger.violations.slice(0, 20)).toEqual([]);
		for (const app of apps) expect(ledger.recovered[app.name] ?? 0, `${app.name} serves again`).toBeGreaterThan(0);
		await account(store, ledger);
	});
});
