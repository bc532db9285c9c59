/**
 * `AUTH_*` variables from an app's `.env` file under `vite dev`, on SvelteKit 2.20 and on
 * SvelteKit 3, with kitauth as published. Each app is the kit 2 test app's source
 * (tests/kit2-app/src: credentials sign-in, JWT sessions, no `secret` in its config) in a
 * directory of its own, made here beside its SvelteKit's node_modules, holding a `.env` with
 * AUTH_SECRET; the dev server's process has no AUTH_* variable at all. Without the file's secret
 * kitauth refuses to start (MissingSecret), so a 200 from `/auth/session` shows the file was read,
 * and a session cookie that opens with that secret (and no other) shows it is the one in use.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { decode } from '../../src/lib/jwt.js';
import { packageLibrary, type RunningApp, startDevServer } from './kit-app-server.js';
import { appBrowser, postEnhanced } from './kit-client.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SOURCE = join(ROOT, 'tests/kit2-app/src');
const TEMPLATE = join(ROOT, 'tests/kit-app/src/app.html');
const SESSION_COOKIE = 'authjs.session-token';
const ALICE = { email: 'alice@example.com', password: 'correct horse battery staple' };
/** The secret only the `.env` file holds. */
const DOTENV_SECRET = 'from-the-dotenv-file-0123456789abcdef0123456789';

interface DevApp {
	/** Where the app's directory is made: its SvelteKit and Vite resolve from there. */
	parent: string;
	vite: string;
	/** The app's config files (SvelteKit 2 reads svelte.config.js; SvelteKit 3 only vite.config). */
	config: Record<string, string>;
}

const VITE_CONFIG_KIT2 = `import { sveltekit } from '@sveltejs/kit/vite';
export default { logLevel: 'warn', plugins: [sveltekit()], ssr: { noExternal: ['kitauth'] } };
`;

const APPS: [name: string, app: DevApp][] = [
	[
		'SvelteKit 2.20',
		{
			parent: join(ROOT, 'tests/kit2-app'),
			vite: join(ROOT, 'tests/kit2-app/node_modules/vite/bin/vite.js'),
			config: {
				'svelte.config.js': `export default { kit: { paths: { base: '/base' } } };\n`,
				'vite.config.js': VITE_CONFIG_KIT2
			}
		}
	],
	[
		'SvelteKit 3',
		{
			parent: join(ROOT, 'tests/kit3-pkg-app'),
			vite: join(ROOT, 'node_modules/vite/bin/vite.js'),
			config: {
				'vite.config.js': `import { sveltekit } from '@sveltejs/kit/vite';
export default { logLevel: 'warn', plugins: [sveltekit({ paths: { base: '/base' } })], ssr: { noExternal: ['kitauth'] } };
`
			}
		}
	]
];

/** kitauth as published, made once for both apps. */
let packaged: string;

beforeAll(async () => {
	packaged = mkdtempSync(join(ROOT, 'tests/kit3-pkg-app/.dev-env-package-'));
	await packageLibrary(packaged, { types: false });
}, 120_000);

afterAll(() => {
	if (packaged) rmSync(packaged, { recursive: true, force: true });
});

/**
 * The app's directory: the source, the page template, config, a package.json of its own (so
 * `kitauth` is not this repository importing itself) and kitauth in its node_modules. Its name
 * starts with a dot: the repository's tsconfig does not type-check it.
 */
function makeApp(app: DevApp, dotenv: string): string {
	const dir = mkdtempSync(join(app.parent, '.dev-env-'));
	cpSync(SOURCE, join(dir, 'src'), { recursive: true });
	cpSync(TEMPLATE, join(dir, 'src/app.html'));
	for (const [name, text] of Object.entries(app.config)) writeFileSync(join(dir, name), text);
	writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'kitauth-dev-env-app', private: true, type: 'module' }));
	mkdirSync(join(dir, 'node_modules'));
	cpSync(packaged, join(dir, 'node_modules/kitauth'), { recursive: true });
	writeFileSync(join(dir, '.env'), dotenv);
	return dir;
}

describe.each(APPS)('vite dev on %s reads AUTH_* from the app’s .env', (name, app) => {
	let dir: string;
	let server: Omit<RunningApp, 'databaseUrl'>;

	beforeAll(async () => {
		const started = performance.now();
		dir = makeApp(app, `# written by tests/sveltekit/dev-env.test.ts\nAUTH_SECRET=${DOTENV_SECRET}\n`);
		server = await startDevServer(app.vite, dir, '/base/auth/providers');
		console.info(`${name}: vite dev answered in ${Math.round(performance.now() - started)} ms`);
	}, 120_000);

	afterAll(async () => {
		await server?.stop();
		if (dir) rmSync(dir, { recursive: true, force: true });
	});

	test('the auth endpoints answer (no MissingSecret)', async () => {
		const client = appBrowser(server.origin, '/base/auth', `dev env test (${name})`);
		const res = await client.get('session');
		expect(res.status, server.output()).toBe(200);
		expect(await res.json()).toBeNull();
		expect(server.output()).not.toMatch(/MissingSecret/);
	});

	test('a credentials sign-in seals its session with the secret from .env', async () => {
		const client = appBrowser(server.origin, '/base/auth', `dev env test (${name})`);
		const { body } = await postEnhanced(client, '/base/signin', 'signIn', { providerId: 'credentials', ...ALICE, redirectTo: '/base/' });
		expect(body, server.output()).toMatchObject({ type: 'redirect', status: 303 });
		const token = decodeURIComponent(client.jar.get(SESSION_COOKIE) ?? '');
		expect(await decode({ token, secret: DOTENV_SECRET, salt: SESSION_COOKIE })).toMatchObject({ email: ALICE.email });
		expect(await decode({ token, secret: 'another-secret-0123456789abcdef0123456789', salt: SESSION_COOKIE })).toBeNull();
		expect(await client.session()).toMatchObject({ user: { email: ALICE.email } });
	});
});
