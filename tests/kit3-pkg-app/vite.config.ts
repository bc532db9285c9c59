import { fileURLToPath } from 'node:url';
import adapter from '@sveltejs/adapter-node';
import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The SvelteKit 2 test app's source (tests/kit2-app/src), built by SvelteKit 3 against kitauth as
 * published, which tests/sveltekit/published.test.ts copies into this directory's node_modules.
 * Its files would otherwise find kit 2 and the kit 2 copy of kitauth beside them: `dedupe` makes
 * both resolve from here.
 */
export default defineConfig({
	root: here('.'),
	logLevel: 'warn',
	build: { sourcemap: false },
	resolve: { dedupe: ['@sveltejs/kit', 'kitauth'] },
	ssr: { noExternal: ['kitauth'] },
	plugins: [
		sveltekit({
			adapter: adapter({ out: here('./.build'), precompress: false }),
			paths: { base: '/base' },
			// Origins trusted to post forms cross-site (comma-separated, at build time): the identity
			// provider published.test.ts trusts.
			csrf: { trustedOrigins: (process.env.KIT3_PKG_APP_TRUSTED_ORIGINS ?? '').split(',').filter(Boolean) },
			files: { src: '../kit2-app/src', appTemplate: '../kit-app/src/app.html' }
		})
	]
});
