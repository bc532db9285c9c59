/**
 * `npm run bench`: starts the built demo (run `npm run build` first) and measures, with autocannon
 * on 127.0.0.1, requests per second and p50/p99 latency of session reads, each as a ratio to a
 * baseline route without auth measured in the same run. Speed lives here, never in tests.
 *
 * Environment: BENCH_DURATION (seconds per scenario, default 10), BENCH_CONNECTIONS (default 10),
 * BENCH_PORT (default 4180).
 */
import autocannon from 'autocannon';
import { encode } from '@auth/core/jwt';
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

const PORT = Number(process.env.BENCH_PORT ?? 4180);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SECRET = 'bench-secret-0123456789abcdef0123456789abcdef';
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

async function startDemo(): Promise<ChildProcess> {
	const server = spawn(process.execPath, ['build'], {
		env: {
			...process.env,
			HOST: '127.0.0.1',
			PORT: String(PORT),
			PROTOCOL_HEADER: 'x-forwarded-proto',
			AUTH_SECRET: SECRET,
			AUTH_TRUST_HOST: 'true'
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
async function jwtCookies(): Promise<string[]> {
	const cookies: string[] = [];
	for (let i = 0; i < SESSIONS; i++) {
		const token = await encode({
			token: { name: `Bench User ${i}`, email: `bench${i}@example.com`, sub: `bench-${i}` },
			secret: SECRET,
			salt: 'authjs.session-token'
		});
		cookies.push(`authjs.session-token=${token}`);
	}
	return cookies;
}

function measure(scenario: Scenario): Promise<Result> {
	let next = 0;
	const cookies = scenario.cookies;
	return new Promise((resolve, reject) => {
		autocannon(
			{
				url: `${ORIGIN}${scenario.path}`,
				connections: CONNECTIONS,
				duration: DURATION,
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

async function main(): Promise<void> {
	const server = await startDemo();
	try {
		const jwt = await jwtCookies();
		const check = await fetch(`${ORIGIN}/auth/session`, { headers: { cookie: jwt[0]!, 'x-forwarded-proto': 'http' } });
		const body = (await check.json()) as { user?: { email?: string } } | null;
		if (body?.user?.email !== 'bench0@example.com') throw new Error(`The bench sessions do not read back: ${JSON.stringify(body)}`);

		const scenarios: Scenario[] = [
			{ name: 'bare route (baseline)', path: '/bench/bare', baseline: 'bare route (baseline)' },
			{ name: 'GET /auth/session, no cookie', path: '/auth/session', baseline: 'bare route (baseline)' },
			{ name: 'GET /auth/session, JWT (1000 rotating)', path: '/auth/session', cookies: jwt, baseline: 'bare route (baseline)', target: 0.5 },
			{ name: 'bare page (baseline)', path: '/bench/page', baseline: 'bare page (baseline)' },
			{ name: '/account, JWT session', path: '/account', cookies: jwt, baseline: 'bare page (baseline)', target: 0.7 }
		];
		const results = new Map<string, Result>();
		for (const scenario of scenarios) {
			process.stdout.write(`measuring ${scenario.name} for ${DURATION}s…\n`);
			results.set(scenario.name, await measure(scenario));
		}
		report(scenarios, results);
	} finally {
		server.kill();
	}
}

function report(scenarios: Scenario[], results: Map<string, Result>): void {
	const rows = scenarios.map((scenario) => {
		const result = results.get(scenario.name)!;
		const base = results.get(scenario.baseline)!;
		const ratio = result.rps / base.rps;
		const verdict = scenario.target === undefined ? '' : ratio >= scenario.target ? `ok (≥ ${scenario.target}×)` : `MISSED (< ${scenario.target}×)`;
		return {
			scenario: scenario.name,
			'req/s': Math.round(result.rps),
			'p50 ms': result.p50,
			'p99 ms': result.p99,
			'× baseline': ratio.toFixed(2),
			target: verdict,
			errors: result.errors + result.non2xx
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
