import { defineConfig } from 'vitest/config';
import adapter from '@sveltejs/adapter-node';
import { sveltekit } from '@sveltejs/kit/vite';

// SvelteKit 3 reads its options (and the Svelte compiler options) only from this plugin call:
// a svelte.config.js beside this file makes it refuse to start (`config_file_unsupported`).
// svelte-check reads them from here too, and svelte-package needs no preprocessor for Svelte 5.
export default defineConfig({
	plugins: [
		sveltekit({
			compilerOptions: {
				runes: ({ filename }) => (filename.split(/[/\\]/).includes('node_modules') ? undefined : true)
			},
			adapter: adapter(),
			// SvelteKit 3.2's remote functions, for kitauth/remote (the demo's /remote page; its tests
			// import the remote modules). Only modules named `*.remote.*` change: other pages render
			// as before.
			experimental: { remoteFunctions: true }
		})
	],
	test: {
		include: [
			'tests/unit/**/*.test.ts',
			'tests/integration/**/*.test.ts',
			'tests/adapter/**/*.test.ts',
			'tests/sveltekit/**/*.test.ts',
			'tests/package/**/*.test.ts',
			'tests/fuzz/**/*.test.ts',
			'tests/soak/**/*.test.ts',
			'tests/migration/**/*.test.ts',
			'tests/edge/**/*.test.ts',
			'tests/docs/**/*.test.ts',
			'src/**/*.test.ts'
		],
		environment: 'node',
		testTimeout: 30_000,
		hookTimeout: 60_000
	}
});
