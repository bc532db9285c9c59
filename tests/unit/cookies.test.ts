import { afterEach, describe, expect, it, vi } from 'vitest';
import {
	CHUNK_SIZE,
	chunkedValues,
	clearChunked,
	cookieTable,
	expiredCookie,
	parseCookieHeader,
	readChunked,
	serializeCookie,
	writeChunked
} from '../../src/lib/core/session/cookies.js';
import type { CookieKey, CookieSerializeOptions } from '../../src/lib/core/types/config.js';
import type { Cookie } from '../../src/lib/core/types/internal.js';

const KEYS: CookieKey[] = [
	'sessionToken',
	'callbackUrl',
	'csrfToken',
	'pkceCodeVerifier',
	'state',
	'nonce',
	'webauthnChallenge',
	'emailVerification',
	'device',
	'twoFactor',
	'twoFactorDevice'
];

afterEach(() => {
	vi.useRealTimers();
});

describe('cookieTable', () => {
	it('uses the Auth.js v5 names without a prefix over http', () => {
		const table = cookieTable(false);
		expect(Object.fromEntries(KEYS.map((key) => [key, table[key].name]))).toEqual({
			sessionToken: 'authjs.session-token',
			callbackUrl: 'authjs.callback-url',
			csrfToken: 'authjs.csrf-token',
			pkceCodeVerifier: 'authjs.pkce.code_verifier',
			state: 'authjs.state',
			nonce: 'authjs.nonce',
			webauthnChallenge: 'authjs.challenge',
			emailVerification: 'authjs.email-verification',
			device: 'authjs.device',
			twoFactor: 'authjs.two-factor',
			twoFactorDevice: 'authjs.two-factor-device'
		});
	});

	it('uses __Secure- over https, and __Host- for the session, CSRF, device and two-factor cookies', () => {
		const table = cookieTable(true);
		expect(Object.fromEntries(KEYS.map((key) => [key, table[key].name]))).toEqual({
			sessionToken: '__Host-authjs.session-token',
			callbackUrl: '__Secure-authjs.callback-url',
			csrfToken: '__Host-authjs.csrf-token',
			pkceCodeVerifier: '__Secure-authjs.pkce.code_verifier',
			state: '__Secure-authjs.state',
			nonce: '__Secure-authjs.nonce',
			webauthnChallenge: '__Secure-authjs.challenge',
			emailVerification: '__Secure-authjs.email-verification',
			device: '__Host-authjs.device',
			twoFactor: '__Host-authjs.two-factor',
			twoFactorDevice: '__Host-authjs.two-factor-device'
		});
	});

	it.each([true, false])('every cookie is HttpOnly, SameSite=Lax, Path=/, no Domain, secure=%s', (secure) => {
		const table = cookieTable(secure);
		for (const key of KEYS) {
			const { options } = table[key];
			expect(options.httpOnly, key).toBe(true);
			expect(options.sameSite, key).toBe('lax');
			expect(options.path, key).toBe('/');
			expect(options.secure, key).toBe(secure);
			expect(options.domain, key).toBeUndefined();
		}
	});

	it('check cookies (PKCE, state, nonce, challenge) live 900 s; the others have no maxAge', () => {
		const table = cookieTable(false);
		for (const key of ['pkceCodeVerifier', 'state', 'nonce', 'webauthnChallenge'] as const) {
			expect(table[key].options.maxAge, key).toBe(900);
		}
		for (const key of ['sessionToken', 'callbackUrl', 'csrfToken'] as const) {
			expect(table[key].options.maxAge, key).toBeUndefined();
		}
	});

	it('the device cookie lives a year; shared across subdomains (a domain) it is __Secure-, as the session cookie', () => {
		expect(cookieTable(false).device.options.maxAge).toBe(365 * 24 * 3600);
		const shared = cookieTable(true, { device: { options: { domain: 'example.com' } } });
		expect(shared.device.name).toBe('__Secure-authjs.device');
		expect(shared.device.options).toMatchObject({ domain: 'example.com', maxAge: 365 * 24 * 3600, httpOnly: true });
		expect(shared.sessionToken.name).toBe('__Host-authjs.session-token');
	});

	it('merges overrides: name and options, keeping the defaults not overridden', () => {
		const table = cookieTable(true, {
			sessionToken: { name: 'my-session', options: { domain: 'example.com', sameSite: 'strict' } },
			state: { options: { sameSite: 'none' } }
		});
		expect(table.sessionToken.name).toBe('my-session');
		expect(table.sessionToken.options).toEqual({
			httpOnly: true,
			sameSite: 'strict',
			path: '/',
			secure: true,
			domain: 'example.com'
		});
		expect(table.state.name).toBe('__Secure-authjs.state');
		expect(table.state.options).toMatchObject({ sameSite: 'none', maxAge: 900, httpOnly: true, secure: true });
		expect(table.callbackUrl.options.domain).toBeUndefined();
		expect(table.csrfToken.name).toBe('__Host-authjs.csrf-token');
	});

	it('an override does not leak into other keys or later tables', () => {
		const overrides = { callbackUrl: { options: { domain: 'leak.example' } } };
		const first = cookieTable(false, overrides);
		expect(first.callbackUrl.options.domain).toBe('leak.example');
		expect(first.sessionToken.options.domain).toBeUndefined();
		expect(first.csrfToken.options.domain).toBeUndefined();
		const second = cookieTable(false);
		expect(second.callbackUrl.options.domain).toBeUndefined();
		expect(overrides).toEqual({ callbackUrl: { options: { domain: 'leak.example' } } });
	});

	it('ignores override keys that are not cookie keys', () => {
		const hostile = JSON.parse('{"__proto__": {"name": "x"}, "bogus": {"name": "y"}}') as Record<
			CookieKey,
			{ name: string }
		>;
		const table = cookieTable(false, hostile);
		expect(Object.keys(table).sort()).toEqual([...KEYS].sort());
		expect(table.sessionToken.name).toBe('authjs.session-token');
		// An own "__proto__" key (what JSON.parse produces) must not replace the table's prototype.
		expect(Object.getPrototypeOf(table)).toBe(Object.prototype);
		expect('name' in table).toBe(false);
	});
});

describe('parseCookieHeader', () => {
	it('parses a normal header, trimming whitespace', () => {
		expect({ ...parseCookieHeader('a=1;  b = two ;c=3') }).toEqual({ a: '1', b: 'two', c: '3' });
	});

	it('returns an empty record for null, empty and blank headers', () => {
		expect(Object.keys(parseCookieHeader(null))).toEqual([]);
		expect(Object.keys(parseCookieHeader(''))).toEqual([]);
		expect(Object.keys(parseCookieHeader(' ; ; '))).toEqual([]);
	});

	it('skips pairs without = or with an empty name', () => {
		expect({ ...parseCookieHeader('novalue; =orphan; ok=1; ;=') }).toEqual({ ok: '1' });
	});

	it('keeps an empty value and values containing =', () => {
		expect({ ...parseCookieHeader('empty=; b64=YWJj==; q=a=b') }).toEqual({ empty: '', b64: 'YWJj==', q: 'a=b' });
	});

	it('first occurrence of a duplicate name wins', () => {
		expect(parseCookieHeader('a=first; a=second; a=third').a).toBe('first');
	});

	it('percent-decodes values and keeps bad escapes raw', () => {
		const cookies = parseCookieHeader('csrf=abc%7Cdef; url=https%3A%2F%2Fx.example%2F; bad=%E0%A4%A; pct=100%');
		expect(cookies.csrf).toBe('abc|def');
		expect(cookies.url).toBe('https://x.example/');
		expect(cookies.bad).toBe('%E0%A4%A');
		expect(cookies.pct).toBe('100%');
	});

	it('strips one pair of surrounding double quotes', () => {
		const cookies = parseCookieHeader('q="quoted"; lone="; half="x; empty=""');
		expect(cookies.q).toBe('quoted');
		expect(cookies.lone).toBe('"');
		expect(cookies.half).toBe('"x');
		expect(cookies.empty).toBe('');
	});

	it('skips invalid cookie names', () => {
		const cookies = parseCookieHeader('a b=1; (x)=2; ä=3; "q"=4; a,b=5; good.name-1=6');
		expect({ ...cookies }).toEqual({ 'good.name-1': '6' });
	});

	it('handles names that exist on Object.prototype without pollution', () => {
		const cookies = parseCookieHeader('__proto__=x; constructor=c; toString=t; hasOwnProperty=h');
		expect(cookies.constructor).toBe('c');
		expect(cookies.toString).toBe('t');
		expect(cookies.hasOwnProperty).toBe('h');
		expect(Object.getOwnPropertyDescriptor(cookies, '__proto__')?.value).toBe('x');
		expect(({} as Record<string, unknown>).x).toBeUndefined();
	});

	it('caps the number of cookies read from a hostile header', () => {
		const header = Array.from({ length: 1000 }, (_, index) => `c${index}=${index}`).join('; ');
		const cookies = parseCookieHeader(header);
		const count = Object.keys(cookies).length;
		expect(count).toBeGreaterThan(0);
		expect(count).toBeLessThan(1000);
		expect(cookies.c0).toBe('0');
		expect(cookies.c999).toBeUndefined();
	});

	it('never throws on arbitrary bytes', () => {
		const weird = ['\u0000=\u0000', 'a=\uD800', ';;;===;;;', '%=%', 'a=%', 'x'.repeat(100_000)];
		for (const header of weird) expect(() => parseCookieHeader(header)).not.toThrow();
	});
});

describe('serializeCookie', () => {
	const base: CookieSerializeOptions = { httpOnly: true, sameSite: 'lax', path: '/', secure: true };

	it('serializes the standard attributes', () => {
		expect(serializeCookie({ name: 'n', value: 'v', options: base })).toBe('n=v; Path=/; HttpOnly; Secure; SameSite=Lax');
	});

	it('URI-encodes the value (the CSRF | goes out as %7C) and parse reverses it', () => {
		const value = 'tok|hash; with=specials "and" unicode ✓';
		const line = serializeCookie({ name: 'c', value, options: {} });
		expect(line.startsWith('c=tok%7Chash%3B%20with%3Dspecials')).toBe(true);
		const pair = line.split('; ')[0] ?? '';
		expect(parseCookieHeader(pair).c).toBe(value);
	});

	it('adds Max-Age and an Expires derived from it', () => {
		vi.useFakeTimers();
		vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
		const line = serializeCookie({ name: 'n', value: 'v', options: { ...base, maxAge: 900 } });
		expect(line).toContain('; Max-Age=900');
		expect(line).toContain('; Expires=Tue, 01 Jan 2030 00:15:00 GMT');
	});

	it('floors a fractional Max-Age', () => {
		expect(serializeCookie({ name: 'n', value: 'v', options: { maxAge: 1.9 } })).toContain('; Max-Age=1;');
	});

	it('uses an explicit expires date', () => {
		const expires = new Date('2031-05-06T07:08:09Z');
		const line = serializeCookie({ name: 'n', value: 'v', options: { expires } });
		expect(line).toContain('; Expires=Tue, 06 May 2031 07:08:09 GMT');
		expect(line).not.toContain('Max-Age');
	});

	it('a deletion cookie has an empty value, Max-Age=0 and an Expires not in the future', () => {
		vi.useFakeTimers();
		vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
		const deletion = expiredCookie('n', { ...base, expires: new Date('2099-01-01T00:00:00Z') });
		expect(deletion.value).toBe('');
		expect(deletion.options.maxAge).toBe(0);
		const line = serializeCookie(deletion);
		expect(line.startsWith('n=;')).toBe(true);
		expect(line).toContain('; Max-Age=0');
		expect(line).toContain('; Expires=Tue, 01 Jan 2030 00:00:00 GMT');
		expect(line).not.toContain('2099');
		expect(line).toContain('; Secure');
	});

	it('writes Domain, a custom Path, Strict/None and Partitioned', () => {
		const line = serializeCookie({
			name: 'n',
			value: 'v',
			options: { domain: 'example.com', path: '/app', sameSite: 'none', secure: true, partitioned: true }
		});
		expect(line).toBe('n=v; Domain=example.com; Path=/app; Secure; SameSite=None; Partitioned');
		expect(serializeCookie({ name: 'n', value: 'v', options: { sameSite: 'strict' } })).toContain('SameSite=Strict');
	});

	it('defaults Path to / and omits flags that are off', () => {
		expect(serializeCookie({ name: 'n', value: 'v', options: { httpOnly: false, secure: false } })).toBe('n=v; Path=/');
	});
});

describe('session cookie chunking', () => {
	const name = '__Secure-authjs.session-token';
	const options: CookieSerializeOptions = { httpOnly: true, sameSite: 'lax', path: '/', secure: true, maxAge: 2592000 };
	const jweLike = (length: number): string =>
		Array.from({ length }, (_, index) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[index % 64]).join('');
	const byName = (cookies: Cookie[]): Map<string, Cookie> => new Map(cookies.map((c) => [c.name, c]));

	it('the chunk size is 4096 - 160 = 3936', () => {
		expect(CHUNK_SIZE).toBe(3936);
	});

	it('a value of exactly 3936 characters stays one cookie under the base name', () => {
		const value = jweLike(3936);
		const cookies = writeChunked(name, value, options, {});
		expect(cookies).toEqual([{ name, value, options }]);
	});

	it('3937 characters become name.0 (3936) + name.1 (1)', () => {
		const value = jweLike(3937);
		const cookies = byName(writeChunked(name, value, options, {}));
		expect([...cookies.keys()].sort()).toEqual([`${name}.0`, `${name}.1`]);
		expect(cookies.get(`${name}.0`)?.value).toBe(value.slice(0, 3936));
		expect(cookies.get(`${name}.1`)?.value).toBe(value.slice(3936));
		expect(cookies.get(`${name}.1`)?.value).toHaveLength(1);
		for (const cookie of cookies.values()) expect(cookie.options).toEqual(options);
	});

	it('each serialized chunk of a JWE-like value fits in 4096 bytes', () => {
		for (const cookie of writeChunked(name, jweLike(3936 * 3 + 7), options, {})) {
			expect(Buffer.byteLength(serializeCookie(cookie))).toBeLessThanOrEqual(4096);
		}
	});

	it('write → read round-trips values of many sizes', () => {
		for (const length of [1, 100, 3935, 3936, 3937, 7872, 7873, 20_000, 40_000]) {
			const value = jweLike(length);
			const cookies = Object.fromEntries(writeChunked(name, value, options, {}).map((c) => [c.name, c.value]));
			expect(readChunked(cookies, name), `length ${length}`).toBe(value);
		}
	});

	it('writing a short value deletes the stale chunks the request carried', () => {
		const request = { [`${name}.0`]: 'a', [`${name}.1`]: 'b', [`${name}.2`]: 'c', other: 'keep' };
		const cookies = byName(writeChunked(name, 'short', options, request));
		expect(cookies.get(name)?.value).toBe('short');
		for (const index of [0, 1, 2]) {
			const stale = cookies.get(`${name}.${index}`);
			expect(stale?.value).toBe('');
			expect(stale?.options.maxAge).toBe(0);
			expect(stale?.options.secure).toBe(true);
			expect(stale?.options.path).toBe('/');
		}
		expect(cookies.has('other')).toBe(false);
		expect(cookies.size).toBe(4);
	});

	it('writing a chunked value deletes the unchunked form and surplus chunks', () => {
		const request = { [name]: 'old', [`${name}.0`]: 'x', [`${name}.1`]: 'y', [`${name}.2`]: 'z' };
		const value = jweLike(3937);
		const cookies = byName(writeChunked(name, value, options, request));
		expect(cookies.get(name)?.options.maxAge).toBe(0);
		expect(cookies.get(name)?.value).toBe('');
		expect(cookies.get(`${name}.0`)?.value).toBe(value.slice(0, 3936));
		expect(cookies.get(`${name}.1`)?.value).toBe(value.slice(3936));
		expect(cookies.get(`${name}.2`)?.options.maxAge).toBe(0);
		expect(cookies.size).toBe(4);
	});

	it('emits each cookie name once (an overwritten chunk is not also deleted)', () => {
		const request = { [`${name}.0`]: 'x', [`${name}.1`]: 'y' };
		const names = writeChunked(name, jweLike(5000), options, request).map((c) => c.name);
		expect(new Set(names).size).toBe(names.length);
	});

	it('readChunked joins chunks in index order whatever the header order', () => {
		const cookies = parseCookieHeader(`${name}.2=C; ${name}.0=A; ${name}.1=B`);
		expect(readChunked(cookies, name)).toBe('ABC');
	});

	it('readChunked prefers the whole cookie over chunks (chunkedValues lists both, whole first)', () => {
		expect(readChunked({ [name]: 'plain', [`${name}.0`]: 'c0', [`${name}.1`]: 'c1' }, name)).toBe('plain');
		expect(chunkedValues({ [name]: 'plain', [`${name}.0`]: 'c0', [`${name}.1`]: 'c1' }, name)).toEqual(['plain', 'c0c1']);
		expect(chunkedValues({ [`${name}.0`]: 'c0', [`${name}.2`]: 'c2' }, name)).toEqual(['c0']);
	});

	it('readChunked reads the plain cookie when there are no chunks, undefined when absent or empty', () => {
		expect(readChunked({ [name]: 'plain' }, name)).toBe('plain');
		expect(readChunked({}, name)).toBeUndefined();
		expect(readChunked({ [name]: '' }, name)).toBeUndefined();
		expect(readChunked({ [`${name}x`]: 'nope' }, name)).toBeUndefined();
	});

	it('readChunked does not pick up cookies of a longer name with the same prefix', () => {
		expect(readChunked({ 'authjs.session-token-other.0': 'x', 'authjs.session-token': 'mine' }, 'authjs.session-token')).toBe(
			'mine'
		);
	});

	it('clearChunked deletes the base cookie and every chunk present, with the same options', () => {
		const request = { [name]: 'p', [`${name}.0`]: 'a', [`${name}.1`]: 'b', unrelated: 'u' };
		const cookies = clearChunked(name, options, request);
		expect(cookies.map((c) => c.name).sort()).toEqual([name, `${name}.0`, `${name}.1`]);
		for (const cookie of cookies) {
			expect(cookie.value).toBe('');
			expect(cookie.options).toMatchObject({ maxAge: 0, secure: true, httpOnly: true, path: '/' });
		}
	});

	it('clearChunked with nothing to clear returns nothing', () => {
		expect(clearChunked(name, options, { other: 'x' })).toEqual([]);
	});
});
