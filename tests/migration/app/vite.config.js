import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vite';

/** The Auth.js app as its authors build it: `vite build` in this directory. */
export default defineConfig({
	logLevel: 'warn',
	build: { sourcemap: false },
	plugins: [sveltekit()]
});
