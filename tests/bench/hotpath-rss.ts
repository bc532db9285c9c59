/**
 * RSS after a fixed NUMBER of requests (issue 33: not after a fixed time, which gives the faster
 * server more requests and so more garbage): tests/bench-app's `jwt` build (JWT session reads,
 * `GET /auth/session` with 500 rotating cookies, the first one's answer checked to name its user)
 * against the `none` build serving the same number of `GET /api` with the same cookies, each in a
 * child process on this Node, over HTTP with autocannon (`amount`), then VmRSS sampled after a
 * second's rest. Several starts, alternating.
 *
 *     npx node tests/bench/hotpath-rss.ts     (needs tests/bench-app's builds: `npm run bench` makes them)
 *
 * Environment: BENCH_RSS_REQUESTS (default 20000; BENCH_QUICK=1: 5000), BENCH_RSS_STARTS (default 3; quick: 1),
 * which rss-authjs.ts (the same against Auth.js, on SvelteKit 2) reads too.
 */
import autocannon from 'autocannon';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { BENCH_APP, buildDir } from './bench-app.ts';
import { type Running, rssMiB, serve, turn } from './footprint.ts';
import { median } from './median.ts';
import { jwtTokens, SESSION_COOKIE } from './sessions.ts';

const QUICK = process.env.BENCH_QUICK === '1';
export const REQUESTS = Number(process.env.BENCH_RSS_REQUESTS ?? (QUICK ? 5000 : 20000));
export const STARTS = Math.max(1, Number(process.env.BENCH_RSS_STARTS ?? (QUICK ? 1 : 3)));

/**
 * Plain http: adapter-node takes a request for https unless a protocol header says otherwise, and
 * on https both libraries read the session from a `__Host-`/`__Secure-` cookie, not from the
 * `authjs.session-token` the bench sends: every session read would answer `null`. The servers'
 * environment names the header (`serve(…, plainHttp)`); every request sends it (FORWARDED).
 */
export const plainHttp = () => ({ PROTOCOL_HEADER: 'x-forwarded-proto' });
const FORWARDED = { 'x-forwarded-proto': 'http' };

function load(server: Running, path: string, cookies: string[]): Promise<number> {
	let next = 0;
	return new Promise((resolve, reject) => {
		autocannon(
			{
				url: `${server.origin}${path}`,
				connections: 10,
				amount: REQUESTS,
				headers: FORWARDED,
				requests: [{ setupRequest: (request) => ({ ...request, headers: { ...request.headers, cookie: cookies[next++ % cookies.length]! } }) }]
			},
			(error, result) => (error ? reject(error) : resolve(result.errors + result.non2xx))
		);
	});
}

/** A session read must be one: the first cookie's user in the answer (not `null`, not an error page). */
export async function checkSessionRead(server: Running, name: string, cookie: string): Promise<void> {
	const response = await fetch(`${server.origin}/auth/session`, { headers: { ...FORWARDED, cookie } });
	const body = await response.text();
	if (!response.ok || !body.includes('"bench0@example.com"')) throw new Error(`${name}: GET /auth/session does not read the session (${response.status} ${body.slice(0, 200)})`);
}

/**
 * A fresh server's RSS (MiB) after REQUESTS requests to `path` (10 connections, `cookies` in turn,
 * every answer a 2xx or it throws) and a second's rest.
 */
export async function rssAfterLoad(server: Running, path: string, cookies: string[], name: string): Promise<number> {
	const failed = await load(server, path, cookies);
	if (failed) throw new Error(`${name}: ${failed} failed requests`);
	await sleep(1000);
	return rssMiB(server.pid);
}

/** Median RSS (MiB) per variant after REQUESTS requests, over STARTS starts; resolves to the rows printed. */
export async function rssPhase(): Promise<void> {
	const cookies = (await jwtTokens(500)).map((token) => `${SESSION_COOKIE}=${token}`);
	const samples = { none: [] as number[], jwt: [] as number[] };
	for (let cycle = 1; cycle <= STARTS; cycle++) {
		for (const variant of turn(['none', 'jwt'] as const, cycle)) {
			const server = await serve(buildDir(variant), BENCH_APP, `the bench app (${variant})`, plainHttp);
			try {
				if (variant === 'jwt') await checkSessionRead(server, variant, cookies[0]!);
				samples[variant].push(await rssAfterLoad(server, variant === 'jwt' ? '/auth/session' : '/api', cookies, variant));
			} finally {
				await server.stop();
			}
		}
	}
	const none = median(samples.none);
	const jwt = median(samples.jwt);
	console.log(`\nRSS after ${REQUESTS} requests (medians of ${STARTS} starts): the app without kitauth (GET /api) ${none.toFixed(1)} MiB; with kitauth, JWT session reads (GET /auth/session) ${jwt.toFixed(1)} MiB (${(jwt / none).toFixed(2)}×).`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await rssPhase();
