/**
 * Seeded, bounded fuzzing of every action of the route table through the real `Auth()`: hostile
 * cookies (garbage, oversized, chunk sets, foreign JWEs), bodies (form, JSON, multipart, huge, too
 * deep, too wide, malformed, unicode), headers (Origin, Sec-Fetch-Site, X-Forwarded-*, Forwarded,
 * Host, Content-Type/Length lies), query strings, methods and encoded paths, against two apps (JWT
 * sessions on http, database sessions with the rate limiter on https under another base path).
 *
 * Oracles (`oracles.ts`), per case: no 5xx, an answer within `REQUEST_BOUND_MS`, no session
 * cookie set, `GET /session` with the case's cookies (and what the answer set) still `null`, no
 * redirect off the site (but to a configured provider's authorization endpoint), no input echoed
 * as markup, no internals in the body; every error logged is one of the core's own (no
 * `TypeError` from hostile input anywhere in its causes), no client input is blamed on the
 * configuration (`error=Configuration`); and no session row is stored, ever.
 *
 * `FUZZ_SEED` (printed on failure) replays a run, `FUZZ_CASES` sets its size (default 600 per
 * app), `FUZZ_ONLY=<index>` replays one case.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AuthError } from '../../src/lib/core/errors.js';
import { startRogueIdp, type RogueIdp } from '../support/rogue-idp.js';
import { bounded, type Failure, jarAfter, report, REQUEST_BOUND_MS } from './driver.js';
import { Generator, type FuzzRequest } from './generator.js';
import { checkAnswer } from './oracles.js';
import { caseIndices, fuzzSettings, Random } from './random.js';
import { callbackUris, openWorld, type World } from './worlds.js';

const settings = fuzzSettings(600);
const JWT_APP = { origin: 'http://localhost:3000', basePath: '/auth' };
const DB_APP = { origin: 'https://app.example', basePath: '/api/auth' };

let rogue: RogueIdp;
const worlds: World[] = [];

beforeAll(async () => {
	rogue = await startRogueIdp({
		redirectUris: [...callbackUris(JWT_APP.origin, JWT_APP.basePath), ...callbackUris(DB_APP.origin, DB_APP.basePath)]
	});
	worlds.push(
		await openWorld({ name: 'JWT sessions', strategy: 'jwt', ...JWT_APP, rogue }),
		await openWorld({
			name: 'database sessions, rate limiter on',
			strategy: 'database',
			...DB_APP,
			rogue,
			overrides: { rateLimit: { enabled: true, clientAddress: { header: 'x-forwarded-for' } } }
		})
	);
});

afterAll(async () => {
	for (const world of worlds.splice(0)) world.close();
	await rogue?.close();
});

/** What one case did: the violations, and whether the request could be made at all. */
async function runCase(world: World, req: FuzzRequest): Promise<{ violations: string[]; sent: boolean; errors: Error[]; status?: number }> {
	const { origin, basePath, cookies } = world.target;
	const url = `${origin}${req.target}`;
	let request: Request;
	try {
		request = new Request(url, { method: req.method, headers: req.headers, body: req.body, duplex: 'half' } as RequestInit);
	} catch {
		// The Fetch API refuses it (a forbidden method, a malformed URL): no client could send it.
		return { violations: [], sent: false, errors: [] };
	}
	const logged = world.errors.length;
	const violations: string[] = [];
	let status: number | undefined;
	try {
		const res = await bounded(world.handler(request), REQUEST_BOUND_MS, 'the answer');
		status = res.status;
		const body = await bounded(res.text(), REQUEST_BOUND_MS, 'its body');
		violations.push(
			...checkAnswer(
				{ status: res.status, headers: res.headers, body },
				{ origins: [origin], authorizationEndpoints: world.authorizationEndpoints, sessionCookie: cookies.session, marker: req.marker, url }
			)
		);
		// The same browser asks for its session next: still none.
		if (/[?&]error=Configuration\b/.test(res.headers.get('location') ?? '')) violations.push(`client input answered as a configuration error: ${res.headers.get('location')}`);
		const jar = jarAfter(req, res.headers.getSetCookie());
		const check = await bounded(world.handler(new Request(`${origin}${basePath}/session`, { headers: jar ? { cookie: jar } : {} })), REQUEST_BOUND_MS, 'GET session');
		const text = await check.text();
		if (check.status !== 200 || text !== 'null') violations.push(`GET session afterwards: ${check.status} ${text.slice(0, 200)}`);
	} catch (error) {
		violations.push(`threw: ${error instanceof Error ? error.stack?.split('\n').slice(0, 3).join(' | ') : String(error)}`);
	}
	const errors = world.errors.slice(logged);
	for (const error of errors) {
		const inner = innermost(error);
		if (!(error instanceof AuthError) || (inner !== error && !(inner instanceof AuthError) && /^(TypeError|RangeError|ReferenceError)$/.test(inner.name))) {
			violations.push(`logged ${loggedName(error)}: ${error.message.slice(0, 200)} (${inner.message.slice(0, 200)})`);
		}
	}
	return { violations, sent: true, errors, status };
}

/**
 * What each run sends: any hostile request, and (fewer, with their own seed stream) requests that
 * are genuine but for a hostile body, so bodies reach the actions behind where they are read.
 */
const RUNS = [
	{ what: 'hostile requests', stream: 0, share: 1, make: (generator: Generator) => generator.request() },
	{ what: 'hostile bodies behind a genuine CSRF pair', stream: 0x51ed27, share: 0.25, make: (generator: Generator) => generator.bodyCase() }
];

describe('fuzzing Auth() over every action', () => {
	const cases = ['JWT sessions', 'database sessions, rate limiter on'].flatMap((name, number) => RUNS.map((run) => ({ number, name, run })));
	for (const { number, name, run } of cases) {
		test(`${name}: ${run.what} get bounded, harmless answers (seed ${settings.seed})`, { timeout: 240_000 }, async () => {
			const world = worlds.find((w) => w.name === name)!;
			const failures: Failure[] = [];
			const stats = { cases: 0, unsendable: 0, statuses: {} as Record<number, number>, logged: {} as Record<string, number> };
			const indices = caseIndices(settings);
			for (const index of indices.slice(0, Math.ceil(indices.length * run.share))) {
				const generator = new Generator(world.target, new Random(settings.seed + number * 0x9e3779b1 + run.stream, index), index);
				const req = run.make(generator);
				const { violations, sent, errors, status } = await runCase(world, req);
				stats.cases++;
				if (status !== undefined) stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
				if (!sent) stats.unsendable++;
				for (const error of errors) stats.logged[loggedName(error)] = (stats.logged[loggedName(error)] ?? 0) + 1;
				if (violations.length) failures.push({ request: req, violations });
				if (failures.length >= 25) break;
			}
			const stored = await world.storedSessions();
			if (stored !== 0) failures.push({ request: { index: -1, method: '-', target: '(after the run)', headers: [], body: undefined, bodyKind: 'none', marker: '' }, violations: [`${stored} session row(s) stored`] });
			expect(failures.length, report(`${name} (seed ${settings.seed})`, settings, failures, stats)).toBe(0);
			// The generator must mostly produce requests a client can send.
			expect(stats.unsendable, JSON.stringify(stats)).toBeLessThan(stats.cases * 0.1);
			console.info(`${name}: ${JSON.stringify(stats)}`);
		});
	}
});

function innermost(error: Error): Error {
	let inner = error;
	for (let depth = 0; depth < 10 && inner.cause instanceof Error; depth++) inner = inner.cause;
	return inner;
}

/** A logged error by its name and its innermost cause's name. */
function loggedName(error: Error): string {
	const inner = innermost(error);
	return inner === error ? error.name : `${error.name}<${inner.name}>`;
}
