/**
 * tests/bench-app: one minimal SvelteKit 3 app (a page and a `+server` route, neither reading a
 * session), built once per server hook variant against kitauth as published. The footprint bench
 * compares the builds; tests/package/no-native.test.ts inspects the `jwt` one.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageLibrary, run } from '../sveltekit/kit-app-server.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BENCH_APP = join(ROOT, 'tests/bench-app');

/**
 * - `none`: no hook, the baseline;
 * - `hook`: an empty hook in `sequence` (what any hook costs SvelteKit, to tell kitauth's share apart);
 * - `jwt`: kitauth's hook in `sequence`, a credentials provider on JWT sessions (no adapter);
 * - `libsql`: the same on database sessions in the libSQL adapter (a local file, migrated at start).
 */
export const VARIANTS = ['none', 'hook', 'jwt', 'libsql'] as const;
export type Variant = (typeof VARIANTS)[number];

/** adapter-node's output for a variant (`node <dir>` serves it). */
export const buildDir = (variant: Variant) => join(BENCH_APP, `.build-${variant}`);

/**
 * `npm run package` into the app's node_modules, then `vite build` per variant, in the app's
 * directory: adapter-node reads the app's package.json (no dependencies: it bundles everything).
 */
export async function buildBenchApp(variants: readonly Variant[]): Promise<void> {
	await packageLibrary(join(BENCH_APP, 'node_modules/kitauth'), { types: false });
	for (const variant of variants) {
		await run([join(ROOT, 'node_modules/vite/bin/vite.js'), 'build'], BENCH_APP, `vite build of tests/bench-app (${variant})`, {
			BENCH_APP_AUTH: variant
		});
	}
}
