import { parseCallbackUrl } from '#lib/core/redirect.js';

/**
 * A `redirectTo` (or `callbackUrl`) from the query as a path on this site, else `undefined`. The
 * query is anyone's: `//evil.example`, `/\evil.example` and `/.//evil.example` all lead off-site
 * in a browser, and SvelteKit answers a redirect off-site with a 500. Absolute URLs count only on
 * our own origin (the core sends those when it redirects to `pages.signIn`).
 */
export function localPath(value: string | null | undefined, origin: string): string | undefined {
	const parsed = parseCallbackUrl(value);
	if (!parsed) return undefined;
	const url = new URL(parsed, origin);
	// Checked after parsing: dot segments can collapse a path into `//host`.
	if (url.origin !== origin || url.pathname.startsWith('//')) return undefined;
	return `${url.pathname}${url.search}${url.hash}`;
}
