import * as paths from '$app/paths';

// Replaced with the configured `paths.base` by SvelteKit 3's build (a Vite `define`).
declare const __SVELTEKIT_PATHS_BASE__: string | undefined;

/**
 * The app's `paths.base`, absolute, on the server and in the browser alike. Kit 3 no longer
 * exports `base` from `$app/paths` (its `resolve()` is relative during a request), but defines it
 * for every bundled module; kit 2 exports `base`. The key is computed so kit 3's bundler does not
 * flag the missing export. Here, not in sveltekit/, because the browser client needs it too; it
 * reads SvelteKit's `$app/paths`, so the core never imports it (an import-graph rule).
 */
export function appBase(): string {
	if (typeof __SVELTEKIT_PATHS_BASE__ === 'string') return __SVELTEKIT_PATHS_BASE__;
	const key = 'base';
	const value: unknown = (paths as Record<string, unknown>)[key];
	return typeof value === 'string' ? value : '';
}
