/**
 * The Content-Security-Policy of the built-in pages: no script but kitauth's own, by hash; no
 * plugin, frame, font or foreign connection; images only from this site (and the theme's logo).
 *
 * - Scripts: the only one is the sign-in page's passkey script (inlined, bundled with kitauth), so
 *   `script-src` is its SHA-256 (computed once) and nothing else — no `'unsafe-inline'`, no nonce to
 *   leak; pages without passkeys get `script-src 'none'`.
 * - Style elements: the component kit's CSS, which Svelte injects as `<style>` elements: each is
 *   allowed by its hash (`style-src-elem`), computed from the page as rendered.
 * - Style attributes: the theme's colours and provider button colours are `style="--…"`
 *   attributes; CSP can allow those only with `'unsafe-inline'` (or `'unsafe-hashes'` plus a hash
 *   per value), so `style-src-attr 'unsafe-inline'`. Why that is acceptable: the values are the
 *   configuration's, never the request's (Svelte escapes every echoed value); an attribute style
 *   cannot use selectors (so it cannot read the CSRF token out of the page, the classic CSS
 *   exfiltration), and any `url()` it names is held to `img-src` (this site only). Browsers
 *   without `style-src-elem`/`-attr` (Safari before 15.4, Firefox before 108) fall back to
 *   `style-src 'unsafe-inline'`: still no script.
 * - `form-action` is left out on purpose: the sign-in forms post here, and an OAuth start then
 *   redirects to the identity provider, which Chromium checks against `form-action` too — a list
 *   of every provider's (discovered) authorization endpoint would be needed, and a stale one would
 *   break sign-in. `base-uri 'none'` keeps relative form actions here.
 */
import { base64, fromBase64url, sha256 } from '../crypto/index.js';
import { PASSKEY_SCRIPT, PASSKEY_SCRIPT_SHA256 } from './passkey-script.generated.js';

/** A CSP hash source (standard base64). Web Crypto hashes asynchronously only, hence the promise. */
const source = async (text: string) => `'sha256-${base64(fromBase64url(await sha256(text, 'base64url'))!)}'`;

/** The component kit's style elements repeat from page to page: each is hashed once per process. */
const styleSources = new Map<string, Promise<string>>();
const MAX_STYLES = 256;

function styleSource(css: string): Promise<string> {
	let hashed = styleSources.get(css);
	if (!hashed) {
		// A bound: style elements come from the kit's components, a handful; anything beyond is not cached.
		hashed = source(css);
		if (styleSources.size < MAX_STYLES) styleSources.set(css, hashed);
	}
	return hashed;
}

const STYLE_ELEMENT = /<style\b[^>]*>([\s\S]*?)<\/style>/g;

export async function contentSecurityPolicy(page: { styles: string; script?: string; logo?: string }): Promise<string> {
	const styles = new Set(await Promise.all([...page.styles.matchAll(STYLE_ELEMENT)].map(([, css]) => styleSource(css!))));
	// The passkey script's hash is computed when the script is built.
	const script =
		page.script === undefined ? "'none'" : page.script === PASSKEY_SCRIPT ? `'sha256-${PASSKEY_SCRIPT_SHA256}'` : await source(page.script);
	const images = ["'self'", 'data:', ...logoSource(page.logo)];
	return [
		"default-src 'none'",
		`script-src ${script}`,
		`style-src-elem ${styles.size ? [...styles].join(' ') : "'none'"}`,
		"style-src-attr 'unsafe-inline'",
		"style-src 'unsafe-inline'",
		`img-src ${images.join(' ')}`,
		"connect-src 'self'",
		"base-uri 'none'",
		"frame-ancestors 'none'"
	].join('; ');
}

/** The theme logo's origin, when it is an absolute http(s) URL (a path is `'self'`). */
function logoSource(logo: string | undefined): string[] {
	if (!logo || !/^https?:\/\//i.test(logo)) return [];
	try {
		const { origin } = new URL(logo);
		return origin === 'null' ? [] : [origin];
	} catch {
		return [];
	}
}
