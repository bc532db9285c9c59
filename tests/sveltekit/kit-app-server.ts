import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lock, madeOnce } from './made-once.ts';

/**
 * Builds a SvelteKit test app with `vite build` and serves it with adapter-node (`node <out>`) on
 * 127.0.0.1, as a deployment would run it: tests/kit-app on SvelteKit 3, mounting kitauth's
 * source, and tests/kit2-app, importing kitauth as published, on SvelteKit 2 and on SvelteKit 3
 * (tests/kit3-pkg-app builds its source). Also starts an app's development server (`vite dev`).
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SECRET = 'kit-app-secret-0123456789abcdef0123456789abcdef';

export interface Fixture {
	/** Where `vite build` and the server run. */
	cwd: string;
	/** `vite build` and its arguments, run on the Node that runs the tests. */
	build: string[];
	/** adapter-node's output directory. */
	out: string;
	/** A page that answers 200 once the server is up. */
	probe: string;
	/** Runs before the build. */
	prepare?: () => Promise<void>;
	/**
	 * What the build is made from (paths from the repository root, files or directories): with
	 * these, `buildFixtureOnce` reuses an output built from the same inputs.
	 */
	inputs?: string[];
}

/** SvelteKit 3 (run from the repository root: adapter-node reads ./package.json). */
export const KIT3_APP: Fixture = {
	cwd: ROOT,
	build: [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'tests/kit-app/vite.config.ts'],
	out: join(ROOT, 'tests/kit-app/.build'),
	probe: '/base/form',
	inputs: ['src/lib', 'tests/kit-app', 'package-lock.json']
};

const KIT2_DIR = join(ROOT, 'tests/kit2-app');

/**
 * SvelteKit 2.20, the oldest release kitauth's peer range allows, with its own Vite (a workspace
 * of this repository: `npm ci` installs it). SvelteKit 2 reads svelte.config.js from the working
 * directory, so everything runs there.
 */
export const KIT2_APP: Fixture = {
	cwd: KIT2_DIR,
	build: [join(KIT2_DIR, 'node_modules/vite/bin/vite.js'), 'build'],
	out: join(KIT2_DIR, '.build'),
	probe: '/base/signin',
	// With declarations: the test type-checks an app against them.
	prepare: packageInto(join(KIT2_DIR, 'node_modules/kitauth'), { types: true })
};

const KIT3_PACKAGED_DIR = join(ROOT, 'tests/kit3-pkg-app');

/** The same app's source built by SvelteKit 3 (this repository's), against kitauth as published. */
export const KIT3_PACKAGED_APP: Fixture = {
	cwd: ROOT,
	build: [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'tests/kit3-pkg-app/vite.config.ts'],
	out: join(KIT3_PACKAGED_DIR, '.build'),
	probe: '/base/signin',
	prepare: packageInto(join(KIT3_PACKAGED_DIR, 'node_modules/kitauth'), { types: false })
};

/**
 * kitauth as `npm publish` would ship it (what `npm run package` makes: svelte-package's output with
 * the core's pages prebuilt, and package.json), copied into an app's node_modules: its imports of
 * `@sveltejs/kit` then resolve to that app's SvelteKit.
 */
function packageInto(target: string, { types }: { types: boolean }): () => Promise<void> {
	return () => packageLibrary(target, { types });
}

/**
 * `npm run package` into `target` (a package directory: `dist/` and `package.json`). One at a
 * time across test files: svelte-package stages its output in the repository's own
 * `.svelte-kit/__package__`, so two runs at once would mix their files.
 */
export async function packageLibrary(target: string, { types }: { types: boolean }): Promise<void> {
	const release = await lock(join(ROOT, '.svelte-kit/.package-lock'));
	try {
		rmSync(target, { recursive: true, force: true });
		const bin = join(ROOT, 'node_modules/@sveltejs/package/src/cli.js');
		await run([bin, '-i', 'src/lib', '-o', join(target, 'dist'), '--types', String(types)], ROOT, 'svelte-package');
		await run([join(ROOT, 'scripts/build-pages.ts'), join(target, 'dist')], ROOT, 'build-pages');
		await run([join(ROOT, 'scripts/package-crypto.ts'), join(target, 'dist')], ROOT, 'package-crypto');
		cpSync(join(ROOT, 'package.json'), join(target, 'package.json'));
		// The SQL migrations ship too (package.json's `files`): wrangler's `migrations_dir` points there.
		cpSync(join(ROOT, 'drizzle'), join(target, 'drizzle'), { recursive: true });
	} finally {
		release();
	}
}

/** What `packageLibrary` makes the package from. */
const PACKAGE_INPUTS = ['src/lib', 'scripts/build-pages.ts', 'scripts/package-crypto.ts', 'package.json', 'package-lock.json', 'drizzle'];

/**
 * `packageLibrary`, unless `target` holds a package made from the same sources: the test files
 * that build apps against one packaged copy (tests/edge/, tests/docs/edge-guide.test.ts) share
 * it, packaged one at a time across processes and never replaced while another builds from it.
 */
export async function packageLibraryOnce(target: string, options: { types: boolean }): Promise<void> {
	await madeOnce(PACKAGE_INPUTS, target, `types=${options.types}`, () => packageLibrary(target, options));
}

/** The environment of the child processes, without what vitest or the shell set for themselves. */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [name, value] of Object.entries(process.env)) {
		if (/^(VITEST|NODE_ENV$|TEST$|AUTH_|NEXTAUTH_|ORIGIN$|PROTOCOL_HEADER$|HOST_HEADER$|PORT$|HOST$)/.test(name)) continue;
		env[name] = value;
	}
	return { ...env, ...extra };
}

function collect(child: ChildProcess): () => string {
	let output = '';
	child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
	return () => output;
}

/** Runs a Node script to its end (`env` adds to its environment); throws with everything it printed when it fails. */
export async function run(args: string[], cwd: string, what: string, env: Record<string, string> = {}): Promise<void> {
	// The Node running vitest (node@24 through npx), not whatever `node` is on PATH.
	const child = spawn(process.execPath, args, { cwd, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
	const output = collect(child);
	const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
	if (code !== 0) throw new Error(`${what} failed (${code}):\n${output()}`);
}

/** `vite build` of the fixture (after its `prepare`); `env` adds to the build's environment. */
export async function buildFixture(fixture: Fixture, env: Record<string, string> = {}): Promise<{ ms: number }> {
	const started = performance.now();
	await fixture.prepare?.();
	await run(fixture.build, fixture.cwd, 'vite build of the fixture', env);
	return { ms: Math.round(performance.now() - started) };
}

/**
 * `buildFixture`, unless the fixture's output was built from the same `inputs` (their hash is kept
 * in the output directory): the test files that serve one fixture (tests/sveltekit/kit-app.test.ts,
 * tests/fuzz/kit-app.test.ts) share a build, made one at a time across processes, and none of
 * them rebuilds the output while another serves it.
 */
export async function buildFixtureOnce(fixture: Fixture): Promise<{ ms: number; reused: boolean }> {
	if (!fixture.inputs) return { ...(await buildFixture(fixture)), reused: false };
	let ms = 0;
	const reused = await madeOnce(fixture.inputs, fixture.out, '', async () => {
		ms = (await buildFixture(fixture)).ms;
	});
	return { ms, reused };
}

/** A port on 127.0.0.1 that was free a moment ago. */
export async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	await new Promise<void>((resolve) => server.close(() => resolve()));
	if (!address || typeof address === 'string') throw new Error('no port');
	return address.port;
}

export interface RunningApp {
	origin: string;
	/** The libSQL URL of the app's database (a temporary file). */
	databaseUrl: string;
	/** What the server printed so far. */
	output: () => string;
	stop: () => Promise<void>;
}

/** Starts the built fixture (on `port`, else a free one) and waits until it answers; `env` adds to its environment. */
export async function startFixture(fixture: Fixture, env: Record<string, string> = {}, port?: number): Promise<RunningApp> {
	port ??= await freePort();
	const dir = mkdtempSync(join(tmpdir(), 'kitauth-kit-app-'));
	const databaseUrl = `file:${join(dir, 'auth.db')}`;
	const server = await serve({
		args: [fixture.out],
		cwd: fixture.cwd,
		port,
		probe: fixture.probe,
		ready: (res) => res.ok,
		env: {
			HOST: '127.0.0.1',
			PORT: String(port),
			PROTOCOL_HEADER: 'x-forwarded-proto',
			AUTH_SECRET: SECRET,
			AUTH_TRUST_HOST: 'true',
			// Production builds limit sign-in attempts; these suites sign in many times from one address.
			AUTH_RATE_LIMIT: 'off',
			KIT_APP_DATABASE_URL: databaseUrl,
			...env
		},
		cleanup: () => rmSync(dir, { recursive: true, force: true })
	});
	return { ...server, databaseUrl };
}

/**
 * `vite dev` of an app in `cwd` (its vite.config and, on SvelteKit 2, svelte.config.js there) on
 * 127.0.0.1, run by the Node that runs the tests, with none of the test process's AUTH_* variables
 * (`env` adds to them). Up once `probe` answers at all: what it answers is the test's business.
 */
export async function startDevServer(vite: string, cwd: string, probe: string, env: Record<string, string> = {}): Promise<Omit<RunningApp, 'databaseUrl'>> {
	const port = await freePort();
	return serve({
		args: [vite, 'dev', '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
		cwd,
		port,
		probe,
		ready: () => true,
		env
	});
}

interface ServeOptions {
	args: string[];
	cwd: string;
	port: number;
	probe: string;
	/** Whether the probe's answer means the server is up. */
	ready: (res: Response) => boolean;
	env: Record<string, string>;
	/** Runs once the server has stopped. */
	cleanup?: () => void;
}

/** Runs a Node server and waits (up to about 20 s) until its probe says it is up. */
async function serve(options: ServeOptions): Promise<Omit<RunningApp, 'databaseUrl'>> {
	const origin = `http://127.0.0.1:${options.port}`;
	const child = spawn(process.execPath, options.args, { cwd: options.cwd, env: childEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
	const output = collect(child);
	let exited = false;
	const exit = new Promise<void>((resolve) =>
		child.once('exit', () => {
			exited = true;
			resolve();
		})
	);
	const stop = async () => {
		if (!exited) {
			child.kill('SIGTERM');
			await exit;
		}
		options.cleanup?.();
	};
	for (let attempt = 0; attempt < 400; attempt++) {
		if (exited) break;
		const ok = await fetch(`${origin}${options.probe}`, { headers: { 'x-forwarded-proto': 'http' } }).then(options.ready, () => false);
		if (ok) return { origin, output, stop };
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	await stop();
	throw new Error(`the server did not start:\n${output()}`);
}
