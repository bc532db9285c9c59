/**
 * The footprint phase of `npm run bench`: what kitauth costs an app on routes that never read the
 * session. The same minimal SvelteKit app (tests/bench-app: a page and a `+server` route) is built
 * per hook variant (`none`, `hook`, `jwt`, `libsql`: tests/bench/bench-app.ts) against kitauth as
 * published, and served by adapter-node in child processes on this Node. The targets apply to
 * `jwt` (kitauth's hook and nothing else) against `none` (the app with the hook removed); `libsql`
 * adds the database engine an app with that adapter carries, and `hook` what any hook costs
 * SvelteKit.
 *
 * - Idle RSS: every variant started `BENCH_FOOTPRINT_STARTS` times (side by side, in alternating
 *   order), warmed up with sequential requests, left idle for a second, then VmRSS sampled; each
 *   start counts its samples' median, the table the medians over starts of the values and of the
 *   differences to `none` of the same start. (Sequential requests: after a load test V8 keeps the
 *   heap it grew under load, garbage included, up to hundreds of MiB that owe little to the code.)
 * - Per request over HTTP, the target's measure: autocannon on 127.0.0.1 in interleaved rounds
 *   (every route and variant once per round, every other round in reverse order); the ratio to
 *   `none` is the median of the per-round ratios, as in run.ts. Beside requests per second, the
 *   server's CPU time per request (utime + stime from /proc over the same seconds). (Timing
 *   `server.respond()` in process instead, without sockets, was no steadier: builds that differ by
 *   one hook differ by a few µs either way, from one process to the next.)
 *
 *     npx node tests/bench/footprint.ts      (or `npm run bench`; `BENCH_FOOTPRINT=only` runs only this)
 *
 * Environment: BENCH_FOOTPRINT_STARTS (default 3), BENCH_ROUNDS (9), BENCH_DURATION (3 s),
 * BENCH_WARMUP (3 s), BENCH_CONNECTIONS (10), BENCH_FOOTPRINT_BUILD (`skip` reuses earlier builds),
 * BENCH_QUICK=1 (1 start, 3 rounds of 2 s).
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { BENCH_APP, buildBenchApp, buildDir, VARIANTS, type Variant } from './bench-app.ts';
import { freePort } from '../sveltekit/kit-app-server.ts';
import { median } from './median.ts';

const QUICK = process.env.BENCH_QUICK === '1';
const STARTS = Math.max(1, Number(process.env.BENCH_FOOTPRINT_STARTS ?? (QUICK ? 1 : 3)));
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? (QUICK ? 3 : 9)));
const DURATION = Number(process.env.BENCH_DURATION ?? (QUICK ? 2 : 3));
const WARMUP = Number(process.env.BENCH_WARMUP ?? (QUICK ? 1 : 3));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SECRET = 'bench-secret-0123456789abcdef0123456789abcdef';
const SAMPLES = 5;
const WARMUP_REQUESTS = 200;
/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on Linux). */
const TICKS = 100;

/** The issue's targets, for `jwt` against `none`: at most 10 MiB more idle RSS, at most 3 % per request. */
const TARGETED: Variant = 'jwt';
const RSS_TARGET_MIB = 10;
const RATE_TARGET = 0.97;

const ROUTES = [
	{ name: 'page /', path: '/' },
	{ name: 'route /api', path: '/api' }
];

/** An adapter-node build served in a child process. */
export interface Running {
	origin: string;
	pid: number;
	stop: () => Promise<void>;
}

export interface Server extends Running {
	variant: Variant;
}

const range = (values: number[], digits: number) => `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;

/** Every other round in reverse order, so a drift of the machine's speed favours no one. */
export const turn = <T>(items: readonly T[], round: number): T[] => (round % 2 ? [...items] : [...items].reverse());

/** This process's environment without what would change the servers' behaviour, plus the secret. */
function serverEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { ...process.env };
	for (const name of Object.keys(env)) if (/^(AUTH_|NODE_ENV$|NODE_OPTIONS$|ORIGIN$|PORT$|HOST$)/.test(name)) delete env[name];
	return { ...env, AUTH_SECRET: SECRET, AUTH_TRUST_HOST: 'true', ...extra };
}

/** Starts a build of the bench app on a free port (`extra`: more environment, e.g. `BENCH_APP_LIMITER`). */
export async function start(variant: Variant, dir: string, extra: Record<string, string> = {}): Promise<Server> {
	const env = (port: number) => ({ BENCH_APP_DATABASE_URL: `file:${join(dir, `${variant}-${port}.db`)}`, ...extra });
	return { variant, ...(await serve(buildDir(variant), BENCH_APP, `the bench app (${variant})`, env)) };
}

/**
 * Serves an adapter-node build (`node <out>`, run in `cwd`) on a free port, with the secret and
 * `env(port)` in its environment; resolves once its `GET /api` answers 200.
 */
export async function serve(out: string, cwd: string, name: string, env: (port: number) => Record<string, string> = () => ({})): Promise<Running> {
	const port = await freePort();
	const origin = `http://127.0.0.1:${port}`;
	const child = spawn(process.execPath, [out], {
		cwd,
		env: serverEnv({ HOST: '127.0.0.1', PORT: String(port), ...env(port) }),
		stdio: ['ignore', 'ignore', 'inherit']
	});
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const stop = async () => {
		if (child.exitCode === null && child.signalCode === null) child.kill();
		await exited;
	};
	for (let attempt = 0; attempt < 300 && child.exitCode === null; attempt++) {
		if (await fetch(`${origin}/api`).then((res) => res.ok, () => false)) return { origin, pid: child.pid!, stop };
		await sleep(50);
	}
	await stop();
	throw new Error(`${name} did not start`);
}

/** VmRSS of a process, in MiB (Linux). */
export function rssMiB(pid: number): number {
	const kB = Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
	if (!kB) throw new Error(`no VmRSS for ${pid}`);
	return kB / 1024;
}

/** CPU seconds (user + system) a process has used (Linux). */
export function cpuSeconds(pid: number): number {
	const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
	// The fields after the parenthesised command name start at the 3rd; utime and stime are the 14th and 15th.
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

/**
 * Starts every variant (adding each to `running`, which the caller stops), warms each up with
 * sequential requests on both routes, then samples idle RSS.
 */
async function startAll(dir: string, cycle: number, running: Server[]): Promise<Map<Variant, number>> {
	for (const variant of turn(VARIANTS, cycle)) running.push(await start(variant, dir));
	for (const server of running) {
		for (const route of ROUTES) {
			for (let i = 0; i < WARMUP_REQUESTS; i++) {
				const response = await fetch(`${server.origin}${route.path}`);
				await response.arrayBuffer();
				if (!response.ok) throw new Error(`${server.variant} ${route.path}: ${response.status}`);
			}
		}
	}
	await sleep(1000);
	const samples = new Map<Variant, number[]>(VARIANTS.map((variant) => [variant, []]));
	for (let i = 0; i < SAMPLES; i++) {
		for (const server of running) samples.get(server.variant)!.push(rssMiB(server.pid));
		await sleep(200);
	}
	return new Map([...samples].map(([variant, values]) => [variant, median(values)]));
}

async function stopAll(running: Server[]): Promise<void> {
	await Promise.all(running.splice(0).map((server) => server.stop()));
}

/** Idle RSS over several starts; the last start's servers are left running (in `running`). */
async function idlePhase(dir: string, running: Server[]): Promise<boolean> {
	const starts: Map<Variant, number>[] = [];
	for (let cycle = 1; cycle <= STARTS; cycle++) {
		await stopAll(running);
		process.stdout.write(`[footprint, start ${cycle}/${STARTS}] ${VARIANTS.join(', ')}: ${WARMUP_REQUESTS} requests per route, then idle RSS…\n`);
		starts.push(await startAll(dir, cycle, running));
	}
	let ok = true;
	const rows = VARIANTS.map((variant) => {
		const values = starts.map((rss) => rss.get(variant)!);
		const deltas = starts.map((rss) => rss.get(variant)! - rss.get('none')!);
		const delta = median(deltas);
		let target = '';
		if (variant === TARGETED) {
			ok = delta <= RSS_TARGET_MIB;
			target = ok ? `ok (≤ ${RSS_TARGET_MIB} MiB)` : `MISSED (> ${RSS_TARGET_MIB} MiB)`;
		}
		return {
			variant,
			'RSS MiB': median(values).toFixed(1),
			starts: values.map((value) => value.toFixed(1)).join(' '),
			'Δ none MiB': variant === 'none' ? '' : delta.toFixed(1),
			'Δ spread': variant === 'none' ? '' : range(deltas, 1),
			target
		};
	});
	console.log(`\nFootprint: idle RSS after start and ${WARMUP_REQUESTS} requests per route (each start: median of ${SAMPLES} samples; medians of ${STARTS} starts):`);
	console.table(rows);
	return ok;
}

interface Result {
	rps: number;
	p50: number;
	p99: number;
	/** Server CPU microseconds per completed request. */
	cpu: number;
	errors: number;
}

function measure(server: Server, path: string, duration: number): Promise<Result> {
	const before = cpuSeconds(server.pid);
	return new Promise((resolve, reject) => {
		autocannon({ url: `${server.origin}${path}`, connections: CONNECTIONS, duration }, (error, result) => {
			if (error) return reject(error);
			const cpu = ((cpuSeconds(server.pid) - before) * 1e6) / Math.max(1, result.requests.total);
			resolve({ rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpu, errors: result.errors + result.non2xx });
		});
	});
}

/** Requests per second (and server CPU per request) over HTTP, in interleaved rounds. */
async function httpPhase(servers: Server[]): Promise<boolean> {
	const of = new Map(servers.map((server) => [server.variant, server]));
	const pairs = ROUTES.flatMap((route) => VARIANTS.map((variant) => ({ route, variant, key: `${route.name}|${variant}`, server: of.get(variant)! })));
	for (const { route, variant, server } of pairs) {
		process.stdout.write(`[footprint, warm-up] ${route.name}, ${variant} for ${WARMUP}s…\n`);
		await measure(server, route.path, WARMUP);
	}
	const rounds: Map<string, Result>[] = [];
	for (let round = 1; round <= ROUNDS; round++) {
		const results = new Map<string, Result>();
		for (const { route, variant, key, server } of turn(pairs, round)) {
			process.stdout.write(`[footprint, round ${round}/${ROUNDS}] ${route.name}, ${variant} for ${DURATION}s…\n`);
			results.set(key, await measure(server, route.path, DURATION));
		}
		rounds.push(results);
	}
	let ok = true;
	const rows = pairs.map(({ route, variant, key }) => {
		const runs = rounds.map((results) => results.get(key)!);
		const base = rounds.map((results) => results.get(`${route.name}|none`)!);
		const ratios = runs.map((run, i) => run.rps / base[i]!.rps);
		const cpuRatios = runs.map((run, i) => run.cpu / base[i]!.cpu);
		const ratio = median(ratios);
		const errors = runs.reduce((sum, run) => sum + run.errors, 0);
		const target = variant !== TARGETED ? '' : ratio >= RATE_TARGET ? `ok (≥ ${RATE_TARGET}×)` : `MISSED (< ${RATE_TARGET}×)`;
		if (target.startsWith('MISSED') || errors > 0) ok = false;
		return {
			route: route.name,
			variant,
			'req/s': Math.round(median(runs.map((run) => run.rps))),
			'p50 ms': median(runs.map((run) => run.p50)),
			'p99 ms': median(runs.map((run) => run.p99)),
			'× none': ratio.toFixed(3),
			spread: range(ratios, 2),
			'CPU µs/req': median(runs.map((run) => run.cpu)).toFixed(0),
			'CPU × none': median(cpuRatios).toFixed(3),
			'CPU spread': range(cpuRatios, 2),
			target,
			errors
		};
	});
	console.log(`\nFootprint: routes that read no session over HTTP, medians of ${ROUNDS} interleaved rounds (req/s: the target's measure; the server's CPU time per request beside it):`);
	console.table(rows);
	return ok;
}

/** The whole phase; resolves to whether `jwt` met both targets with no errors. */
export async function footprintPhase(): Promise<boolean> {
	if (process.env.BENCH_FOOTPRINT_BUILD !== 'skip' || !VARIANTS.every((variant) => existsSync(buildDir(variant)))) {
		console.log('[footprint] packaging kitauth and building tests/bench-app once per variant…');
		await buildBenchApp(VARIANTS);
	}
	const dir = mkdtempSync(join(tmpdir(), 'kitauth-footprint-'));
	const running: Server[] = [];
	try {
		const idle = await idlePhase(dir, running);
		const http = await httpPhase(running);
		return idle && http;
	} finally {
		await stopAll(running);
		rmSync(dir, { recursive: true, force: true });
	}
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
	if (!(await footprintPhase())) {
		console.error('The footprint phase missed a target or had errors.');
		process.exitCode = 1;
	}
}
