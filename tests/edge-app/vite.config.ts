import { fileURLToPath } from 'node:url';
import adapter from './adapter.js';
import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * A SvelteKit 3 app for Cloudflare Workers (adapter-cloudflare), against kitauth as published,
 * which tests/edge/edge-app.test.ts copies into this directory's node_modules. Nothing
 * Cloudflare-specific is configured for kitauth: Vite's SSR build resolves it with its default
 * (Node) export conditions, as in any app made with `sv create`, and kitauth's crypto module
 * finds Web Crypto at run time.
 */
export default defineConfig({
	root: here('.'),
	logLevel: 'warn',
	build: { sourcemap: false },
	resolve: {
		dedupe: ['@sveltejs/kit', 'kitauth'],
		// nodemailer (an optional peer, for email over SMTP) is not installed in this app; see the file.
		alias: { nodemailer: here('./not-installed/nodemailer.js') }
	},
	// What vite-plugin-svelte does for an app that lists kitauth in its dependencies (this one
	// lists none): a package with Svelte components is bundled into the server build.
	ssr: { noExternal: ['kitauth'] },
	plugins: [
		sveltekit({
			adapter: adapter({ config: here('wrangler.jsonc') }),
			files: { appTemplate: '../kit-app/src/app.html' }
		})
	]
});
