/**
 * `npx kitauth init` on fresh apps made by `sv create` (the Svelte CLI, a pinned devDependency),
 * one per SvelteKit major, with kitauth installed from its packed tarball as `npm install kitauth`
 * would: the app installs its packages from the npm registry, `init` sets kitauth up (installing
 * the libSQL packages itself), a second `init` changes nothing, `doctor` is satisfied, the app
 * builds with `vite build`, and a credentials sign-in and sign-out work in Chromium against the
 * app served by adapter-node.
 *
 * `sv create` 0.17 makes SvelteKit 2 apps; its `experimental` add-on makes SvelteKit 3 ones, but
 * asks for the dist-tag `next`, which the registry no longer has (SvelteKit 3 is `latest`): the
 * test puts this repository's SvelteKit 3 and adapter-node versions in its place.
 *
 * Then, on SvelteKit 3, the Getting started guide's files (docs/content/getting-started.md, as
 * written there) replace init's: the app builds again, and signs in on the guide's sign-in page,
 * lands on its protected /account and reads the token from its /api/me.
 *
 * On SvelteKit 2 the CLI runs on the machine's Node (`/usr/bin/node`, 20 here: kitauth's engines
 * say >= 20.19) where there is one; builds and servers on the Node running the tests.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { guideFiles } from '../docs/samples.ts';
import { freePort, packageLibrary } from '../sveltekit/kit-app-server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SV = join(ROOT, 'node_modules/sv/dist/bin.mjs');
const EMAIL = 'test@example.com';
const PASSWORD = 'test-password';
/**
 * The Node an app author's `npx` runs the CLI on: the machine's (20 here) for SvelteKit 2; SvelteKit
 * 3 needs Node 22.17 (and sv's `.npmrc` makes npm refuse to install it on older ones).
 */
const cliNodeDir = (kit: 2 | 3) => (kit === 2 && existsSync('/usr/bin/node') ? '/usr/bin' : dirname(process.execPath));

let dir: string;
let tarball: string;
let browser: Browser;
const servers: ChildProcess[] = [];

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), 'kitauth-cli-apps-'));
	await packageLibrary(join(dir, 'pkg'), { types: false });
	await command(['npm', 'pack', '--ignore-scripts', '--pack-destination', dir], join(dir, 'pkg'));
	tarball = join(dir, readdirSync(dir).find((name) => name.endsWith('.tgz'))!);
	browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
}, 300_000);

afterAll(async () => {
	for (const server of servers) server.kill();
	await browser?.close();
	if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Result {
	code: number | null;
	output: string;
}

/** Runs a command to its end; throws with its output when it fails (unless `allowFailure`). */
async function command(args: string[], cwd: string, env: Record<string, string> = {}, allowFailure = false): Promise<Result> {
	const child = spawn(args[0]!, args.slice(1), { cwd, env: { ...cleanEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk));
	child.stderr.on('data', (chunk: Buffer) => (output += chunk));
	const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
	if (code !== 0 && !allowFailure) throw new Error(`${args.join(' ')} failed (${code}):\n${output}`);
	return { code, output };
}

/** The environment without what vitest, the shell or this repository's npm scripts set. */
function cleanEnv(): Record<string, string> {
	const env: Record<string, string> = {};
	for (const [name, value] of Object.entries(process.env)) {
		if (value === undefined || /^(VITEST|NODE_ENV$|TEST$|AUTH_|NEXTAUTH_|DATABASE_|ORIGIN$|npm_|INIT_CWD$)/.test(name)) continue;
		env[name] = value;
	}
	return env;
}

/** `npx kitauth …` in the app, as its author runs it. */
function kitauth(kit: 2 | 3, app: string, args: string[], env: Record<string, string> = {}, allowFailure = false): Promise<Result> {
	// init's own npm install too takes what npm has cached without asking the registry again.
	const path = `${cliNodeDir(kit)}:${process.env.PATH}`;
	return command(['npx', '--no-install', 'kitauth', ...args], app, { PATH: path, npm_config_prefer_offline: 'true', ...env }, allowFailure);
}

/** A fresh app from `sv create`, with adapter-node, its packages and kitauth (the tarball) installed. */
async function freshApp(kit: 2 | 3): Promise<string> {
	const app = join(dir, `kit${kit}-app`);
	const addOns = [...(kit === 3 ? ['experimental=versions:kit+features:none'] : []), 'sveltekit-adapter=adapter:node'];
	await command([process.execPath, SV, 'create', app, '--template', 'minimal', '--types', 'ts', '--add', ...addOns, '--no-install'], dir);
	const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; devDependencies: Record<string, string> };
	const ours = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies;
	for (const name of ['@sveltejs/kit', '@sveltejs/adapter-node']) if (manifest.devDependencies[name] === 'next') manifest.devDependencies[name] = ours[name]!;
	const kitRange = manifest.devDependencies['@sveltejs/kit']!;
	if (!(kit === 3 ? /^\^?3\./ : /^\^2\./).test(kitRange)) throw new Error(`sv create made an app on @sveltejs/kit ${kitRange}, not ${kit}`);
	manifest.dependencies = { kitauth: `file:${tarball}` };
	writeFileSync(join(app, 'package.json'), JSON.stringify(manifest, null, '\t'));
	await command(['npm', 'install', '--prefer-offline', '--no-audit', '--no-fund'], app);
	return app;
}

/** Serves the built app with adapter-node on 127.0.0.1; its origin. */
async function serve(app: string, kit: 2 | 3): Promise<{ origin: string; server: ChildProcess }> {
	const port = await freePort();
	const origin = `http://127.0.0.1:${port}`;
	// adapter-node 5 (kit 2) reads ORIGIN; adapter-node 6 (kit 3) takes the protocol from a header.
	const originEnv = kit === 2 ? { ORIGIN: origin } : { PROTOCOL_HEADER: 'x-forwarded-proto' };
	const server = spawn(process.execPath, ['--env-file=.env', 'build'], {
		cwd: app,
		env: { ...cleanEnv(), HOST: '127.0.0.1', PORT: String(port), AUTH_TRUST_HOST: 'true', ...originEnv },
		stdio: ['ignore', 'pipe', 'pipe']
	});
	servers.push(server);
	let output = '';
	server.stdout!.on('data', (chunk: Buffer) => (output += chunk));
	server.stderr!.on('data', (chunk: Buffer) => (output += chunk));
	for (let i = 0; i < 200; i++) {
		if (server.exitCode !== null) throw new Error(`the app exited (${server.exitCode}):\n${output}`);
		const up = await fetch(`${origin}/signin`, { headers: { 'x-forwarded-proto': 'http' } }).then((r) => r.ok, () => false);
		if (up) return { origin, server };
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	throw new Error(`the app did not answer on ${origin}:\n${output}`);
}

// The two apps at once: most of the time goes to npm installing from the registry.
describe.concurrent.each([2, 3] as const)('npx kitauth init on a fresh sv create app, SvelteKit %i', (kit) => {
	test('sets kitauth up; the app builds; a credentials sign-in and sign-out work in Chromium', async ({ expect }) => {
		const app = await freshApp(kit);
		const init = await kitauth(kit, app, ['init', '--yes', '--providers', 'credentials']);
		expect(init.output).toContain(`(SvelteKit ${kit})`);
		expect(init.output).toContain('migrated file:');
		expect(init.output).toContain('kitauth is set up.');
		const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
		expect(Object.keys(manifest.dependencies)).toEqual(expect.arrayContaining(['kitauth', '@libsql/client', '@libsql/core', 'libsql', 'drizzle-orm']));
		expect((await kitauth(kit, app, ['init', '--yes', '--providers', 'credentials'])).output).toContain('Nothing to change: kitauth is already set up here.');

		// Production as the app author would run it; doctor agrees.
		const production: Record<string, string> = kit === 2 ? { AUTH_TRUST_HOST: 'true', ORIGIN: 'http://127.0.0.1' } : { AUTH_TRUST_HOST: 'true' };
		const doctor = await kitauth(kit, app, ['doctor'], production, true);
		expect(doctor.output).toContain('No problems found.');
		expect(doctor.code).toBe(0);

		// The one step init leaves to the author: where users and their password hashes come from.
		const passwords = join(app, 'src/lib/server/passwords.ts');
		const stub = '\tvoid email;\n\treturn undefined;';
		expect(readFileSync(passwords, 'utf8')).toContain(stub);
		const lookup = `\treturn email === '${EMAIL}' ? { id: 'u1', email, name: 'Test', passwordHash: await hashPassword('${PASSWORD}') } : undefined;`;
		writeFileSync(passwords, readFileSync(passwords, 'utf8').replace(stub, lookup));

		await command([process.execPath, join(app, 'node_modules/vite/bin/vite.js'), 'build'], app);
		const { origin, server } = await serve(app, kit);

		const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-proto': 'http' } });
		const page = await context.newPage();
		try {
			await page.goto(`${origin}/signin`);
			await page.getByLabel('Email', { exact: true }).fill(EMAIL);
			await page.getByLabel('Password').fill('not-the-password');
			await page.getByRole('button', { name: 'Sign in', exact: true }).click();
			await page.getByRole('alert').filter({ hasText: 'Sign in failed' }).waitFor({ timeout: 30_000 });
			await page.getByLabel('Password').fill(PASSWORD);
			await page.getByRole('button', { name: 'Sign in', exact: true }).click();
			await page.waitForURL(`${origin}/`, { timeout: 30_000 });
			const session = (await (await page.request.get(`${origin}/auth/session`)).json()) as { user?: { email?: string } } | null;
			expect(session?.user?.email).toBe(EMAIL);

			await page.goto(`${origin}/signout`);
			await page.getByRole('button', { name: 'Sign out', exact: true }).click();
			await page.waitForURL(`${origin}/`, { timeout: 30_000 });
			expect(await (await page.request.get(`${origin}/auth/session`)).json()).toBeNull();
		} finally {
			await context.close();
		}
		if (kit === 2) return;

		// The Getting started guide's files in place of init's: the app the guide describes.
		server.kill();
		for (const { path, code } of guideFiles('docs/content/getting-started.md')) {
			mkdirSync(dirname(join(app, path)), { recursive: true });
			writeFileSync(join(app, path), code);
		}
		await command([process.execPath, join(app, 'node_modules/vite/bin/vite.js'), 'build'], app);
		const guide = await serve(app, kit);
		const guided = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-proto': 'http' } });
		const guidePage = await guided.newPage();
		try {
			await guidePage.goto(`${guide.origin}/account`);
			await guidePage.waitForURL(`${guide.origin}/signin?redirectTo=%2Faccount`);
			await guidePage.getByLabel('Email', { exact: true }).fill(EMAIL);
			await guidePage.getByLabel('Password').fill(PASSWORD);
			await guidePage.getByRole('button', { name: 'Sign in', exact: true }).click();
			await guidePage.waitForURL(`${guide.origin}/account`, { timeout: 30_000 });
			const token = (await (await guidePage.request.get(`${guide.origin}/api/me`)).json()) as { email?: string } | null;
			expect(token?.email).toBe(EMAIL);
		} finally {
			await guided.close();
		}
		// SvelteKit 3 builds and signs in twice (init's files, then the guide's).
	}, 900_000);
});
