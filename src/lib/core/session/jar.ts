import type { CookiesOptions } from '../types/config.js';
import type { Cookie } from '../types/internal.js';
import { chunkedValues, clearChunked, legacySessionCookie, writeChunked } from './cookies.js';

/** A value the request's session cookie holds, and where it came from. */
export interface SessionValue {
	value: string;
	/** The cookie's name: the key-derivation salt of a JWT session token. */
	name: string;
	/** Auth.js's `__Secure-` cookie, read once and replaced by kitauth's `__Host-` one. */
	legacy: boolean;
	/** Joined from `name.0`, `name.1`, … rather than the whole cookie. */
	chunked: boolean;
}

/**
 * One request's cookies as the session layer sees them (SvelteKit's `get_cookies` is the model: a
 * jar built per request around its cookies, instead of maps and output arrays threaded through
 * every call). It owns the session cookie's forms, so no strategy names them: whole or chunked
 * (`name.0`, `name.1`, … when a JWT outgrows one cookie), under kitauth's name or, on https,
 * Auth.js's `__Secure-authjs.session-token` where kitauth's is `__Host-` (see `legacySessionCookie`).
 * What a strategy sets or deletes is queued, the last word on a name winning, until it `take`s it.
 */
export interface CookieJar {
	/** The request's cookies, parsed once (hostile input: values are whatever the client sent). */
	readonly request: Readonly<Record<string, string>>;
	/**
	 * The session values the request carries, in the order to try them: kitauth's cookie whole,
	 * then its chunks joined, then the same of Auth.js's cookie. Empty values are none. Made once
	 * per jar.
	 */
	sessionValues(): readonly SessionValue[];
	/**
	 * Sets the session cookie to `value` (in chunks when it is too long for one cookie), and deletes
	 * every other form of it the request carried: stale chunks, the whole cookie a chunk set
	 * replaces, Auth.js's cookie.
	 */
	setSession(value: string, expires: Date): void;
	/** Deletes every form of the session cookie the request carried, Auth.js's included. */
	clearSession(): void;
	/** The cookies queued since the last `take`, in the order first queued. */
	take(): Cookie[];
}

/** Deletes every form of the session cookie the request carried; the cookies queued until now. */
export function clearedSession(jar: CookieJar): Cookie[] {
	jar.clearSession();
	return jar.take();
}

/** The jar of a request with cookies `request`, under the cookie table `table`. */
export function cookieJar(request: Readonly<Record<string, string>>, table: CookiesOptions): CookieJar {
	const { name, options } = table.sessionToken;
	const legacy = legacySessionCookie(table);
	// Made on the first write: most reads of a session write nothing.
	let queued: Map<string, Cookie> | undefined;
	const queue = (cookies: Cookie[]) => {
		for (const cookie of cookies) (queued ??= new Map()).set(cookie.name, cookie);
	};
	const valuesOf = (cookie: string, isLegacy: boolean): SessionValue[] => {
		const values = chunkedValues(request, cookie);
		// `chunkedValues` lists the whole cookie first, when there is one.
		const whole = request[cookie] ? 1 : 0;
		return values.map((value, index) => ({ value, name: cookie, legacy: isLegacy, chunked: index >= whole }));
	};
	let values: readonly SessionValue[] | undefined;
	const clearLegacy = () => {
		if (legacy) queue(clearChunked(legacy.name, legacy.options, request));
	};
	return {
		request,
		sessionValues: () => (values ??= [...valuesOf(name, false), ...(legacy ? valuesOf(legacy.name, true) : [])]),
		setSession(value, expires) {
			queue(writeChunked(name, value, { ...options, expires }, request));
			clearLegacy();
		},
		clearSession() {
			queue(clearChunked(name, options, request));
			clearLegacy();
		},
		take() {
			const cookies = queued ? [...queued.values()] : [];
			queued = undefined;
			return cookies;
		}
	};
}
