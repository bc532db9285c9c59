/**
 * Lets a plain `node` child process (Node 24, type stripping on) import the TypeScript sources,
 * which use `.js` import suffixes as svelte-package wants: a relative `./x.js` that does not exist
 * resolves to `./x.ts`. Use: `node --import ./tests/support/ts-import-hook.ts child.ts`.
 */
import { registerHooks } from 'node:module';

registerHooks({
	resolve(specifier, context, nextResolve) {
		try {
			return nextResolve(specifier, context);
		} catch (error) {
			const relative = specifier.startsWith('./') || specifier.startsWith('../');
			if (!relative || !specifier.endsWith('.js')) throw error;
			return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
		}
	}
});
