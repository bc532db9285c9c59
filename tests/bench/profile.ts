/**
 * Where a request's time goes (issue 33): each row of the hot-path table run through SvelteKit's
 * `server.respond()` under V8's sampling CPU profiler, its samples attributed to the code they ran
 * in — kitauth, SvelteKit, libSQL, Node's own (built-ins and `node:` modules), the app, the garbage
 * collector — and kitauth's own functions ranked. Shares of samples, not times: the machine's load
 * slows every part alike, so they hold on a busy machine where timings do not.
 *
 * The bench app is built for it with source maps (`BENCH_APP_PROFILE=on`), its server loaded from
 * vite's output as adapter-node's handler would, and each sample traced through the maps to the
 * package its function came from.
 *
 *     npx node --experimental-transform-types --import ./tests/support/ts-svelte-import-hook.ts tests/bench/profile.ts
 *
 * Environment: BENCH_PROFILE_REQUESTS (profiled per row, default 6000), BENCH_PROFILE_SAVE=<dir>
 * (each .cpuprofile kept, for DevTools), BENCH_PROFILE_BUILD=skip
 * (reuse the profile builds), BENCH_QUICK=1 (1500).
 */
import { mkdtempSync, existsSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BENCH_APP } from './bench-app.ts';
import { hotpathRows, type KitServer, type Op } from './hotpath-rows.ts';
import { packageLibrary, run } from '../sveltekit/kit-app-server.ts';
import { BENCH_SECRET } from './sessions.ts';
import { readSourceMap, type SourceLookup } from './source-map.ts';

const QUICK = process.env.BENCH_QUICK === '1';
const REQUESTS = Number(process.env.BENCH_PROFILE_REQUESTS ?? (QUICK ? 1500 : 6000));
const VARIANTS = ['none', 'jwt', 'libsql'] as const;
/** BENCH_PROFILE_SAVE=<dir>: each profile also written there, for Chrome DevTools (numbered in the order run). */
const SAVE = process.env.BENCH_PROFILE_SAVE;
let saved = 0;
type Variant = (typeof VARIANTS)[number];

const dir = mkdtempSync(join(tmpdir(), 'kitauth-profile-'));
Object.assign(process.env, {
	AUTH_SECRET: BENCH_SECRET,
	AUTH_TRUST_HOST: 'true',
	BENCH_APP_DATABASE_URL: `file:${join(dir, 'profile.db')}`,
	BENCH_APP_LIMITER: 'off'
});

const outputOf = (variant: Variant) => join(BENCH_APP, `.svelte-kit/${variant}-profile/output/server`);

async function build(): Promise<void> {
	console.log('[profile] packaging kitauth and building tests/bench-app with source maps (none, jwt, libsql)…');
	await packageLibrary(join(BENCH_APP, 'node_modules/kitauth'), { types: false });
	for (const variant of VARIANTS) {
		await run([join(BENCH_APP, '../../node_modules/vite/bin/vite.js'), 'build'], BENCH_APP, `vite build (${variant}, profile)`, {
			BENCH_APP_AUTH: variant,
			BENCH_APP_PROFILE: 'on'
		});
	}
}

async function load(variant: Variant): Promise<KitServer> {
	const output = outputOf(variant);
	const { Server } = (await import(pathToFileURL(join(output, 'index.js')).href)) as { Server: new (manifest: unknown) => KitServer };
	const { manifest } = (await import(pathToFileURL(join(output, 'manifest.js')).href)) as { manifest: unknown };
	const server = new Server(manifest);
	await server.init({ env: { ...process.env } });
	return server;
}

/** Whose code a file is, by its path (a source, after the maps). */
function ownerOf(path: string): string {
	if (path.includes('/node_modules/kitauth/') || path.includes('/src/lib/')) return 'kitauth';
	if (path.includes('/node_modules/@sveltejs/kit/')) return 'SvelteKit';
	if (path.includes('/node_modules/@libsql/') || path.includes('/node_modules/libsql/')) return 'libSQL';
	if (path.includes('/node_modules/svelte/')) return 'Svelte (render)';
	if (path.includes('/node_modules/')) return 'other packages';
	if (path.includes('/tests/bench-app/src/')) return 'app';
	return 'bench harness';
}

const maps = new Map<string, SourceLookup | undefined>();

/** The source a sampled function came from: its built file's, through the source map if it has one. */
function sourceOf({ url, lineNumber, columnNumber }: ProfileNode['callFrame']): string {
	const file = fileURLToPath(url);
	if (!maps.has(file)) maps.set(file, readSourceMap(file));
	return maps.get(file)?.sourceAt(lineNumber, columnNumber) ?? file;
}

/** Whose code a sample ran in (V8's and Node's native frames have no file). */
function owner(frame: ProfileNode['callFrame']): { who: string; source?: string } {
	if (frame.functionName === '(garbage collector)') return { who: 'garbage collector' };
	if (!frame.url) return { who: 'V8/Node native' };
	if (frame.url.startsWith('node:')) return { who: 'Node (node: modules)' };
	const source = frame.url.startsWith('file:') ? sourceOf(frame) : frame.url;
	return { who: ownerOf(source), source };
}

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
	children?: number[];
}

/** Code that runs on behalf of its caller: a sample in it is charged to the nearest JS caller's owner. */
const RUNS_FOR_CALLER = new Set(['V8/Node native', 'Node (node: modules)']);

interface Shares {
	total: number;
	/** Samples by the owner of the function they ran in. */
	self: Map<string, number>;
	/** Samples by the owner of the code that caused them (native and `node:` frames charged to their caller). */
	charged: Map<string, number>;
	kitauthFunctions: Map<string, number>;
	otherFiles: Map<string, number>;
}

function attribute(nodes: ProfileNode[], samples: number[]): Shares {
	const byId = new Map(nodes.map((node) => [node.id, node]));
	const parent = new Map<number, number>();
	for (const node of nodes) for (const child of node.children ?? []) parent.set(child, node.id);
	const owners = new Map<number, ReturnType<typeof owner>>();
	const ownerOfNode = (id: number) => owners.get(id) ?? (owners.set(id, owner(byId.get(id)!.callFrame)), owners.get(id)!);
	const chargedTo = (id: number): string => {
		let at: number | undefined = id;
		while (at !== undefined && RUNS_FOR_CALLER.has(ownerOfNode(at).who)) at = parent.get(at);
		return at === undefined ? ownerOfNode(id).who : ownerOfNode(at).who;
	};
	const shares: Shares = { total: samples.length, self: new Map(), charged: new Map(), kitauthFunctions: new Map(), otherFiles: new Map() };
	const add = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
	for (const id of samples) {
		const { who, source } = ownerOfNode(id);
		add(shares.self, who);
		add(shares.charged, chargedTo(id));
		if (who === 'kitauth') add(shares.kitauthFunctions, `${byId.get(id)!.callFrame.functionName || '(anonymous)'} ${source!.slice(source!.lastIndexOf('/dist/') + 6)}`);
		if (who === 'other packages') add(shares.otherFiles, source!.slice(source!.lastIndexOf('/node_modules/') + 14));
	}
	return shares;
}

async function profile(session: Session, op: Op): Promise<Shares> {
	for (let i = 0; i < Math.min(2000, REQUESTS); i++) await op(i); // warm: optimised code, not the compiler
	await session.post('Profiler.setSamplingInterval', { interval: 50 });
	await session.post('Profiler.start');
	for (let i = 0; i < REQUESTS; i++) await op(i);
	const { profile } = await session.post('Profiler.stop');
	if (SAVE) writeFileSync(join(SAVE, `${op.name || 'op'}-${saved++}.cpuprofile`), JSON.stringify(profile));
	// Samples spent waiting on nothing (the idle loop between libSQL's answers) are not the request's work.
	const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
	return attribute(profile.nodes as ProfileNode[], (profile.samples ?? []).filter((id) => !idle.has(id)));
}

const percent = (part: number, whole: number) => `${((part * 100) / whole).toFixed(1)} %`;

async function main(): Promise<void> {
	if (process.env.BENCH_PROFILE_BUILD !== 'skip' || !VARIANTS.every((v) => existsSync(join(outputOf(v), 'index.js')))) await build();
	const servers = { none: await load('none'), jwt: await load('jwt'), libsql: await load('libsql') };
	const { rows } = await hotpathRows(servers, process.env.BENCH_APP_DATABASE_URL!);
	const session = new Session();
	session.connect();
	await session.post('Profiler.enable');
	const owners = ['kitauth', 'SvelteKit', 'Svelte (render)', 'libSQL', 'app', 'other packages', 'Node (node: modules)', 'V8/Node native', 'garbage collector', 'bench harness'];
	const table = (rows: { scenario: string; shares: Shares }[], by: 'self' | 'charged') =>
		rows.map(({ scenario, shares }) => ({
			scenario,
			samples: shares.total,
			...Object.fromEntries(owners.filter((o) => by === 'self' || !RUNS_FOR_CALLER.has(o)).map((o) => [o, percent(shares[by].get(o) ?? 0, shares.total)]))
		}));
	const measured: { scenario: string; shares: Shares }[] = [];
	const baselines: { scenario: string; shares: Shares }[] = [];
	for (const row of rows) {
		process.stdout.write(`[profile] ${row.scenario}…\n`);
		measured.push({ scenario: row.scenario, shares: await profile(session, row.kitauth) });
		if (row.baseline) baselines.push({ scenario: `${row.scenario.split(' vs ')[1]} (without kitauth)`, shares: await profile(session, row.baseline) });
	}
	console.log(`\nShares of CPU samples, ${REQUESTS} requests per row through server.respond(), idle excluded — by the code that ran:`);
	console.table(table(measured, 'self'));
	console.log('By the code that caused them (Node and V8 native work charged to the JS that called it):');
	console.table(table([...measured, ...baselines], 'charged'));
	const ranked = (map: Map<string, number>, total: number) =>
		[...map].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([where, n]) => `  ${percent(n, total).padStart(7)}  ${where}`).join('\n');
	console.log(`\nkitauth's own functions with the most samples (share of the row's samples):`);
	for (const { scenario, shares } of measured) console.log(`${scenario}:\n${ranked(shares.kitauthFunctions, shares.total)}`);
	for (const { scenario, shares } of measured) if (shares.otherFiles.size) console.log(`Other packages in ${scenario}:\n${ranked(shares.otherFiles, shares.total)}`);
	session.disconnect();
}

await main();
