/**
 * The packaged core picks its crypto backend by export condition: package.json `imports` maps
 * `#kitauth/crypto` to the Web Crypto backend for `workerd`, `worker`, `edge-light`, `deno` and
 * `browser`, and to the run-time choice (`auto.js`) otherwise. Plain Node with `--conditions`
 * resolves exactly as those runtimes' bundlers do; a resolve hook records every module the
 * process loads, so the test sees the whole module graph of a real sign-in. Vite's SSR build
 * resolves the same way with the conditions given.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packageLibrary } from '../sveltekit/kit-app-server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let dir: string;
let pkg: string;

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), 'kitauth-crypto-conditions-'));
	pkg = join(dir, 'app/node_modules/kitauth');
	await packageLibrary(pkg, { types: false });
	// Runtime dependencies of the core, as an install provides them: the OAuth client, the Web
	// Crypto backend's scrypt (password hashing) and the TOTP codes (two-factor).
	for (const name of ['oauth4webapi', '@noble/hashes', '@oslojs/otp']) {
		mkdirSync(join(dir, 'app/node_modules', name, '..'), { recursive: true });
		symlinkSync(join(ROOT, 'node_modules', name), join(dir, 'app/node_modules', name));
	}
	writeFileSync(join(dir, 'app/package.json'), JSON.stringify({ name: 'conditions-app', type: 'module', private: true }));
	writeFileSync(join(dir, 'app/hooks.js'), HOOKS);
	writeFileSync(join(dir, 'app/app.js'), APP);
	writeFileSync(join(dir, 'app/entry.js'), "export { Auth } from 'kitauth/core';\n");
	// Resolves the specifier from inside the package, as the core's own modules do.
	mkdirSync(join(pkg, 'probe'));
	writeFileSync(join(pkg, 'probe/resolve.js'), "console.log(import.meta.resolve('#kitauth/crypto'));\n");
}, 120_000);

afterAll(() => {
	if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Records every resolution (specifier → URL) the process makes. */
const HOOKS = `
import { registerHooks } from 'node:module';
globalThis.resolved = [];
registerHooks({
	resolve(specifier, context, next) {
		const result = next(specifier, context);
		globalThis.resolved.push({ specifier, url: result.url });
		return result;
	}
});
`;

/** A credentials sign-in and a session read through the packed core, then what was loaded. */
const APP = `
const { Auth } = await import('kitauth/core');
const { default: Credentials } = await import('kitauth/providers/credentials');
const config = {
	secret: 'conditions-secret-with-at-least-32-characters',
	trustHost: true,
	providers: [Credentials({ credentials: { email: {}, password: {} }, authorize: ({ email, password }) => (password === 'right' ? { id: 'u1', email, name: 'Cond' } : null) })]
};
const origin = 'http://localhost:3000';
const csrf = await Auth(new Request(origin + '/auth/csrf'), config);
const csrfCookie = csrf.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
const { csrfToken } = await csrf.json();
const signIn = await Auth(new Request(origin + '/auth/callback/credentials', {
	method: 'POST',
	headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie, origin },
	body: new URLSearchParams({ csrfToken, email: 'c@example.com', password: 'right' })
}), config);
const sessionCookie = signIn.headers.getSetCookie().find((c) => c.startsWith('authjs.session-token='));
const session = await Auth(new Request(origin + '/auth/session', { headers: { cookie: sessionCookie.split(';')[0] } }), config);
console.log(JSON.stringify({ signIn: signIn.status, session: await session.json(), resolved: globalThis.resolved }));
`;

interface Run {
	signIn: number;
	session: { user?: { email?: string } } | null;
	resolved: { specifier: string; url: string }[];
}

async function runApp(conditions: string[]): Promise<Run> {
	const args = [...conditions.map((c) => `--conditions=${c}`), '--import', './hooks.js', 'app.js'];
	const child = spawn(process.execPath, args, { cwd: join(dir, 'app'), env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe'] });
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
	const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
	expect(code, stderr).toBe(0);
	return JSON.parse(stdout) as Run;
}

const crypto = (run: Run) => run.resolved.find((r) => r.specifier === '#kitauth/crypto')?.url ?? '';
const loaded = (run: Run, part: string) => run.resolved.filter((r) => r.url.includes(part));

describe.each(['workerd', 'worker', 'edge-light', 'deno', 'browser'])('the %s condition', (condition) => {
	test('maps #kitauth/crypto to the Web Crypto backend', () => {
		const url = execFileSync(process.execPath, [`--conditions=${condition}`, 'probe/resolve.js'], { cwd: pkg, encoding: 'utf8' }).trim();
		expect(url).toBe(`file://${join(pkg, 'dist/core/crypto/web/index.js')}`);
	});
});

test('with no edge condition, #kitauth/crypto is the run-time choice', () => {
	const url = execFileSync(process.execPath, ['probe/resolve.js'], { cwd: pkg, encoding: 'utf8' }).trim();
	expect(url).toBe(`file://${join(pkg, 'dist/core/crypto/auto.js')}`);
});

test('under workerd conditions a sign-in loads no node:* module at all, and no Node backend', async () => {
	const run = await runApp(['workerd']);
	expect(run.signIn).toBe(302);
	expect(run.session).toMatchObject({ user: { email: 'c@example.com', name: 'Cond' } });
	expect(crypto(run)).toMatch(/\/dist\/core\/crypto\/web\/index\.js$/);
	expect(loaded(run, '/dist/core/crypto/web/').length).toBeGreaterThan(0);
	expect(loaded(run, '/dist/core/crypto/node/')).toEqual([]);
	expect(loaded(run, '/dist/core/crypto/auto.js')).toEqual([]);
	expect(run.resolved.filter((r) => r.url.startsWith('node:')).map((r) => r.specifier)).toEqual([]);
});

test('in plain Node the same sign-in runs on the Node backend (auto.js)', async () => {
	const run = await runApp([]);
	expect(run.signIn).toBe(302);
	expect(run.session).toMatchObject({ user: { email: 'c@example.com' } });
	expect(crypto(run)).toMatch(/\/dist\/core\/crypto\/auto\.js$/);
	expect(loaded(run, '/dist/core/crypto/node/jwe.js').length).toBeGreaterThan(0);
	// node:crypto comes from process.getBuiltinModule, not an import: nothing for a bundler to trip on.
	expect(run.resolved.filter((r) => r.url === 'node:crypto')).toEqual([]);
});

/**
 * The packed core bundled by Vite's SSR build into one file, with these export conditions (the
 * packages it loads only for passkeys stay imports: this app has not installed them).
 */
async function viteBundle(name: string, conditions?: string[]): Promise<string> {
	const outDir = join(dir, `vite-${name}`);
	await build({
		configFile: false,
		root: join(dir, 'app'),
		logLevel: 'silent',
		ssr: { noExternal: true, ...(conditions ? { resolve: { conditions, externalConditions: conditions } } : {}) },
		build: { ssr: join(dir, 'app/entry.js'), outDir, minify: false, rollupOptions: { external: ['bowser', '@simplewebauthn/server'], output: { entryFileNames: 'entry.js', codeSplitting: false } } }
	});
	return readFileSync(join(outDir, 'entry.js'), 'utf8');
}

test("Vite's SSR build with the workerd conditions bundles the Web Crypto backend alone", async () => {
	const code = await viteBundle('workerd', ['workerd', 'worker', 'module']);
	expect(code).toMatch(/name: "web"/);
	expect(code).not.toMatch(/name: "node"/);
	expect(code).not.toContain('getBuiltinModule("node:crypto")');
}, 60_000);

test("Vite's SSR build with its default (Node) conditions bundles both, to choose at run time", async () => {
	const code = await viteBundle('default');
	expect(code).toMatch(/name: "web"/);
	expect(code).toMatch(/name: "node"/);
	expect(code).toContain('getBuiltinModule("node:crypto")');
}, 60_000);
