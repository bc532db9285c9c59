/**
 * `npm run bench`: starts the built demo (run `npm run build` first) and measures, with autocannon
 * on 127.0.0.1, requests per second and p50/p99 latency of session reads, each as a ratio to a
 * baseline route without auth measured in the same run. Speed lives here, never in tests.
 *
 * Scenarios are measured in interleaved rounds (every scenario once per round), and each ratio is
 * the median of its per-round ratios: on a small shared machine throughput drifts by tens of
 * percent within a minute, and a baseline measured next to its scenario drifts with it.
 *
 * Environment: BENCH_DURATION (seconds per scenario and round, default 3), BENCH_ROUNDS (default
 * 9), BENCH_WARMUP (seconds per scenario before the first round, default 3), BENCH_CONNECTIONS
 * (default 10), BENCH_PORT (default 4180), BENCH_STRATEGY (`jwt` or `database`: only that phase;
 * default both), BENCH_LIMITER (`off` skips the rate limiter's phase, `tests/bench/limiter.ts` and
 * `limiter-http.ts`; `only` runs it alone),
 * BENCH_FOOTPRINT (`off` skips the footprint phase, `tests/bench/footprint.ts`; `only` runs it
 * alone, as `npx node tests/bench/footprint.ts` does: it builds its own app and needs no demo build),
 * BENCH_POSTGRES (`off` skips the database session read on PostgreSQL, `tests/bench/postgres.ts`:
 * kitauth's adapter on both drivers against the app's own lookup and `@auth/drizzle-adapter`, and
 * the statements per read, whose target is one), BENCH_HOTPATH (`off` skips the hot-path phase,
 * `tests/bench/hotpath.ts` and `hotpath-rss.ts`: issue 33's table in process through
 * `server.respond()` against the same app without kitauth, bytes allocated per request, the physical
 * floor, the adapter calls per database sign-in, and RSS after a fixed number of requests; then,
 * unless BENCH_AUTHJS=off, the same RSS against Auth.js on SvelteKit 2 (`rss-authjs.ts`, its own
 * app tests/bench-kit2) and `authjs.ts`, kitauth's core against Auth.js's in process; and
 * `profile.ts`, where each row's CPU time goes, unless BENCH_PROFILE=off; `only` runs it alone). BENCH_QUICK=1: a quick run (fewer and shorter rounds in every phase that reads it).
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { footprintPhase } from './footprint.ts';
import { limiterHttpPhase } from './limiter-http.ts';
import { type LimiterCost, RESULT_PREFIX } from './limiter-result.ts';
import { median } from './median.ts';
import { BENCH_SECRET, databaseTokens, jwtTokens, SESSION_COOKIE } from './sessions.ts';

const PORT = Number(process.env.BENCH_PORT ?? 4180);
const QUICK = process.env.BENCH_QUICK === '1';
const DURATION = Number(process.env.BENCH_DURATION ?? (QUICK ? 2 : 3));
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? (QUICK ? 3 : 9)));
const WARMUP = Number(process.env.BENCH_WARMUP ?? (QUICK ? 1 : 3));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SECRET = BENCH_SECRET;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const SESSIONS = 1000;

interface Scenario {
	name: string;
	path: string;
	/** Cookies to rotate through, one per request (none: no cookie). */
	cookies?: string[];
	/** The scenario this one is compared with. */
	baseline: string;
	/** Minimum ratio to the baseline this issue asks for. */
	target?: number;
}

interface Result {
	rps: number;
	p50: number;
	p99: number;
	errors: number;
	non2xx: number;
}

const DATABASE_URL = `file:${join(mkdtempSync(join(tmpdir(), 'kitauth-bench-')), 'bench.db')}`;

/** Starts the built demo on one session strategy (the demo migrates its database at start-up). */
async function startDemo(strategy: 'jwt' | 'database'): Promise<ChildProcess> {
	const server = spawn(process.execPath, ['build'], {
		env: {
			...process.env,
			HOST: '127.0.0.1',
			PORT: String(PORT),
			PROTOCOL_HEADER: 'x-forwarded-proto',
			AUTH_SECRET: SECRET,
			AUTH_TRUST_HOST: 'true',
			// A load test: the documented switch that turns the sign-in limits off.
			AUTH_RATE_LIMIT: 'off',
			DATABASE_URL,
			KITAUTH_DEMO_SESSION: strategy,
			DEMO_IDP_PORT: String(PORT + 1)
		},
		stdio: ['ignore', 'inherit', 'inherit']
	});
	for (let attempt = 0; attempt < 100; attempt++) {
		try {
			if ((await fetch(`${ORIGIN}/bench/bare`)).ok) return server;
		} catch {
			// not listening yet
		}
		await sleep(100);
	}
	server.kill();
	throw new Error('The demo did not start: run `npm run build` first.');
}

/** 1,000 distinct JWT sessions, sealed by @auth/core with the demo's secret (Auth.js-compatible). */
const jwtCookies = async () => (await jwtTokens(SESSIONS, SECRET)).map((token) => `${SESSION_COOKIE}=${token}`);

/**
 * 1,000 database sessions of 1,000 users (one each, as /account lists the user's sessions), written
 * straight into the demo's database with hashed tokens, as kitauth stores them.
 */
const databaseCookies = async () => (await databaseTokens(DATABASE_URL, SESSIONS)).map((token) => `${SESSION_COOKIE}=${token}`);

async function verify(cookie: string, email: string): Promise<void> {
	const response = await fetch(`${ORIGIN}/auth/session`, { headers: { cookie, 'x-forwarded-proto': 'http' } });
	const body = (await response.json()) as { user?: { email?: string } } | null;
	if (body?.user?.email !== email) throw new Error(`The bench sessions do not read back: ${JSON.stringify(body)}`);
	// The session-read-only page must really read it (and refuse without one).
	const page = await fetch(`${ORIGIN}/bench/page?session`, { headers: { cookie, 'x-forwarded-proto': 'http' } });
	const anonymous = await fetch(`${ORIGIN}/bench/page?session`, { headers: { 'x-forwarded-proto': 'http' } });
	if (!page.ok || !(await page.text()).includes(email) || anonymous.status !== 401) {
		throw new Error(`/bench/page?session does not read the session (${page.status}, ${anonymous.status})`);
	}
}

function measure(scenario: Scenario, duration: number): Promise<Result> {
	let next = 0;
	const cookies = scenario.cookies;
	return new Promise((resolve, reject) => {
		autocannon(
			{
				url: `${ORIGIN}${scenario.path}`,
				connections: CONNECTIONS,
				duration,
				headers: { 'x-forwarded-proto': 'http' },
				requests: [
					{
						setupRequest: (request) => {
							if (!cookies) return request;
							const cookie = cookies[next++ % cookies.length] as string;
							return { ...request, headers: { ...request.headers, cookie } };
						}
					}
				]
			},
			(error, result) => {
				if (error) return reject(error);
				resolve({
					rps: result.requests.average,
					p50: result.latency.p50,
					p99: result.latency.p99,
					errors: result.errors,
					non2xx: result.non2xx
				});
			}
		);
	});
}

const BARE = 'bare route (baseline, same cookies)';
const PAGE = 'bare page (baseline, same cookies)';

/** Each strategy runs on its own server start, with its own baselines measured in that run. */
async function phase(strategy: 'jwt' | 'database'): Promise<void> {
	const server = await startDemo(strategy);
	try {
		let cookies: string[];
		if (strategy === 'jwt') {
			cookies = await jwtCookies();
			await verify(cookies[0]!, 'bench0@example.com');
		} else {
			cookies = await databaseCookies();
			await verify(cookies[0]!, 'bench0@example.com');
		}
		const label = strategy === 'jwt' ? 'JWT' : 'database';
		const scenarios: Scenario[] = [
			// The baselines get the same rotating cookies: the client then does the same work and
			// sends the same bytes in every scenario (autocannon shares the 2 cores with the server),
			// and a browser sends its cookies to every page anyway. They read no session.
			{ name: BARE, path: '/bench/bare', cookies, baseline: BARE },
			{ name: 'GET /auth/session, no cookie', path: '/auth/session', baseline: BARE },
			{ name: `GET /auth/session, ${label} (1000 rotating)`, path: '/auth/session', cookies, baseline: BARE, target: strategy === 'jwt' ? 0.5 : undefined },
			{ name: PAGE, path: '/bench/page', cookies, baseline: PAGE },
			// No target: /account's page with its session read but none of its database lookups,
			// which tells the session read's share of /account's cost from the lookups'.
			{ name: `same page, ${label} session read only`, path: '/bench/page?session', cookies, baseline: PAGE },
			{ name: `/account, ${label} session`, path: '/account', cookies, baseline: PAGE, target: strategy === 'jwt' ? 0.7 : 0.6 }
		];
		// Unrecorded warm-up: the first seconds of a route run in V8's unoptimized tiers, and the
		// first round would otherwise pay for that in whichever scenario comes first.
		for (const scenario of scenarios) {
			process.stdout.write(`[${label}, warm-up] ${scenario.name} for ${WARMUP}s…\n`);
			await measure(scenario, WARMUP);
		}
		const rounds: Map<string, Result>[] = [];
		for (let round = 1; round <= ROUNDS; round++) {
			const results = new Map<string, Result>();
			// Every other round runs backwards, so a drift of the machine's speed within a round
			// does not always favour the baseline measured before its scenario.
			for (const scenario of round % 2 ? scenarios : [...scenarios].reverse()) {
				process.stdout.write(`[${label}, round ${round}/${ROUNDS}] measuring ${scenario.name} for ${DURATION}s…\n`);
				results.set(scenario.name, await measure(scenario, DURATION));
			}
			rounds.push(results);
		}
		console.log(`\n${label} sessions (server started with KITAUTH_DEMO_SESSION=${strategy}), medians of ${ROUNDS} rounds:`);
		report(scenarios, rounds);
	} finally {
		// The next phase needs the ports: wait for this server to be gone (forcefully after 5 s).
		const exited = new Promise((resolve) => server.once('exit', resolve));
		server.kill();
		const force = setTimeout(() => server.kill('SIGKILL'), 5000);
		await exited;
		clearTimeout(force);
	}
}

async function main(): Promise<void> {
	const only = process.env.BENCH_STRATEGY;
	if (only !== undefined && only !== 'jwt' && only !== 'database') throw new Error('BENCH_STRATEGY is `jwt` or `database`.');
	const footprint = process.env.BENCH_FOOTPRINT ?? 'on';
	if (!['on', 'off', 'only'].includes(footprint)) throw new Error('BENCH_FOOTPRINT is `on`, `off` or `only`.');
	const hotpath = process.env.BENCH_HOTPATH ?? 'on';
	if (!['on', 'off', 'only'].includes(hotpath)) throw new Error('BENCH_HOTPATH is `on`, `off` or `only`.');
	if (hotpath === 'only') return hotpathPhase();
	if (process.env.BENCH_LIMITER === 'only') {
		if (!(await limiterPhase(false))) process.exitCode = 1;
		return;
	}
	if (footprint !== 'only') {
		if (only !== 'database') await phase('jwt');
		if (only !== 'jwt') await phase('database');
	}
	if (footprint !== 'off' && !(await footprintPhase())) {
		console.error('The footprint phase missed a target or had errors.');
		process.exitCode = 1;
	}
	if (footprint !== 'only' && process.env.BENCH_POSTGRES !== 'off' && !(await scriptPhase('./postgres.ts'))) {
		console.error('The PostgreSQL phase missed its target or had errors.');
		process.exitCode = 1;
	}
	// After the footprint phase, whose builds of tests/bench-app it reuses.
	if (footprint !== 'only' && hotpath !== 'off') await hotpathPhase(footprint !== 'off');
	// After the footprint phase, whose build of tests/bench-app it uses.
	if (footprint !== 'only' && process.env.BENCH_LIMITER !== 'off' && !(await limiterPhase(footprint !== 'off'))) {
		console.error('The limiter phase missed its target or had errors.');
		process.exitCode = 1;
	}
}

/**
 * The rate limiter's cost on the credentials path: in process (`limiter.ts`, in a process of its
 * own: it imports the library's sources), then weighed against a sign-in over HTTP
 * (`limiter-http.ts`).
 */
async function limiterPhase(built: boolean): Promise<boolean> {
	const hook = new URL('../support/ts-svelte-import-hook.ts', import.meta.url).pathname;
	const script = new URL('./limiter.ts', import.meta.url).pathname;
	const child = spawn(process.execPath, ['--no-warnings', '--experimental-transform-types', '--import', hook, script], {
		stdio: ['ignore', 'pipe', 'inherit'],
		env: { ...process.env, BENCH_LIMITER_RESULT: 'line' }
	});
	let output = '';
	child.stdout!.on('data', (chunk: Buffer) => {
		output += chunk.toString();
		process.stdout.write(chunk);
	});
	const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
	if (code !== 0) throw new Error(`the limiter bench failed (${code})`);
	const line = output.split('\n').find((text) => text.startsWith(RESULT_PREFIX));
	if (!line) throw new Error('the limiter bench printed no result');
	return limiterHttpPhase(JSON.parse(line.slice(RESULT_PREFIX.length)) as LimiterCost[], { built });
}

/**
 * Issue 33's hot path: `hotpath.ts` in a process of its own (it loads the bench app's builds and
 * the library's sources, with `--expose-gc`), then RSS after a fixed number of requests over HTTP,
 * then kitauth against Auth.js (RSS in `rss-authjs.ts`, the cores in `authjs.ts`) and the CPU
 * profile of each row (`profile.ts`).
 */
async function hotpathPhase(built = false): Promise<void> {
	if (built) process.env.BENCH_FOOTPRINT_BUILD = 'skip';
	if (!(await scriptPhase('./hotpath.ts'))) throw new Error('the hot-path bench failed');
	const { rssPhase } = await import('./hotpath-rss.ts');
	await rssPhase();
	if (process.env.BENCH_AUTHJS !== 'off') {
		const { rssAuthJsPhase } = await import('./rss-authjs.ts');
		const [rss, cores] = [await rssAuthJsPhase(), await scriptPhase('./authjs.ts')];
		if (!rss || !cores) {
			console.error('kitauth missed a target against Auth.js (RSS, or its core in process), or the comparison failed.');
			process.exitCode = 1;
		}
	}
	if (process.env.BENCH_PROFILE !== 'off' && !(await scriptPhase('./profile.ts'))) throw new Error('the profile bench failed');
}

/**
 * A bench script of its own (it imports the library's sources), in a process of its own: its
 * output shown as it comes; true when it exits 0 (its targets met).
 */
async function scriptPhase(path: string): Promise<boolean> {
	const hook = new URL('../support/ts-svelte-import-hook.ts', import.meta.url).pathname;
	const script = new URL(path, import.meta.url).pathname;
	const child = spawn(process.execPath, ['--no-warnings', '--experimental-transform-types', '--import', hook, script], { stdio: 'inherit' });
	return (await new Promise<number | null>((resolve) => child.once('exit', resolve))) === 0;
}

function report(scenarios: Scenario[], rounds: Map<string, Result>[]): void {
	const rows = scenarios.map((scenario) => {
		const runs = rounds.map((results) => results.get(scenario.name)!);
		const ratios = rounds.map((results) => results.get(scenario.name)!.rps / results.get(scenario.baseline)!.rps);
		const ratio = median(ratios);
		const verdict = scenario.target === undefined ? '' : ratio >= scenario.target ? `ok (≥ ${scenario.target}×)` : `MISSED (< ${scenario.target}×)`;
		return {
			scenario: scenario.name,
			'req/s': Math.round(median(runs.map((r) => r.rps))),
			'p50 ms': median(runs.map((r) => r.p50)),
			'p99 ms': median(runs.map((r) => r.p99)),
			'× baseline': ratio.toFixed(2),
			'rounds': ratios.map((r) => r.toFixed(2)).join(' '),
			target: verdict,
			errors: runs.reduce((sum, r) => sum + r.errors + r.non2xx, 0)
		};
	});
	console.table(rows);
	const missed = rows.filter((row) => row.target.startsWith('MISSED') || row.errors > 0);
	if (missed.length) {
		console.error(`${missed.length} scenario(s) missed a target or had errors.`);
		process.exitCode = 1;
	}
}

await main();
