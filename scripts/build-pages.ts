/**
 * Builds the core's page components for the package: `src/lib/core/pages/components.ts` compiled
 * for the server with its styles injected into the rendered head, and Svelte's server runtime
 * bundled in, written over svelte-package's copy of that module. The packaged core then runs in
 * plain Node (no bundler, no `.svelte` imports, no Svelte compiler), as `Auth()` promises.
 *
 *     npx node scripts/build-pages.ts [package-dir]     (default: ./dist)
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = resolve(root, 'src/lib/core/pages/components.ts');

/** Writes `<packageDir>/core/pages/components.js`. */
export async function buildPages(packageDir: string): Promise<void> {
	const outDir = resolve(packageDir, 'core/pages');
	if (!existsSync(outDir)) throw new Error(`${outDir} does not exist: run svelte-package first`);
	await build({
		configFile: false,
		root,
		logLevel: 'warn',
		plugins: [svelte({ configFile: false, emitCss: false, compilerOptions: { css: 'injected', runes: true } })],
		// Everything (Svelte's server runtime included) goes into the one module.
		ssr: { noExternal: true },
		build: {
			ssr: entry,
			outDir,
			emptyOutDir: false,
			minify: false,
			target: 'node20',
			rollupOptions: { output: { format: 'es', entryFileNames: 'components.js', codeSplitting: false } }
		}
	});
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	await buildPages(resolve(process.argv[2] ?? resolve(root, 'dist')));
}
