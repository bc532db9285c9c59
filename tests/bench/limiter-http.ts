/**
 * The rate limiter's cost on a sign-in over HTTP, as an app serves it: tests/bench-app's `jwt`
 * build (limiter counters in the memory store) and `libsql` build (database sessions, counters in
 * the libSQL adapter's file), each started twice — limiter on, with budgets no bench reaches (every
 * attempt pays for its checks, none is refused), and off — and sent complete credentials sign-ins
 * (CSRF-checked POST, `authorize()` without password hashing, session issued, 302) in interleaved
 * rounds: requests per second and the server's CPU time per sign-in, on against off.
 *
 * On this 2-core machine those ratios swing ±15 % from round to round (autocannon shares the CPU),
 * too much to resolve a cost of a few percent. So the verdict weighs the limiter's own time,
 * measured in process by `limiter.ts` over thousands of sign-ins (precise to a few µs), against
 * the CPU time of a whole sign-in here with the limiter off (a steady figure): the share of a
 * sign-in the limiter costs, under this phase's load (`limiter.ts` with as many sign-ins in flight
 * as there are connections here). The target (a few percent, issue 16) applies to both stores. The
 * share of a lone sign-in (one in flight) is shown beside it: the libSQL adapter commits the
 * counter writes of one turn together, so a lone attempt pays a whole transaction, while under load
 * one commit serves many attempts.
 *
 *     npx node tests/bench/limiter-http.ts     (or through `npm run bench`)
 */
import autocannon from 'autocannon';
import { createClient } from '@libsql/client';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBenchApp, buildDir, type Variant } from './bench-app.ts';
import type { LimiterCost } from './limiter-result.ts';
import { cpuSeconds, type Server, start, turn } from './footprint.ts';
import { median } from './median.ts';

const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 9));
const DURATION = Number(process.env.BENCH_DURATION ?? 3);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ACCOUNTS = 50;
/** "At most a few percent of a sign-in" (issue 16). */
const TARGET = 0.05;

const VARIANTS: { variant: Variant; store: LimiterCost['store']; label: string }[] = [
	{ variant: 'jwt', store: 'memory', label: 'JWT sessions, memory store' },
	{ variant: 'libsql', store: 'libsql', label: 'database sessions, counters in libSQL' }
];

interface SignInServer extends Server {
	cookie: string;
	csrfToken: string;
}

interface Result {
	rps: number;
	/** Server CPU per sign-in, µs. */
	cpu: number;
	errors: number;
}

async function signInServer(variant: Variant, dir: string, limiter: 'on' | 'off'): Promise<SignInServer> {
	// adapter-node takes a request's protocol as https unless a header says otherwise.
	const server = await start(variant, dir, { BENCH_APP_LIMITER: limiter, PROTOCOL_HEADER: 'x-forwarded-proto' });
	const csrf = await fetch(`${server.origin}/auth/csrf`, { headers: { 'x-forwarded-proto': 'http' } });
	const cookie = csrf.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
	const { csrfToken } = (await csrf.json()) as { csrfToken: string };
	const signed = await signIn({ ...server, cookie, csrfToken }, 'bench@example.com');
	if (signed.status !== 302 || !signed.headers.getSetCookie().some((c) => c.startsWith('authjs.session-token='))) {
		await server.stop();
		throw new Error(`a sign-in on the bench app (${variant}, limiter ${limiter}) answered ${signed.status} without a session`);
	}
	return { ...server, cookie, csrfToken };
}

const body = (server: SignInServer, email: string) => new URLSearchParams({ csrfToken: server.csrfToken, email, password: 'bench' }).toString();
const headers = (server: SignInServer) => ({
	'content-type': 'application/x-www-form-urlencoded',
	cookie: server.cookie,
	origin: server.origin,
	'x-forwarded-proto': 'http'
});

function signIn(server: SignInServer, email: string): Promise<Response> {
	return fetch(`${server.origin}/auth/callback/credentials`, { method: 'POST', headers: headers(server), body: body(server, email), redirect: 'manual' });
}

function measure(server: SignInServer, duration: number): Promise<Result> {
	let next = 0;
	const before = cpuSeconds(server.pid);
	return new Promise((resolve, reject) => {
		autocannon(
			{
				url: `${server.origin}/auth/callback/credentials`,
				method: 'POST',
				connections: CONNECTIONS,
				duration,
				headers: headers(server),
				requests: [{ setupRequest: (request) => ({ ...request, body: body(server, `bench${next++ % ACCOUNTS}@example.com`) }) }]
			},
			(error, result) => {
				if (error) return reject(error);
				const total = result.requests.total;
				const redirected = (result.statusCodeStats as Record<string, { count: number }> | undefined)?.['302']?.count ?? 0;
				const cpu = ((cpuSeconds(server.pid) - before) * 1e6) / Math.max(1, total);
				resolve({ rps: result.requests.average, cpu, errors: result.errors + (total - redirected) });
			}
		);
	});
}

/** The limiter's counters must be in the `on` server's database, and nowhere in the `off` one's. */
async function countersIn(dir: string, server: Server): Promise<number> {
	const port = new URL(server.origin).port;
	const client = createClient({ url: `file:${join(dir, `libsql-${port}.db`)}` });
	try {
		const { rows } = await client.execute('SELECT count(*) AS n FROM "rateLimit"');
		return Number(rows[0]?.['n']);
	} finally {
		client.close();
	}
}

/**
 * Resolves to whether each store's share under load stayed within the target (with `inProcess`,
 * the results of `limiter.ts`; without, only the direct comparison is shown), with no errors.
 * `built`: the footprint phase has just built tests/bench-app.
 */
export async function limiterHttpPhase(inProcess: LimiterCost[] = [], options: { built?: boolean } = {}): Promise<boolean> {
	// A build left from an earlier run may hold older code: build unless this run just did.
	if (!options.built || !VARIANTS.every(({ variant }) => existsSync(buildDir(variant)))) {
		console.log('[limiter, HTTP] packaging kitauth and building tests/bench-app…');
		await buildBenchApp(VARIANTS.map(({ variant }) => variant));
	}
	const dir = mkdtempSync(join(tmpdir(), 'kitauth-limiter-http-'));
	const running: SignInServer[] = [];
	try {
		const pairs: { label: string; store: LimiterCost['store']; on: SignInServer; off: SignInServer }[] = [];
		for (const { variant, store, label } of VARIANTS) {
			const on = await signInServer(variant, dir, 'on');
			running.push(on);
			const off = await signInServer(variant, dir, 'off');
			running.push(off);
			pairs.push({ label, store, on, off });
		}
		const servers = pairs.flatMap(({ label, on, off }) => [
			{ key: `${label}|on`, server: on },
			{ key: `${label}|off`, server: off }
		]);
		for (const { key, server } of servers) {
			process.stdout.write(`[limiter, HTTP, warm-up] ${key} for ${WARMUP}s…\n`);
			await measure(server, WARMUP);
		}
		const rounds: Map<string, Result>[] = [];
		for (let round = 1; round <= ROUNDS; round++) {
			const results = new Map<string, Result>();
			for (const { key, server } of turn(servers, round)) {
				process.stdout.write(`[limiter, HTTP, round ${round}/${ROUNDS}] ${key} for ${DURATION}s…\n`);
				results.set(key, await measure(server, DURATION));
			}
			rounds.push(results);
		}
		const libsql = pairs.find(({ on }) => on.variant === 'libsql');
		if (libsql && ((await countersIn(dir, libsql.on)) === 0 || (await countersIn(dir, libsql.off)) !== 0)) {
			throw new Error('the limiter did not run where it was on, or ran where it was off');
		}
		let ok = true;
		const rows = pairs.map(({ label, store }) => {
			const on = rounds.map((results) => results.get(`${label}|on`)!);
			const off = rounds.map((results) => results.get(`${label}|off`)!);
			const cpuOff = median(off.map((run) => run.cpu));
			// The median ratio's share of the in-process sign-in: steadier than a difference of medians.
			const measured = (inFlight: number) => inProcess.find((cost) => cost.store === store && cost.inFlight === inFlight);
			const limiterMicros = (inFlight: number) => {
				const cost = measured(inFlight);
				return cost ? Math.round(cost.cost * cost.offMicros) : undefined;
			};
			const [loaded, lone] = [limiterMicros(CONNECTIONS), limiterMicros(1)];
			const floor = measured(CONNECTIONS)?.floorMicros;
			const percent = (micros: number | undefined) => (micros === undefined ? '' : `${((micros / cpuOff) * 100).toFixed(1)} %`);
			const errors = [...on, ...off].reduce((sum, run) => sum + run.errors, 0);
			const verdict = loaded === undefined ? '' : loaded / cpuOff <= TARGET ? `ok (≤ ${TARGET * 100} %)` : `MISSED (> ${TARGET * 100} %)`;
			if (verdict.startsWith('MISSED') || errors > 0) ok = false;
			return {
				'credentials sign-in over HTTP': label,
				'sign-ins/s, off / on': `${Math.round(median(off.map((run) => run.rps)))} / ${Math.round(median(on.map((run) => run.rps)))}`,
				'CPU µs, off / on': `${Math.round(cpuOff)} / ${Math.round(median(on.map((run) => run.cpu)))}`,
				'on ÷ off, CPU (rounds)': on.map((run, i) => (run.cpu / off[i]!.cpu).toFixed(2)).join(' '),
				[`limiter µs, ${CONNECTIONS} / 1 in flight`]: loaded === undefined ? '' : `${loaded} / ${lone ?? ''}`,
				'share of a sign-in': percent(loaded),
				'share, one at a time': percent(lone),
				"of which the store's own statements": percent(floor),
				target: verdict,
				errors
			};
		});
		console.log(
			`\nRate limiter on a sign-in over HTTP (tests/bench-app, ${CONNECTIONS} connections, medians of ${ROUNDS} interleaved rounds). ` +
				`Share: the limiter's time in process (${CONNECTIONS} sign-ins in flight, as here; and one at a time) ÷ a whole sign-in's server CPU here, limiter off:`
		);
		console.table(rows);
		return ok;
	} finally {
		for (const server of running) await server.stop();
		rmSync(dir, { recursive: true, force: true });
	}
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
	if (!(await limiterHttpPhase())) {
		console.error('The limiter phase (HTTP) missed its target or had errors.');
		process.exitCode = 1;
	}
}
