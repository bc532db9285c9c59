import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { run } from '../sveltekit/kit-app-server.ts';
import { guideApps } from './guide-app.ts';
import { extractFences, linkPackages, root } from './samples.ts';

/**
 * The Edge guide (docs/content/edge.md) as the Cloudflare Worker its samples make: its
 * `src/auth.ts` and `src/hooks.server.ts` (found as tests/docs/guide-app.ts finds every guide's),
 * its wrangler.jsonc `d1_databases` entry as written, and its migrations command, taken from its
 * prose. The app is SvelteKit 3 with adapter-cloudflare (tests/edge-app/adapter.js bridges the
 * adapter's release to SvelteKit 3.2) against kitauth as packaged into tests/edge-app (shared with
 * tests/edge/). What the guide leaves to the reader: `src/app.d.ts` (the Platform and Locals types
 * it describes), a page that shows `locals.auth()` (tests/edge-app's layout and page), the rest
 * of wrangler.jsonc (the Worker's name, entry and assets as adapter-cloudflare's apps have them,
 * the reader's database id, and the variables the guide names: AUTH_SECRET, AUTH_TRUST_HOST,
 * AUTH_GITHUB_ID, AUTH_GITHUB_SECRET), and no nodemailer installed, as the guide advises for a
 * Worker without SMTP (Node.js compatibility off, as it says kitauth needs none).
 */

const GUIDE = 'docs/content/edge.md';
const EDGE_APP = join(root, 'tests/edge-app');
/** kitauth as packaged, which tests/edge/ builds tests/edge-app against too. */
export const PACKAGED = join(EDGE_APP, 'node_modules/kitauth');

/** The Worker variables (wrangler.jsonc's `vars`); the guide's config names none of them. */
export const VARS = {
	AUTH_SECRET: 'edge-guide-secret-0123456789abcdef0123456789abcdef',
	AUTH_TRUST_HOST: 'true',
	AUTH_GITHUB_ID: 'edge-guide-client-id',
	AUTH_GITHUB_SECRET: 'edge-guide-client-secret'
};

export interface EdgeGuideApp {
	dir: string;
	config: string;
	/** Where wrangler keeps local state (D1) by default: `.wrangler/state` beside wrangler.jsonc. */
	state: string;
	/** The guide's migrations command, as wrangler's arguments: `d1 migrations apply DB --local`. */
	migrate: string[];
	/** The D1 binding that command names. */
	binding: string;
	/** The guide and its samples' lines, for failure messages. */
	named: string;
}

/** Writes the app into a new directory (not built: `buildEdgeGuide`). */
export function writeEdgeGuide(): EdgeGuideApp {
	const [guide] = guideApps('edge');
	const auth = guide?.files.get('auth.ts');
	const hooks = guide?.files.get('hooks.server.ts');
	if (!auth || !hooks) throw new Error(`${GUIDE}: expected samples naming src/auth.ts and src/hooks.server.ts`);
	const wrangler = extractFences(GUIDE, ['jsonc']).find((sample) => sample.code.includes('"d1_databases"'));
	if (!wrangler) throw new Error(`${GUIDE}: no wrangler.jsonc sample with "d1_databases"`);
	// The migrations as the guide's prose runs them: `wrangler d1 migrations apply DB`, `--local` for `wrangler dev`.
	const binding = /`wrangler d1 migrations apply (\S+)`/.exec(readFileSync(join(root, GUIDE), 'utf8'))?.[1];
	if (!binding) throw new Error(`${GUIDE}: no \`wrangler d1 migrations apply …\` command`);
	const named = `${GUIDE} (samples at lines ${[auth, wrangler, hooks].map((s) => s.at.slice(s.at.lastIndexOf(':') + 1)).join(', ')})`;

	// The hooks sample runs kitauth on the request's D1 session: its comment gives the config's
	// adapter for it (`adapter: D1Adapter(event.locals.d1)`), in place of auth.ts's.
	const adapter = /its config: (adapter: \w+\([^)]*\))/.exec(hooks.code)?.[1];
	if (!adapter || !/adapter: \w+\([^)]*\)/.test(auth.code)) throw new Error(`${named}: the hooks sample's comment names no adapter for auth.ts's config`);

	const dir = mkdtempSync(join(tmpdir(), 'kitauth-edge-guide-'));
	const write = (path: string, content: string) => {
		mkdirSync(dirname(join(dir, path)), { recursive: true });
		writeFileSync(join(dir, path), content);
	};
	write('src/auth.ts', auth.code.replace(/adapter: \w+\([^)]*\)/, adapter));
	write('src/hooks.server.ts', hooks.code);
	write('src/app.html', '<!doctype html><html lang="en"><head>%sveltekit.head%</head><body>%sveltekit.body%</body></html>\n');
	write(
		'src/app.d.ts',
		`import type { D1SessionBinding } from 'kitauth/adapters/d1';
declare global {
	namespace App {
		interface Platform { env: { DB: D1Database } }
		interface Locals { d1: D1SessionBinding }
	}
}
export {};
`
	);
	for (const page of ['+layout.server.js', '+layout.svelte', '+page.svelte']) cpSync(join(EDGE_APP, 'src/routes', page), join(dir, 'src/routes', page));
	write(
		'wrangler.jsonc',
		`{
	"name": "kitauth-edge-guide",
	"main": ".svelte-kit/cloudflare/_worker.js",
	"assets": { "binding": "ASSETS", "directory": ".svelte-kit/cloudflare" },
	"compatibility_date": "2026-11-01",
	"compatibility_flags": ["no_nodejs_compat", "no_nodejs_compat_v2"],
	"vars": ${JSON.stringify(VARS)},
${wrangler.code.replaceAll('"database_id": "…"', '"database_id": "00000000-0000-4000-8000-0000000ed9e0"')}
}
`
	);
	// kitauth among its dependencies, as in an app that installed it: vite-plugin-svelte then bundles
	// it (its Svelte components) into the server build.
	write('package.json', JSON.stringify({ name: 'kitauth-edge-guide', private: true, type: 'module', dependencies: { kitauth: '*' } }, null, '\t'));
	write(
		'vite.config.js',
		`import { sveltekit } from '@sveltejs/kit/vite';
import adapter from ${JSON.stringify(join(EDGE_APP, 'adapter.js'))};
export default {
	logLevel: 'warn',
	build: { sourcemap: false },
	// nodemailer is not installed in this Worker (see the file).
	resolve: { alias: { nodemailer: ${JSON.stringify(join(EDGE_APP, 'not-installed/nodemailer.js'))} } },
	plugins: [sveltekit({ adapter: adapter() })]
};
`
	);
	linkPackages(dir);
	symlinkSync(PACKAGED, join(dir, 'node_modules/kitauth'));
	return { dir, config: join(dir, 'wrangler.jsonc'), state: join(dir, '.wrangler/state'), migrate: ['d1', 'migrations', 'apply', binding, '--local'], binding, named };
}

/** `vite build` of the app. */
export function buildEdgeGuide(app: EdgeGuideApp): Promise<void> {
	return run([join(root, 'node_modules/vite/bin/vite.js'), 'build'], app.dir, 'vite build of the Edge guide app');
}

/** What `step` gives; its failure names the guide and its samples' lines first. */
export async function inGuide<T>(app: EdgeGuideApp, step: Promise<T>): Promise<T> {
	try {
		return await step;
	} catch (error) {
		throw new Error(`${app.named}\n${String(error)}`, { cause: error });
	}
}
