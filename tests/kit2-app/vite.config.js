import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vite';

export default defineConfig({
	logLevel: 'warn',
	build: { sourcemap: false },
	plugins: [sveltekit()],
	// The test copies kitauth into node_modules rather than listing it in package.json, where
	// vite-plugin-svelte would find it as a Svelte library and bundle it (it imports `$app/*`).
	ssr: { noExternal: ['kitauth'] }
});
