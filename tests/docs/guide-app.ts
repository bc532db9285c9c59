import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { childEnv, freePort, run } from '../sveltekit/kit-app-server.ts';
import { extractSamples, guideFiles, isFragment, linkPackages, root, type Sample } from './samples.ts';
import { entryPoints } from '../../docs/site/build-time/reference.ts';

/**
 * The guides' samples as apps: one SvelteKit 3 build (adapter-node) hosts every guide, each in
 * `src/routes/<slug>/` with its files at the paths they name (relative to src/: its
 * `routes/account/+page.svelte` is `src/routes/<slug>/routes/account/+page.svelte`, so `../../auth`
 * is its own `auth.ts`), and a server runs one guide: `KITAUTH_GUIDE=<slug>` picks its hooks
 * (tests/docs/fixture/guide-app/hooks.server.ts) and its pages (the `reroute` of hooks.ts: its
 * `/account` is its `routes/account`). What a guide leaves to the reader comes from the skeleton
 * (tests/docs/fixture/guide-app/): `auth.ts` (configured by `config.ts`), `hooks.server.ts`
 * (migrations, then the handle) and `lib/server/passwords.ts`; the names samples take as given
 * (`database`, `mailer`: SMTP to `SMTP_URL`, …) from given.ts; its pages from Getting started
 * (`/signin`, `/signout`, `/account`, …), the guide every other one builds on.
 */

const FIXTURE = join(root, 'tests/docs/fixture/guide-app');

export interface Guide {
	/** The app's name for it: `components`, or `components-2` for a guide's second app. */
	slug: string;
	/** `docs/content/components.md` */
	file: string;
	/**
	 * The samples that make the app, by the path (under src/) each is written to: the samples that
	 * name a file (`// src/auth.ts`), else the ones `place` puts somewhere.
	 */
	files: Map<string, Sample>;
}

/**
 * A guide's apps: its samples that name a file, in order; a name taken twice starts a second app
 * (the Components guide's two account pages). `place` puts unnamed samples, by a line of theirs,
 * at a path: `{ 'auth.ts': "import { RedisStore } from 'kitauth/limit/redis'" }`; a list of calls
 * at `calls/<name>.ts` runs in a request (`POST /run/<name>`, the skeleton's routes/run).
 */
export function guideApps(name: string, place: Record<string, string> = {}): Guide[] {
	const file = `docs/content/${name}.md`;
	const apps: Guide[] = [];
	const samples = extractSamples(file).filter((sample) => !isFragment(sample));
	for (const sample of samples) {
		const placed = Object.entries(place).find(([, line]) => sample.code.includes(line))?.[0];
		const path = placed ?? (sample.path?.startsWith('src/') ? sample.path.slice(4) : undefined);
		if (!path) continue;
		let app = apps.find((a) => !a.files.has(path));
		if (!app) apps.push((app = { slug: apps.length ? `${name}-${apps.length + 1}` : name, file, files: new Map() }));
		app.files.set(path, sample);
	}
	for (const [path, line] of Object.entries(place)) {
		if (!apps.some((app) => app.files.get(path)?.code.includes(line))) throw new Error(`${file}: no sample has the line ${line}`);
	}
	if (!apps.length) apps.push({ slug: name, file, files: new Map() });
	return apps;
}

/**
 * A sample as the file it is written as. A configuration given as `SvelteKitAuth({ … })` (its
 * result unused: the reader exports what they need) exports it as `auth.ts` does; an `auth.ts`
 * that only configures (exports `authConfig`, no `SvelteKitAuth` call) is the guide's `config.ts`.
 */
function asFile(path: string, code: string): { path: string; code: string } {
	const call = /^SvelteKitAuth\((\{[\s\S]*\})\);\s*$/m.exec(code);
	if (call) {
		const exported = code.replace(call[0], `export const authConfig = ${call[1]};\nexport const { handle, signIn, signOut, sessions, accounts, passkeys, twoFactor, passwords, getAccessToken } = SvelteKitAuth(authConfig);\n`);
		return { path, code: exported };
	}
	if (path === 'auth.ts' && !code.includes('SvelteKitAuth(')) return { path: 'config.ts', code };
	return { path, code };
}

/**
 * Writes the app hosting `guides` into a new directory and builds it (`vite build`); returns the
 * directory (its `build/` is the server) and which app file is which sample.
 */
export async function buildGuideApp(guides: Guide[]): Promise<{ dir: string; byFile: Map<string, Sample> }> {
	const dir = mkdtempSync(join(tmpdir(), 'kitauth-guides-'));
	const byFile = new Map<string, Sample>();
	const write = (path: string, text: string) => {
		mkdirSync(dirname(join(dir, path)), { recursive: true });
		writeFileSync(join(dir, path), text);
	};
	for (const name of ['given.ts', 'hooks.server.ts', 'hooks.ts', 'skeleton.ts']) cpSync(join(FIXTURE, name), join(dir, 'src', name));
	write('src/app.html', '<!doctype html><html lang="en"><head>%sveltekit.head%</head><body>%sveltekit.body%</body></html>\n');
	for (const guide of guides) {
		const base = `src/routes/${guide.slug}`;
		cpSync(join(FIXTURE, 'guide'), join(dir, base), { recursive: true });
		// Its pages where it names none: Getting started's (the sign-in and sign-out pages, …).
		for (const { path, code } of guideFiles('docs/content/getting-started.md')) {
			if (path.startsWith('src/routes/') && !guide.files.has(path.slice(4))) write(`${base}/${path.slice(4)}`, code);
		}
		for (const [path, sample] of guide.files) {
			const file = asFile(path, sample.code);
			// A guide's vite.config.ts: the app's (below) turns on what it asks for.
			if (file.path.startsWith('vite.config.')) continue;
			byFile.set(`${base}/${file.path}`, sample);
			// The names samples take as given are set before the sample runs (also when the build
			// loads a page's server module to analyse it).
			const given = relative(dirname(join(dir, base, file.path)), join(dir, 'src/given.ts')).replace(/\.ts$/, '.js');
			write(`${base}/${file.path}`, file.path.endsWith('.ts') ? `import '${given.startsWith('.') ? given : `./${given}`}';\n${file.code}` : file.code);
		}
	}
	write('package.json', JSON.stringify({ name: 'kitauth-guides', private: true, type: 'module' }, null, '\t'));
	// kitauth's entry points, as package.json's exports name them, to the sources.
	const alias = entryPoints(root).map((entry) => ({ find: new RegExp(`^${entry.specifier.replace(/[/.]/g, '\\$&')}$`), replacement: join(root, entry.source) }));
	write(
		'vite.config.js',
		`import adapter from '@sveltejs/adapter-node';
import { sveltekit } from '@sveltejs/kit/vite';
export default {
	logLevel: 'warn',
	build: { sourcemap: false },
	resolve: { alias: [${alias.map((a) => `{ find: ${a.find}, replacement: ${JSON.stringify(a.replacement)} }`).join(', ')}] },
	plugins: [
		sveltekit({
			compilerOptions: { runes: true, experimental: { async: true } },
			adapter: adapter({ precompress: false }),
			experimental: { remoteFunctions: true }
		})
	]
};
`
	);
	linkPackages(dir);
	try {
		await run([join(root, 'node_modules/vite/bin/vite.js'), 'build'], dir, 'vite build of the guides app');
	} catch (error) {
		rmSync(dir, { recursive: true, force: true });
		// Name the samples behind the app's files the build names.
		const named = [...byFile].filter(([file]) => String(error).includes(file)).map(([file, sample]) => `${file} is ${sample.at}`);
		throw new Error(`${named.length ? `${named.join('; ')}\n` : ''}${String(error)}`, { cause: error });
	}
	return { dir, byFile };
}

export interface GuideServer {
	origin: string;
	/** The server's working directory (the guide's database files). */
	cwd: string;
	/** Everything the server printed. */
	output(): string;
	stop(): void;
}

/**
 * Serves one guide of a built app on 127.0.0.1 (on `env.PORT` when given: a provider that must
 * know the callback URL first), in a working directory of its own.
 */
export async function serveGuide(dir: string, slug: string, env: Record<string, string> = {}): Promise<GuideServer> {
	const port = env.PORT ? Number(env.PORT) : await freePort();
	const origin = `http://127.0.0.1:${port}`;
	const cwd = mkdtempSync(join(tmpdir(), `kitauth-guide-${slug}-`));
	const child: ChildProcess = spawn(process.execPath, [join(dir, 'build/index.js')], {
		cwd,
		env: childEnv({ HOST: '127.0.0.1', PORT: String(port), PROTOCOL_HEADER: 'x-forwarded-proto', AUTH_SECRET: 'guides-secret-0123456789abcdef0123456789abcdef', AUTH_TRUST_HOST: 'true', KITAUTH_GUIDE: slug, ...env }),
		stdio: ['ignore', 'pipe', 'pipe']
	});
	let output = '';
	child.stdout?.on('data', (chunk: Buffer) => (output += chunk));
	child.stderr?.on('data', (chunk: Buffer) => (output += chunk));
	const server = { origin, cwd, output: () => output, stop: () => void child.kill() };
	for (let i = 0; i < 300; i++) {
		if (child.exitCode !== null) throw new Error(`the ${slug} guide's server exited (${child.exitCode}):\n${output}`);
		if (await fetch(`${origin}/auth/csrf`).then((res) => res.status === 200, () => false)) return server;
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	child.kill();
	throw new Error(`the ${slug} guide's server did not answer on ${origin}:\n${output}`);
}
