/**
 * Lets a plain `node` child process load the whole core (which renders its built-in pages with
 * Svelte components): `./x.js` that does not exist resolves to `./x.ts` (as `ts-import-hook.ts`
 * does), and `.svelte` files are compiled for the server on the fly. Node must also run with
 * `--experimental-transform-types` (the core uses TypeScript parameter properties).
 *
 *     node --experimental-transform-types --import ./tests/support/ts-svelte-import-hook.ts child.ts
 */
import { readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';
import { compile } from 'svelte/compiler';
import './ts-import-hook.ts';

registerHooks({
	load(url, context, nextLoad) {
		if (!url.startsWith('file:') || !url.endsWith('.svelte')) return nextLoad(url, context);
		const filename = fileURLToPath(url);
		const { js } = compile(readFileSync(filename, 'utf8'), { filename, generate: 'server', runes: true });
		return { format: 'module', source: js.code, shortCircuit: true };
	}
});
