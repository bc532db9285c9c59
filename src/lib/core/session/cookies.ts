import type {
	CookieKey,
	CookieOption,
	CookiesOptions,
	CookieSerializeOptions
} from '../types/config.js';
import type { Cookie } from '../types/internal.js';

/**
 * The one cookie table: Auth.js v5 names, prefixes and attributes, so sessions survive a switch
 * from @auth/sveltekit. Secure mode adds `__Secure-` (and `__Host-` for the CSRF cookie).
 */
export function cookieTable(
	secure: boolean,
	overrides: Partial<Record<CookieKey, Partial<CookieOption>>> = {}
): CookiesOptions {
	const prefix = secure ? '__Secure-' : '';
	const base: CookieSerializeOptions = { httpOnly: true, sameSite: 'lax', path: '/', secure };
	const checkCookie = { ...base, maxAge: CHECK_COOKIE_MAX_AGE };
	// The session cookie is `__Host-` on https (ASVS 3.3.3: no Domain, Path=/, Secure: no sibling
	// subdomain can set or shadow it), unless the app shares it across subdomains (a `domain`) or
	// narrows its path; then `__Secure-`, as Auth.js names it. Auth.js's `__Secure-` cookie is read
	// once and replaced (see `legacySessionCookie`). The device cookie follows the same rule.
	const hostPrefix = (options: Partial<CookieSerializeOptions> | undefined) =>
		secure ? (!options?.domain && (options?.path ?? '/') === '/' ? '__Host-' : '__Secure-') : '';
	const defaults: CookiesOptions = {
		sessionToken: { name: `${hostPrefix(overrides.sessionToken?.options)}${SESSION_COOKIE}`, options: base },
		callbackUrl: { name: `${prefix}authjs.callback-url`, options: base },
		csrfToken: { name: `${secure ? '__Host-' : ''}authjs.csrf-token`, options: base },
		pkceCodeVerifier: { name: `${prefix}authjs.pkce.code_verifier`, options: checkCookie },
		state: { name: `${prefix}authjs.state`, options: checkCookie },
		nonce: { name: `${prefix}authjs.nonce`, options: checkCookie },
		webauthnChallenge: { name: `${prefix}authjs.challenge`, options: checkCookie },
		emailVerification: { name: `${prefix}authjs.email-verification`, options: checkCookie },
		device: { name: `${hostPrefix(overrides.device?.options)}authjs.device`, options: { ...base, maxAge: DEVICE_COOKIE_MAX_AGE } },
		// Its lifetime is set where it is written (`twoFactor.pendingMaxAge`, `rememberDevice.maxAge`).
		twoFactor: { name: `${hostPrefix(overrides.twoFactor?.options)}authjs.two-factor`, options: base },
		twoFactorDevice: { name: `${hostPrefix(overrides.twoFactorDevice?.options)}authjs.two-factor-device`, options: base }
	};
	for (const key of Object.keys(overrides) as CookieKey[]) {
		const override = overrides[key];
		if (!override || !Object.hasOwn(defaults, key)) continue;
		defaults[key] = {
			name: override.name ?? defaults[key].name,
			options: { ...defaults[key].options, ...override.options }
		};
	}
	return defaults;
}

/** The session cookie's name without its prefix (Auth.js's). */
export const SESSION_COOKIE = 'authjs.session-token';

/**
 * The session cookie Auth.js set on https, `__Secure-authjs.session-token`, when kitauth's is the
 * `__Host-` one: read (with its own key, derived from its name) when the `__Host-` cookie does not
 * open, then replaced by it and deleted.
 */
export function legacySessionCookie(cookies: CookiesOptions): CookieOption | undefined {
	const { name, options } = cookies.sessionToken;
	return name === `__Host-${SESSION_COOKIE}` ? { name: `__Secure-${SESSION_COOKIE}`, options } : undefined;
}

/** State, PKCE, nonce and challenge cookies live 15 minutes. */
export const CHECK_COOKIE_MAX_AGE = 15 * 60;

/** The device cookie lives a year (renewed by every sign-in); its entries are valid as long. */
export const DEVICE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

/** 4096 bytes per cookie minus ~160 for its attributes (Auth.js measured the same). */
export const CHUNK_SIZE = 4096 - 160;
const MAX_CHUNKS = 16;
const MAX_COOKIES = 200;
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Parses a `Cookie` header. Never throws: malformed pairs are skipped, bad escapes kept raw. */
export function parseCookieHeader(header: string | null): Record<string, string> {
	const cookies: Record<string, string> = Object.create(null);
	if (!header) return cookies;
	let count = 0;
	for (const pair of header.split(';')) {
		if (++count > MAX_COOKIES) break;
		const eq = pair.indexOf('=');
		if (eq <= 0) continue;
		const name = pair.slice(0, eq).trim();
		if (!COOKIE_NAME.test(name) || name in cookies) continue;
		let value = pair.slice(eq + 1).trim();
		if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
		cookies[name] = safeDecode(value);
	}
	return cookies;
}

/** A percent-encoded value decoded; kept as it is when it does not decode. */
function safeDecode(value: string): string {
	if (!value.includes('%')) return value;
	try {
		return decodeURIComponent(value);
	} catch {
		return value;
	}
}

export function serializeCookie({ name, value, options }: Cookie): string {
	let out = `${name}=${encodeURIComponent(value)}`;
	if (options.maxAge !== undefined) out += `; Max-Age=${Math.floor(options.maxAge)}`;
	const expires =
		options.expires ??
		(options.maxAge !== undefined ? new Date(Date.now() + options.maxAge * 1000) : undefined);
	if (expires) out += `; Expires=${expires.toUTCString()}`;
	if (options.domain) out += `; Domain=${options.domain}`;
	out += `; Path=${options.path ?? '/'}`;
	if (options.httpOnly) out += '; HttpOnly';
	if (options.secure) out += '; Secure';
	if (options.sameSite) out += `; SameSite=${options.sameSite[0]!.toUpperCase()}${options.sameSite.slice(1)}`;
	if (options.partitioned) out += '; Partitioned';
	return out;
}

/** A cookie that deletes `name` (same options, empty value, `Max-Age=0`). */
export function expiredCookie(name: string, options: CookieSerializeOptions): Cookie {
	const { expires: _expires, ...rest } = options;
	return { name, value: '', options: { ...rest, maxAge: 0 } };
}

/**
 * The values a possibly chunked cookie may hold, the whole cookie first: `name` itself, then
 * `name.0`, `name.1`, … concatenated (up to the first missing index). A reader takes the first that
 * opens, so a valid whole cookie wins over any chunk set, and a planted or stale chunk set never
 * hides it (nor gets it deleted). Normally only one form is present: every write removes the other.
 */
export function chunkedValues(cookies: Record<string, string>, name: string): string[] {
	const values: string[] = [];
	const whole = cookies[name];
	if (whole) values.push(whole);
	let chunked = '';
	for (let index = 0; index < MAX_CHUNKS; index++) {
		const chunk = cookies[`${name}.${index}`];
		if (chunk === undefined) break;
		chunked += chunk;
	}
	if (chunked) values.push(chunked);
	return values;
}

/** Reads a possibly chunked cookie: the first of {@link chunkedValues}. */
export function readChunked(cookies: Record<string, string>, name: string): string | undefined {
	return chunkedValues(cookies, name)[0];
}

/** Does the request carry `name` or any `name.<n>` chunk? */
export function hasChunked(cookies: Record<string, string>, name: string): boolean {
	return chunkNames(cookies, name).length > 0;
}

/**
 * Writes `value` under `name`, split into `name.N` chunks when it is too long for one cookie.
 * Every chunk the request carried that the new value does not overwrite is deleted, so switching
 * between chunked and unchunked forms leaves nothing stale behind.
 */
export function writeChunked(
	name: string,
	value: string,
	options: CookieSerializeOptions,
	requestCookies: Record<string, string>
): Cookie[] {
	const out = new Map<string, Cookie>();
	for (const existing of chunkNames(requestCookies, name)) {
		out.set(existing, expiredCookie(existing, options));
	}
	if (value.length <= CHUNK_SIZE) {
		out.set(name, { name, value, options });
	} else {
		for (let index = 0; index * CHUNK_SIZE < value.length; index++) {
			const chunkName = `${name}.${index}`;
			const chunk = value.slice(index * CHUNK_SIZE, (index + 1) * CHUNK_SIZE);
			out.set(chunkName, { name: chunkName, value: chunk, options });
		}
	}
	return [...out.values()];
}

/** Deletes `name` and all its chunks the request carried. */
export function clearChunked(
	name: string,
	options: CookieSerializeOptions,
	requestCookies: Record<string, string>
): Cookie[] {
	return chunkNames(requestCookies, name).map((existing) => expiredCookie(existing, options));
}

/** `name` and every `name.<n>` the request carried (all of them, however many, so none go stale). */
function chunkNames(cookies: Record<string, string>, name: string): string[] {
	const prefix = `${name}.`;
	return Object.keys(cookies).filter(
		(key) => key === name || (key.startsWith(prefix) && /^\d+$/.test(key.slice(prefix.length)))
	);
}
