/**
 * The per-request cookie jar (core/session/jar.ts): the one place that knows the session cookie's
 * forms — whole or chunked, kitauth's name or Auth.js's `__Secure-` one on https.
 */
import { describe, expect, it } from 'vitest';
import { CHUNK_SIZE, cookieTable } from '../../src/lib/core/session/cookies.js';
import { cookieJar } from '../../src/lib/core/session/jar.js';

const HOST = '__Host-authjs.session-token';
const LEGACY = '__Secure-authjs.session-token';
const PLAIN = 'authjs.session-token';
const expires = new Date('2031-06-01T00:00:00Z');

/** Name → value of the cookies a jar queued, deletions as `''`. */
function byName(cookies: { name: string; value: string; options: { maxAge?: number } }[]) {
	return Object.fromEntries(cookies.map((c) => [c.name, c.options.maxAge === 0 ? '' : c.value]));
}

describe('cookie jar: the session cookie', () => {
	it("lists kitauth's cookie whole, then its chunks, then Auth.js's the same way (https)", () => {
		const jar = cookieJar(
			{ [HOST]: 'a', [`${HOST}.0`]: 'b', [`${HOST}.1`]: 'c', [`${LEGACY}.0`]: 'd', [LEGACY]: 'e', other: 'x' },
			cookieTable(true)
		);
		expect(jar.sessionValues()).toEqual([
			{ value: 'a', name: HOST, legacy: false, chunked: false },
			{ value: 'bc', name: HOST, legacy: false, chunked: true },
			{ value: 'e', name: LEGACY, legacy: true, chunked: false },
			{ value: 'd', name: LEGACY, legacy: true, chunked: true }
		]);
	});

	it("has no Auth.js cookie on http, nor where kitauth's is __Secure- (a domain)", () => {
		expect(cookieJar({ [PLAIN]: 'a', [LEGACY]: 'b' }, cookieTable(false)).sessionValues().map((v) => v.name)).toEqual([PLAIN]);
		const shared = cookieTable(true, { sessionToken: { options: { domain: 'example.com' } } });
		expect(cookieJar({ [LEGACY]: 'b' }, shared).sessionValues()).toEqual([{ value: 'b', name: LEGACY, legacy: false, chunked: false }]);
	});

	it('ignores empty values', () => {
		expect(cookieJar({ [HOST]: '', [LEGACY]: '' }, cookieTable(true)).sessionValues()).toEqual([]);
	});

	it("setSession writes kitauth's cookie and retires every other form the request carried", () => {
		const jar = cookieJar({ [`${HOST}.0`]: 'x', [`${HOST}.1`]: 'y', [LEGACY]: 'old', [`${LEGACY}.0`]: 'z' }, cookieTable(true));
		jar.setSession('new', expires);
		const cookies = jar.take();
		expect(byName(cookies)).toEqual({ [`${HOST}.0`]: '', [`${HOST}.1`]: '', [HOST]: 'new', [LEGACY]: '', [`${LEGACY}.0`]: '' });
		expect(cookies.find((c) => c.name === HOST)!.options).toMatchObject({ expires, httpOnly: true, secure: true, path: '/' });
	});

	it('setSession chunks a value too long for one cookie, and overwrites rather than deletes a chunk it reuses', () => {
		const jar = cookieJar({ [HOST]: 'whole', [`${HOST}.0`]: 'stale' }, cookieTable(true));
		jar.setSession('v'.repeat(CHUNK_SIZE + 1), expires);
		expect(byName(jar.take())).toEqual({ [HOST]: '', [`${HOST}.0`]: 'v'.repeat(CHUNK_SIZE), [`${HOST}.1`]: 'v' });
	});

	it('clearSession deletes what the request carried, under both names, and nothing else', () => {
		const jar = cookieJar({ [HOST]: 'a', [`${LEGACY}.0`]: 'b', other: 'x' }, cookieTable(true));
		jar.clearSession();
		expect(byName(jar.take())).toEqual({ [HOST]: '', [`${LEGACY}.0`]: '' });
		expect(cookieJar({}, cookieTable(true)).take()).toEqual([]);
	});

	it('take answers what was queued since the last take; the last word on a name wins', () => {
		const jar = cookieJar({ [HOST]: 'a' }, cookieTable(true));
		jar.clearSession();
		jar.setSession('b', expires);
		expect(byName(jar.take())).toEqual({ [HOST]: 'b' });
		expect(jar.take()).toEqual([]);
	});
});
