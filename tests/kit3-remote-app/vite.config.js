import { fileURLToPath } from 'node:url';
import adapter from '@sveltejs/adapter-node';
import { sveltekit } from '@sveltejs/kit/vite';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/**
 * A SvelteKit 3.2 app with `experimental.remoteFunctions`, importing kitauth/remote from its
 * node_modules (kitauth as published): kit serves remote functions a package provides when the
 * package lists `@sveltejs/kit` among its peer dependencies.
 */
export default {
	root: here('.'),
	logLevel: 'warn',
	build: { sourcemap: false },
	ssr: { noExternal: ['kitauth'] },
	plugins: [
		sveltekit({
			adapter: adapter({ out: here('./.build'), precompress: false }),
			paths: { base: '/base' },
			files: { appTemplate: '../kit-app/src/app.html' },
			experimental: { remoteFunctions: true }
		})
	]
};
