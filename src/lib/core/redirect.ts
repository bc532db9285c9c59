/**
 * callbackUrl rules. Values come from the body, the query or a cookie, i.e. from anyone: a value is
 * used only when it is a path or an absolute http(s) URL, and it then passes the `redirect`
 * callback, whose default allows this origin only. Anything else is ignored — never a 500
 * (the reference answers 500 for `http://[`, even on later requests once it sits in the cookie).
 */

const MAX_URL_LENGTH = 2048;

/** A syntactically acceptable callbackUrl: a same-site path or an absolute http(s) URL. */
export function parseCallbackUrl(value: unknown): string | undefined {
	if (typeof value !== 'string' || value.length === 0 || value.length > MAX_URL_LENGTH) return;
	// eslint-disable-next-line no-control-regex
	if (/[\u0000-\u001f\u007f\\]/.test(value)) return;
	if (value.startsWith('/')) return value.startsWith('//') ? undefined : value;
	try {
		const url = new URL(value);
		return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
	} catch {
		return undefined;
	}
}

/** The default `redirect` callback: relative paths and same-origin URLs, else the site's base. */
export function defaultRedirect({ url, baseUrl }: { url: string; baseUrl: string }): string {
	if (url.startsWith('/') && !url.startsWith('//')) return `${baseUrl}${url}`;
	try {
		if (new URL(url).origin === baseUrl) return url;
	} catch {
		// not a URL: fall through to the safe default
	}
	return baseUrl;
}

/** Makes what a `redirect` callback returned absolute, or `undefined` when it is unusable. */
export function absoluteRedirect(value: unknown, baseUrl: string): string | undefined {
	const parsed = parseCallbackUrl(value);
	if (!parsed) return undefined;
	return parsed.startsWith('/') ? `${baseUrl}${parsed}` : parsed;
}

/**
 * A `redirectTo`/`callbackUrl` that stays on this site: a path (returned as it is) or an absolute
 * URL of `origin`; `undefined` for anything else. For app routes that pass a return address along
 * (`/signin?redirectTo=…`): only ever redirect to what this returns.
 */
export function safeCallbackUrl(value: unknown, origin: string): string | undefined {
	const parsed = parseCallbackUrl(value);
	if (!parsed) return undefined;
	const url = new URL(parsed, origin);
	// Checked after parsing: dot segments collapse `/.//evil.example` into the path `//evil.example`,
	// which any later relative use (a `Location`, a link) reads as another host.
	if (url.origin !== origin || url.pathname.startsWith('//')) return undefined;
	return parsed;
}
