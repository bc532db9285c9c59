import { fileURLToPath } from 'node:url';
import type { Adapter } from '@sveltejs/kit';
import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vite';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_FILES, repoImages } from './build-time/markdown.ts';
import { docsData } from './build-time/plugin.ts';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const root = here('../..');
const content = join(root, 'docs/content');
export const DOCS_OUT = here('./build');

/**
 * Every page is prerendered: the adapter only copies the client assets and the prerendered
 * pages into build/ (adapter-static's job, in a few lines rather than a second dependency), and
 * the repository's images the guides show.
 */
const staticSite: Adapter = {
	name: 'kitauth-docs-static',
	adapt(builder) {
		builder.rimraf(DOCS_OUT);
		builder.writeClient(DOCS_OUT);
		builder.writePrerendered(DOCS_OUT);
		for (const file of readdirSync(content)) {
			for (const image of repoImages(readFileSync(join(content, file), 'utf8'))) {
				builder.copy(join(root, image), join(DOCS_OUT, REPO_FILES, image));
			}
		}
	}
};

export default defineConfig({
	root: here('.'),
	logLevel: 'warn',
	build: { sourcemap: false },
	plugins: [
		docsData(root),
		sveltekit({
			compilerOptions: { runes: true },
			adapter: staticSite,
			outDir: here('./.svelte-kit'),
			// Relative asset and link paths: the site works from any folder or sub-path it is copied to.
			paths: { relative: true },
			prerender: {
				// search.json is fetched by script, not linked: name it.
				entries: ['*', '/search.json'],
				handleMissingId: 'fail',
				// The repository's images are copied by the adapter, after prerendering.
				handleHttpError: ({ path, message }) => {
					if (!path.startsWith(`/${REPO_FILES}/`)) throw new Error(message);
				}
			}
		})
	]
});
