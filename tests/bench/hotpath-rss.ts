/**
 * RSS after a fixed NUMBER of requests (issue 33: not after a fixed time, which gives the faster
 * server more requests and so more garbage): tests/bench-app's `jwt` build (JWT session reads,
 * `GET /auth/session` with 500 rotating cookies) against the `none` build serving the same number
 * of `GET /api` with the same cookies, each in a child process on this Node, over HTTP with
 * autocannon (`amount`), then VmRSS sampled after a second's rest. Several starts, alternating.
 *
 *     npx node tests/bench/hotpath-rss.ts     (needs tests/bench-app's builds: `npm run bench` makes them)
 *
 * Environment: BENCH_RSS_REQUESTS (default 20000; BENCH_QUICK=1: 5000), BENCH_RSS_STARTS (default 3; quick: 1).
 */
import autocannon from 'autocannon';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Server, start, turn } from './footprint.ts';
import { median } from './median.ts';
import { jwtTokens, SESSION_COOKIE } from './sessions.ts';

const QUICK = process.env.BENCH_QUICK === '1';
const REQUESTS = Number(process.env.BENCH_RSS_REQUESTS ?? (QUICK ? 5000 : 20000));
const STARTS = Math.max(1, Number(process.env.BENCH_RSS_STARTS ?? (QUICK ? 1 : 3)));

const rssMiB = (pid: number) => Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

function load(server: Server, path: string, cookies: string[]): Promise<number> {
	let next = 0;
	return new Promise((resolve, reject) => {
		autocannon(
			{
				url: `${server.origin}${path}`,
				connections: 10,
				amount: REQUESTS,
				requests: [{ setupRequest: (request) => ({ ...request, headers: { ...request.headers, cookie: cookies[next++ % cookies.length]! } }) }]
			},
			(error, result) => (error ? reject(error) : resolve(result.errors + result.non2xx))
		);
	});
}

/** Median RSS (MiB) per variant after REQUESTS requests, over STARTS starts; resolves to the rows printed. */
export async function rssPhase(): Promise<void> {
	const cookies = (await jwtTokens(500)).map((token) => `${SESSION_COOKIE}=${token}`);
	const dir = mkdtempSync(join(tmpdir(), 'kitauth-rss-'));
	const samples = { none: [] as number[], jwt: [] as number[] };
	try {
		for (let cycle = 1; cycle <= STARTS; cycle++) {
			for (const variant of turn(['none', 'jwt'] as const, cycle)) {
				const server = await start(variant, dir);
				try {
					const failed = await load(server, variant === 'jwt' ? '/auth/session' : '/api', cookies);
					if (failed) throw new Error(`${variant}: ${failed} failed requests`);
					await sleep(1000);
					samples[variant].push(rssMiB(server.pid));
				} finally {
					await server.stop();
				}
			}
		}
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
	const none = median(samples.none);
	const jwt = median(samples.jwt);
	console.log(`\nRSS after ${REQUESTS} requests (medians of ${STARTS} starts): the app without kitauth (GET /api) ${none.toFixed(1)} MiB; with kitauth, JWT session reads (GET /auth/session) ${jwt.toFixed(1)} MiB (${(jwt / none).toFixed(2)}×).`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await rssPhase();
