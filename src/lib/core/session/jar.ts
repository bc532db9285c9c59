import type { CookieOption, CookiesOptions } from '../types/config.js';
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

/**
 * The jar of a request with cookies `request`, under the cookie table `table`. Every request that
 * reads a session makes one: a class, so its methods are the prototype's, not closures made per
 * request.
 */
export function cookieJar(request: Readonly<Record<string, string>>, table: CookiesOptions): CookieJar {
	return new Jar(request, table);
}

class Jar implements CookieJar {
	readonly request: Readonly<Record<string, string>>;
	readonly #session: CookieOption;
	readonly #legacy: CookieOption | undefined;
	/** Made on the first write: most reads of a session write nothing. */
	#queued: Map<string, Cookie> | undefined;
	#values: readonly SessionValue[] | undefined;

	constructor(request: Readonly<Record<string, string>>, table: CookiesOptions) {
		this.request = request;
		this.#session = table.sessionToken;
		this.#legacy = legacySessionCookie(table);
	}

	sessionValues(): readonly SessionValue[] {
		if (this.#values) return this.#values;
		const values = this.#valuesOf(this.#session.name, false);
		if (this.#legacy) values.push(...this.#valuesOf(this.#legacy.name, true));
		return (this.#values = values);
	}

	setSession(value: string, expires: Date): void {
		const { name, options } = this.#session;
		this.#queue(writeChunked(name, value, { ...options, expires }, this.request));
		this.#clearLegacy();
	}

	clearSession(): void {
		this.#queue(clearChunked(this.#session.name, this.#session.options, this.request));
		this.#clearLegacy();
	}

	take(): Cookie[] {
		const cookies = this.#queued ? [...this.#queued.values()] : [];
		this.#queued = undefined;
		return cookies;
	}

	#valuesOf(cookie: string, legacy: boolean): SessionValue[] {
		const values = chunkedValues(this.request, cookie);
		// `chunkedValues` lists the whole cookie first, when there is one.
		const whole = this.request[cookie] ? 1 : 0;
		return values.map((value, index) => ({ value, name: cookie, legacy, chunked: index >= whole }));
	}

	#queue(cookies: Cookie[]): void {
		for (const cookie of cookies) (this.#queued ??= new Map()).set(cookie.name, cookie);
	}

	#clearLegacy(): void {
		if (this.#legacy) this.#queue(clearChunked(this.#legacy.name, this.#legacy.options, this.request));
	}
}
