import { fileURLToPath } from 'node:url';
import adapter from '@sveltejs/adapter-node';
import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vite';

/**
 * A small SvelteKit 3 app that mounts kitauth from this repository's source, under `paths.base`
 * `/base`, for tests/sveltekit/kit-app.test.ts (and kit-app-remote.test.ts: kitauth/remote, with
 * kit's remote functions turned on). Built with `vite build` run in this directory.
 *
 * The output directory starts with a dot so the repository's tsconfig (`include: ["tests"]`, with
 * `allowJs`/`checkJs`) does not type-check the built JavaScript.
 */
export default defineConfig({
	root: fileURLToPath(new URL('.', import.meta.url)),
	logLevel: 'warn',
	build: { sourcemap: false },
	plugins: [
		sveltekit({
			compilerOptions: {
				runes: ({ filename }) => (filename.split(/[/\\]/).includes('node_modules') ? undefined : true)
			},
			adapter: adapter({ out: fileURLToPath(new URL('./.build', import.meta.url)), precompress: false }),
			paths: { base: '/base' },
			// kitauth/remote (tests/sveltekit/kit-app-remote.test.ts).
			experimental: { remoteFunctions: true }
		})
	]
});
