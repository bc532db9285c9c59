/**
 * Hostile requests for the fuzzers: every action of the route table (and some that are not), by
 * any method, with hostile paths, query strings, headers, cookies and bodies, mixed with genuine
 * material (a CSRF pair, check cookies of a started sign-in, a WebAuthn challenge) so that some
 * cases get past the first checks and reach the flows.
 *
 * Inputs carry a marker (`x-fz<case>`) in shapes that would break out of HTML text, attributes and
 * scripts if echoed unescaped; the oracles look for it (see `oracles.ts`). Nothing here ever knows
 * a valid password, an emailed token or a signed assertion: no case can sign in legitimately.
 */
import { Random } from './random.js';

/** What a fuzzer knows about the app under test. */
export interface FuzzTarget {
	/** The site's origin, as its users reach it. */
	origin: string;
	/** Where the auth endpoints live (`/auth`, `/base/api/auth`). */
	basePath: string;
	/** The routes the core serves, `METHOD action` (from the route table). */
	routes: readonly string[];
	/** The actions that take a provider id. */
	withProvider: readonly string[];
	/** The configured provider ids. */
	providers: readonly string[];
	/** Cookie names as the app sets them (prefixed on https). */
	cookies: CookieNames;
	material: Material;
	/** More paths of the app to send hostile requests to (pages, form actions). */
	pages?: readonly string[];
}

export interface CookieNames {
	session: string;
	/**
	 * Other names a session cookie may arrive under: Auth.js's `__Secure-` one, which an https app
	 * still reads once, and the other scheme's (a plain one planted over http, a prefixed one).
	 */
	sessionAliases: readonly string[];
	csrf: string;
	callbackUrl: string;
	/** State, PKCE, nonce, challenge, email verification. */
	checks: readonly string[];
}

/** Genuine values from real requests to the app (raw cookie values, as `Set-Cookie` sent them). */
export interface Material {
	csrfCookie: string;
	csrfToken: string;
	/** Check cookies of a started OAuth sign-in, and the `state` it sent to the IdP. */
	oauth?: { provider: string; cookies: Record<string, string>; state: string };
	/** A WebAuthn challenge cookie, from `webauthn-options`. */
	challenge?: Record<string, string>;
	/** Session tokens that must never be accepted: other secrets, other salts, expired, other apps. */
	foreignSessions: readonly string[];
}

export type BodyKind = 'none' | 'form' | 'json' | 'multipart' | 'huge' | 'garbage' | 'lying-type' | 'deep' | 'wide';

export interface FuzzRequest {
	index: number;
	method: string;
	/** Path and query, raw (already percent-encoded where meant to be). */
	target: string;
	headers: [string, string][];
	body: Uint8Array | undefined;
	bodyKind: BodyKind;
	/** The marker this case's inputs carry. */
	marker: string;
}

/** A short description to replay a case by hand. */
export function describeRequest(req: FuzzRequest): string {
	const headers = req.headers.map(([name, value]) => `${name}: ${clip(value, 160)}`).join('\n  ');
	const body = req.body ? `\n  body (${req.bodyKind}, ${req.body.byteLength} B): ${clip(Buffer.from(req.body).toString('latin1'), 300)}` : '';
	return `#${req.index} ${req.method} ${clip(req.target, 300)}\n  ${headers}${body}`;
}

/** A field's value as a form would carry it. */
function asText(value: unknown): string {
	return typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined');
}

export function clip(value: string, max: number): string {
	return value.length > max ? `${value.slice(0, max)}…(${value.length})` : value;
}

const METHODS = ['GET', 'POST'];
const ODD_METHODS = ['HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'post', 'get', 'FUZZ', 'PROPFIND'];
const ODD_ACTIONS = ['admin', 'SIGNIN', 'Session', 'signin.json', 'signin;x=1', '%73ignin', 'callback%2Fcredentials', '.', '..', '%2e%2e', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'webauthn-options%00', 'providers ', ''];
const ODD_PROVIDERS = ['__proto__', 'constructor', 'toString', 'prototype', '%2e%2e', '..%2f..%2f', '%00', '%ff', '%', 'a%2Fb', 'CREDENTIALS', 'credentials%20', '%E2%80%AE', '%F0%9F%94%91', 'x'.repeat(3000), '%252e', 'nope'];
const QUERY_KEYS = ['callbackUrl', 'redirectTo', 'redirect', 'error', 'code', 'state', 'iss', 'email', 'token', 'action', 'provider', 'csrfToken', 'session_state', 'id_token', 'nonce', 'login_hint', 'prompt', 'code_verifier', 'error_description', 'message', 'kind', 'type', '__proto__', 'constructor[prototype][x]', ''];
const BODY_KEYS = ['csrfToken', 'callbackUrl', 'redirectTo', 'redirect', 'email', 'username', 'password', 'code', 'token', 'action', 'data', 'providerId', 'state', 'id_token', 'user', 'expires', 'name', 'image', '__proto__', 'constructor', 'json', 'identifier'];
const ORIGIN_VALUES = (origin: string) => [origin, 'null', 'https://evil.example', origin.replace('://', '://evil.'), `${origin}.evil.example`, origin.toUpperCase(), `${origin}/`, '', 'file://', origin.replace(/^http:/, 'https:')];
const SITES = ['same-origin', 'same-site', 'cross-site', 'none', 'SAME-ORIGIN', 'garbage'];
const CONTENT_TYPES = [
	'application/x-www-form-urlencoded',
	'application/json',
	'multipart/form-data',
	'multipart/form-data; boundary=',
	'text/plain',
	'application/json; charset=utf-16',
	'APPLICATION/X-WWW-FORM-URLENCODED; charset=utf-8',
	'application/x-www-form-urlencoded;;;',
	'application/jsonx',
	'*/*',
	'',
	'application/json, application/x-www-form-urlencoded'
];

/** Values that are not markers: shapes that trip parsers, off-site URLs, odd text. */
const URLISH = [
	'https://evil.example/',
	'//evil.example',
	'/\\evil.example',
	'\\\\evil.example',
	'///evil.example',
	'/%2f%2fevil.example',
	'/%5cevil.example',
	'https:evil.example',
	'http://localhost:3000@evil.example/',
	'https://evil.example%23@localhost:3000/',
	' https://evil.example',
	'\thttps://evil.example',
	'\n//evil.example',
	'https://localhost:3000.evil.example/',
	'javascript:alert(1)',
	'JaVaScRiPt:alert(1)',
	'java\tscript:alert(1)',
	'data:text/html,<script>alert(1)</script>',
	'vbscript:x',
	'/ /evil.example',
	'/.//evil.example',
	'／／evil.example',
	'https://evil.example\\@localhost:3000/',
	'/account',
	'/',
	'?x=1',
	'#frag'
];
const ODD_TEXT = [
	'',
	' ',
	'\u0000',
	'\u202e',
	'\ud800',
	'\udfff\ud800',
	'é',
	'😀',
	'𝒜',
	'\u200b',
	'%',
	'%zz',
	'%00',
	'%ff%fe',
	'+',
	'&',
	'=',
	';',
	',',
	'"',
	"'",
	'\\',
	'../../etc/passwd',
	"' OR '1'='1",
	'"; DROP TABLE "user"; --',
	'0',
	'-1',
	'1e309',
	'NaN',
	'9007199254740993',
	'true',
	'null',
	'[]',
	'{}',
	'{"__proto__":{"admin":true}}',
	'__proto__',
	'constructor',
	'alice',
	'wrong-password',
	'alice@example.com',
	'ALICE@EXAMPLE.COM',
	'a@b',
	'"quoted"@example.com',
	'a@[127.0.0.1]',
	'alice@example.com\r\nBcc: victim@example.com',
	'alice@example.com,bob@example.com',
	'x'.repeat(70)
];

export class Generator {
	readonly marker: string;

	constructor(
		readonly target: FuzzTarget,
		readonly r: Random,
		readonly index: number
	) {
		this.marker = `x-fz${index}`;
	}

	/** Text that would break out of HTML text, attributes and scripts if echoed as it is. */
	markerValue(): string {
		const m = this.marker;
		return this.r.pick([
			`<${m}>`,
			`"><${m} ${m}=1>`,
			`' ${m}='1`,
			`" ${m}="1`,
			`</script><${m}>`,
			`</title><${m}>`,
			`<!--<${m}>-->`,
			`<svg on${m}=1>`,
			`javascript:${m}`,
			`https://evil.example/<${m}>`,
			`/<${m}>`,
			`${m}@example.com<${m}>`,
			`\\u003c${m}\\u003e`
		]);
	}

	/** A hostile or odd value of any kind. */
	value(): string {
		const r = this.r;
		const roll = r.next();
		if (roll < 0.3) return this.markerValue();
		if (roll < 0.5) return r.pick(URLISH);
		if (roll < 0.8) return r.pick(ODD_TEXT);
		if (roll < 0.85) return 'A'.repeat(r.int(1000, 20_000));
		if (roll < 0.9) return `${this.target.origin}${r.pick(['/', '/account', '/auth/signin', '/<x>', this.target.basePath])}`;
		if (roll < 0.95) return r.pick(this.target.providers);
		return Buffer.from(r.bytes(r.int(1, 64))).toString('latin1');
	}

	/** Percent-encodes text for a URL; a lone surrogate becomes its WTF-8 bytes (invalid UTF-8). */
	encode(value: string): string {
		return value.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|[^]/gu, (ch) => {
			const code = ch.charCodeAt(0);
			if (ch.length === 1 && code >= 0xd800 && code <= 0xdfff) {
				return `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
			}
			return encodeURIComponent(ch);
		});
	}

	request(): FuzzRequest {
		const r = this.r;
		// Mostly a route the core serves, so that most cases get past routing into the actions.
		const route = r.chance(0.8) ? r.pick(this.target.routes).split(' ') : undefined;
		const method = route?.[0] ?? (r.chance(0.7) ? r.pick(METHODS) : r.pick(ODD_METHODS));
		const upper = method.toUpperCase();
		const path = this.path(route?.[1]);
		const query = this.query();
		// A page path may carry its own query (a form action, `?/signIn`).
		const target = path.includes('?') && query ? `${path}&${query.slice(1)}` : `${path}${query}`;
		const cookies = this.cookies();
		const headers = this.headers(upper);
		if (cookies.length) headers.push(['cookie', cookies.join(r.chance(0.95) ? '; ' : r.pick([';', ', ', ';;', '; ;']))]);
		const canHaveBody = upper !== 'GET' && upper !== 'HEAD';
		const { body, kind, contentType } = canHaveBody && r.chance(0.9) ? this.body() : { body: undefined, kind: 'none' as const, contentType: undefined };
		if (contentType !== undefined) headers.push(['content-type', contentType]);
		if (body && r.chance(0.1)) {
			// Content-Length lies: smaller, larger, over the limit, not a number.
			headers.push(['content-length', String(r.pick([0, 1, body.byteLength + 10, 10_000_000, -1, 'abc', '1e3']))]);
		}
		return { index: this.index, method, target, headers, body, bodyKind: kind, marker: this.marker };
	}

	path(routed: string | undefined): string {
		const r = this.r;
		const { basePath, routes, withProvider, providers, pages } = this.target;
		if (pages?.length && r.chance(0.2)) return r.pick(pages);
		const action = routed ?? (r.chance(0.7) ? (r.pick(routes).split(' ')[1] as string) : r.pick(ODD_ACTIONS));
		let provider: string | undefined;
		if (r.chance(withProvider.includes(action) ? 0.9 : 0.08)) provider = r.chance(0.85) ? r.pick(providers) : r.pick(ODD_PROVIDERS);
		else if (r.chance(0.03)) provider = this.encode(this.value());
		let path = `${basePath}/${action}${provider === undefined ? '' : `/${provider}`}`;
		const shape = r.next();
		if (shape < 0.03) path += '/';
		else if (shape < 0.05) path = path.replace(`${basePath}/`, `${basePath}//`);
		else if (shape < 0.06) path += `/${r.pick(['extra', '..', '%2e%2e', 'x/y'])}`;
		else if (shape < 0.07) path = path.replace(basePath, `${basePath}x`);
		else if (shape < 0.08) path = path.replace(basePath, basePath.toUpperCase());
		else if (shape < 0.09) path = path.replace(`${basePath}/`, `${basePath}/./`);
		else if (shape < 0.1) path = path.replace(`${basePath}/`, `${basePath}/%2f`);
		else if (shape < 0.11) path = `${basePath}/${this.encode(this.markerValue())}`;
		return path;
	}

	query(): string {
		const r = this.r;
		if (r.chance(0.35)) return '';
		const pairs: string[] = [];
		const count = r.int(1, 5);
		const oauth = this.target.material.oauth;
		for (let i = 0; i < count; i++) {
			const key = r.chance(0.9) ? r.pick(QUERY_KEYS) : this.encode(this.value());
			let value = this.value();
			if (key === 'state' && oauth && r.chance(0.5)) value = oauth.state;
			if (key === 'error' && r.chance(0.5)) value = r.pick(['Configuration', 'AccessDenied', 'Verification', 'Unavailable', 'CredentialsSignin', 'OAuthCallbackError', 'RateLimited', 'Default']);
			const raw = r.chance(0.1);
			pairs.push(raw ? `${key}=${value.replace(/[#\s]/g, '')}` : `${this.encode(key)}=${this.encode(value)}`);
		}
		if (r.chance(0.05)) pairs.push('');
		return `?${pairs.join(r.chance(0.95) ? '&' : ';')}`;
	}

	/** The Cookie header's pairs. */
	cookies(): string[] {
		const r = this.r;
		const { cookies: names, material } = this.target;
		const out: string[] = [];
		const add = (name: string, value: string) => out.push(`${name}=${value}`);
		if (r.chance(0.6)) add(names.csrf, r.chance(0.85) ? material.csrfCookie : this.cookieValue());
		if (r.chance(0.5)) {
			const session = r.next();
			if (session < 0.4) add(names.session, r.pick(material.foreignSessions));
			else if (session < 0.7) add(names.session, this.cookieValue());
			else {
				// A chunk set: pieces of a foreign token, garbage, gaps, odd indices.
				const token = r.pick(material.foreignSessions);
				const pieces = r.int(1, 4);
				const size = Math.ceil(token.length / pieces);
				for (let i = 0; i < pieces; i++) {
					const index = r.chance(0.8) ? String(i) : r.pick(['00', '-1', '99999999999', 'x', '1.5', ' 1', String(i + 2)]);
					add(`${names.session}.${index}`, r.chance(0.85) ? token.slice(i * size, (i + 1) * size) : this.cookieValue());
				}
				if (r.chance(0.3)) add(names.session, r.pick(material.foreignSessions));
			}
		}
		if (material.oauth && r.chance(0.3)) for (const [name, value] of Object.entries(material.oauth.cookies)) if (r.chance(0.8)) add(name, value);
		if (material.challenge && r.chance(0.2)) for (const [name, value] of Object.entries(material.challenge)) add(name, value);
		if (r.chance(0.25)) add(r.pick(names.checks), this.cookieValue());
		if (r.chance(0.2)) add(names.callbackUrl, this.encode(r.chance(0.6) ? r.pick(URLISH) : this.value()));
		if (r.chance(0.1)) add(r.pick(names.sessionAliases), r.chance(0.7) ? r.pick(material.foreignSessions) : this.cookieValue());
		if (r.chance(0.05)) for (let i = 0; i < r.int(100, 400); i++) add(`c${i}`, 'x');
		if (r.chance(0.05)) add(r.pick([names.csrf, names.session]), 'x'.repeat(r.int(4000, 70_000)));
		if (r.chance(0.05)) add(names.csrf, material.csrfCookie.replace(/%7C|\|/, '%7C0'));
		if (r.chance(0.05)) out.push(r.pick(['=x', 'novalue', '; ;', `${names.session}`, `${names.session}=a=b`, `"${names.session}"=x`]));
		return r.chance(0.5) ? out : r.some(out, out.length).concat(out).slice(0, out.length);
	}

	/** A cookie value as a hostile client may send it (raw: bad escapes and all). */
	cookieValue(): string {
		const r = this.r;
		const roll = r.next();
		if (roll < 0.3) return this.encode(this.value());
		if (roll < 0.5) return r.pick(['%', '%zz', '%ff', '%00', '""', '"x', 'a,b', '{}', 'null', 'undefined', '0'.repeat(64), 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIn0']);
		if (roll < 0.7) {
			// JWE-shaped: five base64url parts of random bytes, or a real header with garbage.
			const part = () => Buffer.from(r.bytes(r.int(0, 80))).toString('base64url');
			const header = r.chance(0.5) ? Buffer.from(JSON.stringify(r.pick([{ alg: 'dir', enc: 'A256CBC-HS512' }, { alg: 'dir', enc: 'A256GCM' }, { alg: 'none' }, { alg: 'dir', enc: 'A256CBC-HS512', kid: '../x' }, { alg: 'dir', enc: 'A256CBC-HS512', zip: 'DEF' }]))).toString('base64url') : part();
			return [header, part(), part(), part(), part()].slice(0, r.pick([5, 5, 5, 3, 6, 1])).join('.');
		}
		if (roll < 0.85) return r.pick(this.target.material.foreignSessions);
		return Buffer.from(r.bytes(r.int(1, 200))).toString('base64url');
	}

	headers(method: string): [string, string][] {
		const r = this.r;
		const { origin } = this.target;
		const out: [string, string][] = [];
		// A browser sends Origin on a POST; hostile clients send anything or nothing.
		if (method === 'POST' ? r.chance(0.8) : r.chance(0.2)) out.push(['origin', r.chance(0.6) ? origin : r.pick(ORIGIN_VALUES(origin))]);
		if (r.chance(0.3)) out.push(['sec-fetch-site', r.chance(0.5) ? 'same-origin' : r.pick(SITES)]);
		if (r.chance(0.15)) out.push(['x-forwarded-host', r.pick(['evil.example', 'localhost:3000', `${this.marker}.example`, 'evil.example, localhost:3000', ''])]);
		if (r.chance(0.15)) out.push(['x-forwarded-proto', r.pick(['https', 'http', 'javascript', 'https, http', ''])]);
		if (r.chance(0.15)) out.push(['x-forwarded-for', r.pick(['203.0.113.7', '203.0.113.7, 10.0.0.1', 'garbage', '::1', '[::1]:80', '1.2.3.4'.repeat(200), '', 'unknown', '999.999.999.999', `2001:db8::${r.int(1, 9999).toString(16)}`])]);
		if (r.chance(0.1)) out.push(['forwarded', r.pick(['for=203.0.113.7;proto=https;host=evil.example', 'for="[2001:db8::1]:4711"', 'for=unknown', 'garbage;;;', `host="${this.marker}"`])]);
		if (r.chance(0.1)) out.push(['host', r.pick(['evil.example', 'localhost:3000', 'localhost:3000.evil.example', `${this.marker}.example`, '[::1]', 'a b'])]);
		if (r.chance(0.15)) out.push(['x-auth-return-redirect', r.pick(['1', 'true', '0', ''])]);
		if (r.chance(0.15)) out.push(['accept', r.pick(['application/json', 'text/html', '*/*', 'text/html;q=0, application/json', ''])]);
		if (r.chance(0.1)) out.push(['user-agent', r.chance(0.5) ? this.headerValue(this.markerValue()) : 'x'.repeat(r.int(500, 9000))]);
		if (r.chance(0.05)) out.push(['referer', this.headerValue(r.pick(URLISH))]);
		return out;
	}

	/** A header value the Fetch API accepts: bytes as latin1, no CR, LF or NUL. */
	headerValue(value: string): string {
		return Buffer.from(value, 'utf8').toString('latin1').replace(/[\r\n\0]/g, ' ');
	}

	body(): { body: Uint8Array | undefined; kind: BodyKind; contentType: string | undefined } {
		const r = this.r;
		const fields = this.fields();
		const roll = r.next();
		const text = (value: string) => new Uint8Array(Buffer.from(value, 'utf8'));
		if (roll < 0.4) {
			const form = fields.map(([key, value]) => `${this.encode(key)}=${this.encode(asText(value))}`).join('&');
			return { body: text(form), kind: 'form', contentType: r.chance(0.9) ? 'application/x-www-form-urlencoded' : r.pick(CONTENT_TYPES) };
		}
		if (roll < 0.46) return this.deepOrWide(fields);
		if (roll < 0.6) {
			const shape = r.next();
			const json =
				shape < 0.8
					? JSON.stringify(Object.fromEntries(fields))
					: r.pick(['', '[]', 'null', '"x"', '1', '{', '{"csrfToken":', '{"a":1}garbage', '\ufeff{}', JSON.stringify([Object.fromEntries(fields)]), '{"__proto__":{"polluted":1}}', `{${'"a":{'.repeat(5000)}`]);
			return { body: text(json), kind: 'json', contentType: r.chance(0.9) ? 'application/json' : r.pick(CONTENT_TYPES) };
		}
		if (roll < 0.75) return this.multipart(fields);
		if (roll < 0.82) {
			const size = r.int(64 * 1024 - 10, 200 * 1024);
			const filler = `${this.encode(r.pick(BODY_KEYS))}=${'A'.repeat(size)}`;
			return { body: text(filler), kind: 'huge', contentType: r.pick(['application/x-www-form-urlencoded', 'application/json', 'multipart/form-data; boundary=x']) };
		}
		if (roll < 0.9) return { body: r.bytes(r.int(0, 2000)), kind: 'garbage', contentType: r.pick(CONTENT_TYPES) };
		// A form body declared as JSON, a JSON body declared as a form, and so on.
		const form = fields.map(([key, value]) => `${this.encode(key)}=${this.encode(asText(value))}`).join('&');
		return r.chance(0.5)
			? { body: text(form), kind: 'lying-type', contentType: 'application/json' }
			: { body: text(JSON.stringify(Object.fromEntries(fields))), kind: 'lying-type', contentType: 'application/x-www-form-urlencoded' };
	}

	/**
	 * A POST that is genuine but for its body: a route of the table (with a configured provider
	 * where it takes one), the site's `Origin`, the CSRF cookie and its token, Alice's username —
	 * so that every body reaches where bodies are read, and a well-formed one the action behind it.
	 * Mostly too deep or too wide, else any body of {@link body}.
	 */
	bodyCase(): FuzzRequest {
		const r = this.r;
		const { routes, withProvider, providers, origin, basePath, cookies, material } = this.target;
		const action = r.pick(routes.filter((route) => route.startsWith('POST '))).slice('POST '.length);
		const path = withProvider.includes(action) ? `${action}/${r.pick(providers)}` : action;
		const fields: [string, unknown][] = [['csrfToken', material.csrfToken], ['username', 'alice'], ...this.fields().filter(([key]) => key !== 'csrfToken' && key !== 'username')];
		const { body, kind, contentType } = r.chance(0.7) ? this.deepOrWide(fields) : this.body();
		const headers: [string, string][] = [['origin', origin], ['cookie', `${cookies.csrf}=${material.csrfCookie}`]];
		if (contentType !== undefined) headers.push(['content-type', contentType]);
		return { index: this.index, method: 'POST', target: `${basePath}/${path}`, headers, body, bodyKind: kind, marker: this.marker };
	}

	/**
	 * Well-formed bodies beside genuine fields (often a valid CSRF token) that are too deep (JSON
	 * nested thousands of levels, objects or arrays) or too wide (hundreds of fields, in a form,
	 * JSON or multipart): what a flow that copies or serializes its input could choke on.
	 */
	deepOrWide(fields: [string, unknown][]): { body: Uint8Array; kind: BodyKind; contentType: string } {
		const r = this.r;
		const text = (value: string) => new Uint8Array(Buffer.from(value, 'utf8'));
		if (r.chance(0.5)) {
			const depth = r.pick([17, 100, 2000, 5000, 9000]);
			const [open, close] = r.chance(0.5) ? ['{"a":', '}'] : ['[', ']'];
			const nested = `${open.repeat(depth)}${JSON.stringify(this.value())}${close.repeat(depth)}`;
			const rest = JSON.stringify(Object.fromEntries(fields)).slice(1, -1);
			const key = r.pick(['nested', 'data', 'password', 'email', 'csrfToken']);
			const body = `{${rest}${rest ? ',' : ''}"${key}":${nested}}`;
			return { body: text(body), kind: 'deep', contentType: r.chance(0.9) ? 'application/json' : r.pick(CONTENT_TYPES) };
		}
		const wide: [string, unknown][] = [...fields];
		for (let i = r.int(200, 3000); i > 0; i--) wide.push([`${r.pick(BODY_KEYS)}${i}`, r.chance(0.5) ? '' : this.value()]);
		const shape = r.next();
		if (shape < 0.4) {
			return { body: text(JSON.stringify(Object.fromEntries(wide))), kind: 'wide', contentType: 'application/json' };
		}
		if (shape < 0.7) return { ...this.multipart(wide), kind: 'wide' };
		const form = wide.map(([key, value]) => `${this.encode(key)}=${this.encode(asText(value))}`).join('&');
		return { body: text(form), kind: 'wide', contentType: 'application/x-www-form-urlencoded' };
	}

	multipart(fields: [string, unknown][]): { body: Uint8Array; kind: BodyKind; contentType: string } {
		const r = this.r;
		const boundary = r.pick(['----fuzz', 'x', 'a'.repeat(100), '"quoted"', `b${r.int(0, 1e6)}`]);
		const declared = r.chance(0.85) ? boundary : r.pick(['', 'other', `${boundary}x`]);
		let out = '';
		for (const [key, value] of fields) {
			const file = r.chance(0.1) ? `; filename="${r.pick(['a.txt', '../x', this.marker])}"` : '';
			out += `--${boundary}\r\nContent-Disposition: form-data; name="${key.replace(/"/g, '%22')}"${file}\r\n\r\n${asText(value)}\r\n`;
		}
		if (r.chance(0.85)) out += `--${boundary}--\r\n`;
		if (r.chance(0.1)) out = out.replace(/\r\n/g, '\n');
		const contentType = r.chance(0.9) ? `multipart/form-data; boundary=${declared}` : 'multipart/form-data';
		return { body: new Uint8Array(Buffer.from(out, 'utf8')), kind: 'multipart', contentType };
	}

	/** Body fields: often a genuine CSRF token, some known fields, hostile values and types. */
	fields(): [string, unknown][] {
		const r = this.r;
		const out: [string, unknown][] = [];
		if (r.chance(0.65)) out.push(['csrfToken', r.chance(0.85) ? this.target.material.csrfToken : this.value()]);
		for (const key of r.some(BODY_KEYS, 6)) {
			if (key === 'csrfToken') continue;
			const roll = r.next();
			let value: unknown = this.value();
			if (roll < 0.08) value = r.pick<unknown>([{}, [], null, 1, true, { toString: 'x' }, ['a', 'b'], JSON.parse('{"__proto__":{"x":1}}')]);
			else if (key === 'action' && roll < 0.5) value = r.pick(['register', 'authenticate', 'REGISTER', 'delete']);
			else if (key === 'data' && roll < 0.5) value = JSON.stringify({ id: this.value(), rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: 'e30', authenticatorData: '', signature: '' } });
			else if (key === 'username' && roll < 0.5) value = 'alice';
			out.push([key, value]);
		}
		if (r.chance(0.05)) out.push(['csrfToken', this.value()]);
		return out;
	}
}
