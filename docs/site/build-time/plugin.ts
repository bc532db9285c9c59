import { join } from 'node:path';
import type { Plugin } from 'vite';
import { loadGuides, NAV, REFERENCE } from './guides.ts';
import { buildReference } from './reference.ts';
import { searchIndex } from './search-index.ts';

const ID = 'virtual:kitauth-docs';

/**
 * The site's data, made once per build in Node: the guides rendered from docs/content, the
 * reference from the package's entry points (TypeScript compiler API) and the search index.
 * Pages import it as `virtual:kitauth-docs`; nothing is read from disk at request time.
 */
export function docsData(root: string): Plugin {
	let code: string | undefined;
	return {
		name: 'kitauth-docs-data',
		resolveId: (id) => (id === ID ? `\0${ID}` : undefined),
		load(id) {
			if (id !== `\0${ID}`) return;
			if (!code) {
				const guides = loadGuides(join(root, 'docs/content'));
				const reference = buildReference(root);
				const data = { nav: NAV, referencePage: REFERENCE, guides, reference, search: searchIndex(guides, reference) };
				code = `export default ${JSON.stringify(data)};`;
			}
			for (const file of ['docs/content', 'src/lib', 'package.json']) this.addWatchFile(join(root, file));
			return code;
		}
	};
}
