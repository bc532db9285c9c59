/**
 * Issue 33's RSS row against Auth.js: RSS after the same NUMBER of requests (hotpath-rss.ts's
 * measure) of one app on one SvelteKit served three ways. `@auth/sveltekit` (1.11.3) supports
 * SvelteKit 1–2 only, so the app is tests/bench-kit2: SvelteKit 2.20 with adapter-node, a workspace
 * of its own (`npm ci` installs it), built once per variant:
 *
 * - `none`: no hook, the baseline (`GET /api`, a `+server` route, with the same cookies);
 * - `kitauth`: kitauth's handle, as published (packaged into the app's node_modules, as
 *   tests/sveltekit/published.test.ts does), a credentials provider on JWT sessions;
 * - `authjs`: `@auth/sveltekit`'s handle, the same provider on JWT sessions (its default).
 *
 * Both read `GET /auth/session` with the same secret and the same 500 rotating cookies, sealed by
 * `@auth/core` (sessions.ts), and each build's answer is checked to name the cookie's user before
 * its load. Each start is a fresh child process on this Node: REQUESTS requests with autocannon,
 * then VmRSS after a second's rest; STARTS starts per variant, in alternating order; medians.
 * Resolves to whether kitauth stays within TARGET× Auth.js's RSS.
 *
 *     npx node tests/bench/rss-authjs.ts      (or `npm run bench`, unless BENCH_AUTHJS=off)
 *
 * Environment: BENCH_RSS_REQUESTS and BENCH_RSS_STARTS (hotpath-rss.ts's), BENCH_KIT2_BUILD (`skip`
 * reuses earlier builds).
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageLibrary, run } from '../sveltekit/kit-app-server.ts';
import { serve, turn } from './footprint.ts';
import { checkSessionRead, plainHttp, REQUESTS, rssAfterLoad, STARTS } from './hotpath-rss.ts';
import { median } from './median.ts';
import { jwtTokens, SESSION_COOKIE } from './sessions.ts';

const APP = fileURLToPath(new URL('../bench-kit2', import.meta.url));
const VARIANTS = ['none', 'kitauth', 'authjs'] as const;
type Variant = (typeof VARIANTS)[number];
/** The target: kitauth's RSS at most this many times Auth.js's after the same requests. */
const TARGET = 1.2;

const buildDir = (variant: Variant) => join(APP, `.build-${variant}`);

/** kitauth packaged into the app, then `vite build` per variant, in the app's directory (SvelteKit 2 reads svelte.config.js there). */
async function build(): Promise<void> {
	await packageLibrary(join(APP, 'node_modules/kitauth'), { types: false });
	for (const variant of VARIANTS) {
		await run([join(APP, 'node_modules/vite/bin/vite.js'), 'build'], APP, `vite build of tests/bench-kit2 (${variant})`, { BENCH_KIT2_AUTH: variant });
	}
}

const loadAverage = () =>
	loadavg()
		.map((value) => value.toFixed(2))
		.join(', ');

/** The whole row (building the app unless BENCH_KIT2_BUILD=skip finds its builds); resolves to whether kitauth met the target. */
export async function rssAuthJsPhase(): Promise<boolean> {
	if (process.env.BENCH_KIT2_BUILD !== 'skip' || !VARIANTS.every((variant) => existsSync(buildDir(variant)))) {
		console.log('[rss-authjs] packaging kitauth and building tests/bench-kit2 (SvelteKit 2) once per variant…');
		await build();
	}
	const cookies = (await jwtTokens(500)).map((token) => `${SESSION_COOKIE}=${token}`);
	const samples: Record<Variant, number[]> = { none: [], kitauth: [], authjs: [] };
	const loads: string[] = [];
	for (let cycle = 1; cycle <= STARTS; cycle++) {
		for (const variant of turn(VARIANTS, cycle)) {
			process.stdout.write(`[rss-authjs, start ${cycle}/${STARTS}] ${variant}: ${REQUESTS} requests…\n`);
			const server = await serve(buildDir(variant), APP, `tests/bench-kit2 (${variant})`, plainHttp);
			try {
				if (variant !== 'none') await checkSessionRead(server, variant, cookies[0]!);
				samples[variant].push(await rssAfterLoad(server, variant === 'none' ? '/api' : '/auth/session', cookies, variant));
			} finally {
				await server.stop();
			}
		}
		loads.push(loadAverage());
	}
	const [none, kitauth, authjs] = VARIANTS.map((variant) => median(samples[variant]));
	const ratio = kitauth! / authjs!;
	const ok = ratio <= TARGET;
	console.log(`\nRSS after ${REQUESTS} requests against Auth.js, on SvelteKit 2.20 (tests/bench-kit2; medians of ${STARTS} starts; load average after each cycle: ${loads.join(' | ')}):`);
	console.table(
		VARIANTS.map((variant) => ({
			build: variant === 'none' ? 'without auth (GET /api)' : `${variant === 'kitauth' ? 'kitauth' : '@auth/sveltekit 1.11.3'} (GET /auth/session, JWT)`,
			'RSS MiB': median(samples[variant]).toFixed(1),
			starts: samples[variant].map((value) => value.toFixed(1)).join(' '),
			'× none': (median(samples[variant]) / none!).toFixed(2),
			'× Auth.js': variant === 'kitauth' ? ratio.toFixed(2) : '',
			target: variant !== 'kitauth' ? '' : ok ? `ok (≤ ${TARGET}× Auth.js)` : `MISSED (> ${TARGET}× Auth.js)`
		}))
	);
	return ok;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
	if (!(await rssAuthJsPhase())) {
		console.error(`kitauth's RSS missed its target against Auth.js (≤ ${TARGET}×).`);
		process.exitCode = 1;
	}
}
