/**
 * A tiny browser stand-in for tests: a cookie jar in front of any web handler
 * (`(Request) => Promise<Response>`: kitauth's `Auth`, @auth/core's `Auth`, a running server via
 * `fetch`), with the CSRF dance (`GET {basePath}/csrf`, then the token in the posted form).
 *
 * The jar keeps cookie values exactly as `Set-Cookie` sent them (still percent-encoded) and sends
 * them back unchanged, as a browser does. It ignores Domain/Path/Secure: one site, one jar.
 */

export type Handler = (request: Request) => Promise<Response>;

export interface SetCookie {
	name: string;
	/** The raw value, as sent (percent-encoded). */
	value: string;
	/** Attribute names lower-cased; flags (`httponly`, `secure`) are `true`. */
	attributes: Record<string, string | true>;
}

export function parseSetCookie(header: string): SetCookie {
	const [pair = '', ...rest] = header.split(';');
	const eq = pair.indexOf('=');
	const attributes: Record<string, string | true> = {};
	for (const part of rest) {
		const at = part.indexOf('=');
		const key = (at === -1 ? part : part.slice(0, at)).trim().toLowerCase();
		if (key) attributes[key] = at === -1 ? true : part.slice(at + 1).trim();
	}
	return { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim(), attributes };
}

export function setCookies(res: Response): SetCookie[] {
	return res.headers.getSetCookie().map(parseSetCookie);
}

/** Does this `Set-Cookie` delete its cookie (`Max-Age=0` or an `Expires` in the past)? */
export function isDeletion(cookie: SetCookie): boolean {
	const maxAge = cookie.attributes['max-age'];
	if (typeof maxAge === 'string' && Number(maxAge) <= 0) return true;
	const expires = cookie.attributes.expires;
	return typeof expires === 'string' && Date.parse(expires) <= Date.now();
}

/**
 * The session cookies this response sets to a value, whole or chunked (`<name>.<n>`), under any
 * of its names: plain (http), `__Host-` (kitauth on https) or `__Secure-` (Auth.js on https).
 */
export function sessionCookiesGranted(res: Response, sessionCookie: string): SetCookie[] {
	const base = sessionCookie.replace(/^__(Secure|Host)-/, '');
	const names = [base, `__Secure-${base}`, `__Host-${base}`];
	return setCookies(res)
		.filter((c) => names.some((name) => c.name === name || c.name.startsWith(`${name}.`)))
		.filter((c) => c.value !== '' && !isDeletion(c));
}

export interface RequestOptions {
	method?: string;
	/** Sent as given; a `cookie` header here replaces the jar's. */
	headers?: Record<string, string>;
	query?: Record<string, string>;
	/** Sent as `application/x-www-form-urlencoded`. */
	form?: Record<string, string>;
	/** Sent as `application/json`. */
	json?: unknown;
	body?: BodyInit;
}

export class TestClient {
	readonly origin: string;
	readonly basePath: string;
	/** name → raw (percent-encoded) value. */
	readonly jar = new Map<string, string>();

	constructor(
		readonly handler: Handler,
		options: { origin?: string; basePath?: string } = {}
	) {
		this.origin = options.origin ?? 'http://localhost:3000';
		this.basePath = options.basePath ?? '/auth';
	}

	/** `'session'` → `{origin}{basePath}/session`; absolute URLs and `/paths` are kept as they are. */
	url(path: string, query?: Record<string, string>): string {
		const base = /^https?:/.test(path)
			? path
			: path.startsWith('/')
				? `${this.origin}${path}`
				: `${this.origin}${this.basePath}/${path}`;
		const search = query ? new URLSearchParams(query).toString() : '';
		return search ? `${base}${base.includes('?') ? '&' : '?'}${search}` : base;
	}

	/** Sends a request with the jar's cookies and stores what the response sets. */
	async request(path: string, options: RequestOptions = {}): Promise<Response> {
		const method = options.method ?? (options.form || options.json !== undefined || options.body ? 'POST' : 'GET');
		const headers = new Headers();
		const cookie = this.cookieHeader();
		if (cookie) headers.set('cookie', cookie);
		// A browser sends Origin on every POST.
		if (method === 'POST') headers.set('origin', this.origin);
		let body: BodyInit | undefined = options.body;
		if (options.form) {
			headers.set('content-type', 'application/x-www-form-urlencoded');
			body = new URLSearchParams(options.form).toString();
		} else if (options.json !== undefined) {
			headers.set('content-type', 'application/json');
			body = JSON.stringify(options.json);
		}
		for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
		const res = await this.handler(new Request(this.url(path, options.query), { method, headers, body }));
		this.store(res);
		return res;
	}

	get(path: string, options: Omit<RequestOptions, 'method'> = {}): Promise<Response> {
		return this.request(path, { ...options, method: 'GET' });
	}

	post(path: string, options: Omit<RequestOptions, 'method'> = {}): Promise<Response> {
		return this.request(path, { ...options, method: 'POST' });
	}

	/** `GET {basePath}/csrf`: the token (the jar keeps the cookie). */
	async csrfToken(): Promise<string> {
		const res = await this.get('csrf');
		if (res.status !== 200) throw new Error(`GET csrf answered ${res.status}`);
		const { csrfToken } = (await res.json()) as { csrfToken: string };
		return csrfToken;
	}

	/** Posts a form carrying a fresh CSRF token, as the built-in pages do. */
	async postForm(
		path: string,
		form: Record<string, string> = {},
		options: Omit<RequestOptions, 'method' | 'form'> = {}
	): Promise<Response> {
		const csrfToken = await this.csrfToken();
		return this.post(path, { ...options, form: { csrfToken, ...form } });
	}

	/** Credentials sign-in: `POST {basePath}/callback/<id>` with the fields and a CSRF token. */
	signInWithCredentials(
		providerId: string,
		fields: Record<string, string>,
		options: Omit<RequestOptions, 'method' | 'form'> = {}
	): Promise<Response> {
		return this.postForm(`callback/${providerId}`, fields, options);
	}

	/** `GET {basePath}/session` → the parsed body (a session or `null`). */
	async session(): Promise<unknown> {
		const res = await this.get('session');
		if (res.status !== 200) throw new Error(`GET session answered ${res.status}`);
		return res.json();
	}

	/** A cookie's decoded value. */
	cookie(name: string): string | undefined {
		const value = this.jar.get(name);
		return value === undefined ? undefined : decodeURIComponent(value);
	}

	/** Puts a cookie in the jar (the value is percent-encoded, as a server would send it). */
	setCookie(name: string, value: string): void {
		this.jar.set(name, encodeURIComponent(value));
	}

	cookieHeader(): string {
		return [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
	}

	store(res: Response): void {
		for (const cookie of setCookies(res)) {
			if (isDeletion(cookie)) this.jar.delete(cookie.name);
			else this.jar.set(cookie.name, cookie.value);
		}
	}
}
