import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vite';

export default defineConfig({
	logLevel: 'warn',
	build: { sourcemap: false },
	plugins: [sveltekit()],
	// kitauth is copied into node_modules, not listed as a dependency: vite-plugin-svelte would not
	// find it as a Svelte library, so it is bundled by name (as an app's bundler does).
	ssr: { noExternal: ['kitauth'] }
});
