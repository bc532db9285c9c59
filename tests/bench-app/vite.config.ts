import { fileURLToPath } from 'node:url';
import adapter from '@sveltejs/adapter-node';
import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The footprint bench's app: one page and one `+server.js` route, neither reading a session, built
 * by this repository's SvelteKit 3 against kitauth as published. One source, one build per variant
 * (tests/bench/bench-app.ts says what each holds): `BENCH_APP_AUTH` picks the server hook at build
 * time (`files.hooks.server`).
 */
const VARIANTS = ['none', 'hook', 'jwt', 'libsql'];
const variant = process.env.BENCH_APP_AUTH ?? 'none';
if (!VARIANTS.includes(variant)) throw new Error(`BENCH_APP_AUTH is one of ${VARIANTS.join(', ')}, not ${variant}`);
// tests/bench/profile.ts: with source maps, so a CPU profile's samples can be traced to the package
// they came from (kitauth, SvelteKit, the app). Its own output folder.
const profile = process.env.BENCH_APP_PROFILE === 'on';
const suffix = profile ? `${variant}-profile` : variant;

export default defineConfig({
	root: here('.'),
	logLevel: 'warn',
	build: { sourcemap: profile },
	// kitauth is copied into node_modules, not listed as a dependency: vite-plugin-svelte would not
	// find it as a Svelte library, so it is bundled by name (as an app's bundler does).
	ssr: { noExternal: ['kitauth'] },
	plugins: [
		sveltekit({
			adapter: adapter({ out: here(`./.build-${suffix}`), precompress: false }),
			outDir: `.svelte-kit/${suffix}`,
			// The page template of the other test apps.
			files: { hooks: { server: `src/hooks/${variant}` }, appTemplate: '../kit-app/src/app.html' }
		})
	]
});
