import { fileURLToPath } from 'node:url';
import adapter from '@sveltejs/adapter-node';
import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig, type Alias, type Plugin } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** `@auth/drizzle-adapter`, switched: kitauth's libSQL adapter takes the same drizzle database. */
const ADAPTER = '\0switched:@auth/drizzle-adapter';

/**
 * The switch, as an app makes it: each Auth.js import of the app replaced by kitauth's (kitauth as
 * published, which tests/migration/migration.test.ts copies into this directory's node_modules).
 * Nothing else in the app's source changes.
 */
const SWITCHED_IMPORTS: Alias[] = [
	{ find: /^@auth\/sveltekit$/, replacement: 'kitauth' },
	{ find: /^@auth\/sveltekit\/providers\/(.+)$/, replacement: 'kitauth/providers/$1' },
	{ find: /^@auth\/sveltekit\/client$/, replacement: 'kitauth/client' },
	{ find: /^@auth\/drizzle-adapter$/, replacement: ADAPTER }
];

/**
 * `import { DrizzleAdapter } from '@auth/drizzle-adapter'` becomes
 * `import { LibSQLAdapter as DrizzleAdapter } from 'kitauth/adapters/libsql'`: the one import whose
 * name changes too.
 */
function switchedAdapter(): Plugin {
	return {
		name: 'migration-switched-adapter',
		enforce: 'pre',
		resolveId: (id) => (id === ADAPTER ? id : undefined),
		load: (id) => (id === ADAPTER ? "export { LibSQLAdapter as DrizzleAdapter } from 'kitauth/adapters/libsql';" : undefined)
	};
}

/**
 * The Auth.js app of tests/migration/app (its `src`), with its imports switched to kitauth, built by
 * SvelteKit 3 (Auth.js's SvelteKit integration builds only on SvelteKit 2: kit 3's `$app/paths` has
 * no `base`). Its files would otherwise find kit 2 beside them: `dedupe` makes SvelteKit and
 * kitauth resolve from here.
 */
export default defineConfig({
	root: here('.'),
	logLevel: 'warn',
	build: { sourcemap: false },
	resolve: { alias: SWITCHED_IMPORTS, dedupe: ['@sveltejs/kit', 'kitauth'] },
	ssr: { noExternal: ['kitauth'] },
	plugins: [
		switchedAdapter(),
		sveltekit({
			adapter: adapter({ out: here('./.build'), precompress: false }),
			files: { src: '../app/src' }
		})
	]
});
