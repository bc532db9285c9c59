/**
 * What every answer to a hostile request must satisfy, as checks that return their violations
 * (the fuzzers collect them across cases and report them with the seed):
 * - no 5xx, except the documented 503 of a busy or unreachable store (with `Retry-After`; the
 *   error page answers `?error=Configuration` 200: anyone can craft the link);
 * - no session granted: no session cookie (or chunk) set to a value;
 * - no off-site redirect: `Location` (or the `{url}` of a JSON answer) stays on the site, or goes
 *   to the authorization endpoint of a configured provider;
 * - no reflected input: the case's marker never becomes markup (an element or attribute of its
 *   own, parsed as a browser would), no `javascript:`/`data:` URL in a link or form, no HTML
 *   answer without its content type;
 * - no internals: no stack trace, driver error or file path in the body.
 */
import { parseHTML } from 'linkedom';
import { sessionCookiesGranted } from '../support/client.js';

export interface Answer {
	status: number;
	headers: Headers;
	body: string;
}

export interface OracleContext {
	/** The origins a redirect may go to on the site (the site's own, plus any the case made legitimate). */
	origins: readonly string[];
	/** Authorization endpoints of the configured providers (`origin + pathname`). */
	authorizationEndpoints: readonly string[];
	/** The session cookie's name (chunks are `<name>.<n>`); plain and every prefix are checked. */
	sessionCookie: string;
	marker: string;
	/** The request's URL, to resolve a relative `Location`. */
	url: string;
	/** Whether a 503 is expected here (the store is down or locked on purpose). */
	storeDown?: boolean;
}

export function checkAnswer(answer: Answer, ctx: OracleContext): string[] {
	const violations: string[] = [];
	const { status, headers, body } = answer;
	if (status >= 500) {
		const documented = status === 503 && headers.has('retry-after');
		if (!documented) violations.push(`status ${status}: ${body.slice(0, 300)}`);
		else if (!ctx.storeDown) violations.push(`503 although the store is up: ${body.slice(0, 200)}`);
	}
	violations.push(...grantedCookies(headers, ctx.sessionCookie));
	const location = headers.get('location');
	if (location !== null) violations.push(...offSite(location, ctx, 'Location'));
	const type = (headers.get('content-type') ?? '').toLowerCase();
	if (type.includes('application/json') && body.trim().startsWith('{')) {
		try {
			const parsed = JSON.parse(body) as Record<string, unknown>;
			if (typeof parsed['url'] === 'string') violations.push(...offSite(parsed['url'], ctx, 'JSON url'));
		} catch {
			violations.push(`JSON content type with a body that is not JSON: ${body.slice(0, 120)}`);
		}
	}
	if (type.includes('text/html')) violations.push(...markupInjected(body));
	else if (/^\s*<(!doctype|html)/i.test(body)) violations.push(`an HTML document served as "${type}"`);
	if (/\n\s+at .+\(.+:\d+:\d+\)|SQLITE_|LibSQLAdapter|node_modules|file:\/\/\//.test(body)) {
		violations.push(`internals in the body: ${body.slice(0, 300)}`);
	}
	return violations;
}

/** Session cookies (whole or chunked; plain, `__Secure-` or `__Host-`) set to a value. */
function grantedCookies(headers: Headers, sessionCookie: string): string[] {
	return sessionCookiesGranted(new Response(null, { headers }), sessionCookie).map((c) => `session cookie set: ${c.name}=${c.value.slice(0, 40)}…`);
}

function offSite(value: string, ctx: OracleContext, what: string): string[] {
	let url: URL;
	try {
		url = new URL(value, ctx.url);
	} catch {
		return [`${what} is not a URL: ${value.slice(0, 200)}`];
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') return [`${what} with scheme ${url.protocol}: ${value.slice(0, 200)}`];
	if (ctx.origins.includes(url.origin)) return [];
	if (ctx.authorizationEndpoints.includes(`${url.origin}${url.pathname}`)) return [];
	return [`${what} off the site: ${value.slice(0, 300)}`];
}

const URL_ATTRIBUTES = ['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'poster', 'srcset'];

/** Markup the marker made: elements or attributes of its own, script URLs in links and forms. */
export function markupInjected(html: string): string[] {
	const violations: string[] = [];
	const { document } = parseHTML(html.includes('<html') ? html : `<!doctype html><html><body>${html}</body></html>`);
	// Any case's marker, not only this one's: stored input must not come back as markup either.
	const injected = /x-fz\d/i;
	for (const element of document.querySelectorAll('*')) {
		const tag = element.tagName.toLowerCase();
		if (injected.test(tag)) violations.push(`element <${tag}> injected`);
		for (const attribute of Array.from(element.attributes) as Attr[]) {
			const name = attribute.name.toLowerCase();
			if (injected.test(name)) violations.push(`attribute ${name} injected on <${tag}>`);
			if (URL_ATTRIBUTES.includes(name) && /^\s*(javascript|data|vbscript):/i.test(attribute.value.replace(/[\t\n\r]/g, ''))) {
				violations.push(`${name}="${attribute.value.slice(0, 80)}" on <${tag}>`);
			}
		}
	}
	return violations;
}
