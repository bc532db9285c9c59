import { describe, expect, it } from 'vitest';
import { absoluteRedirect, defaultRedirect, parseCallbackUrl, safeCallbackUrl } from '../../src/lib/core/redirect.js';

const BASE = 'https://app.example';

describe('parseCallbackUrl', () => {
	it.each(['/', '/dashboard', '/a/b?x=1&y=2#frag', '/%2F%2Fevil.example', '/@evil.example', '/?next=//evil'])(
		'keeps the relative path %j',
		(value) => {
			expect(parseCallbackUrl(value)).toBe(value);
		}
	);

	it.each([
		['https://app.example/x?y=1', 'https://app.example/x?y=1'],
		['http://localhost:5173/', 'http://localhost:5173/'],
		['https://other.example', 'https://other.example/'],
		['HTTPS://APP.EXAMPLE/Path', 'https://app.example/Path']
	])('keeps absolute http(s) %j, normalized', (value, expected) => {
		expect(parseCallbackUrl(value)).toBe(expected);
	});

	it.each([
		['javascript:', 'javascript:alert(1)'],
		['JavaScript: mixed case', 'JaVaScRiPt:alert(document.cookie)'],
		['javascript: after a space', ' javascript:alert(1)'],
		['javascript: with a tab inside', 'java\tscript:alert(1)'],
		['data:', 'data:text/html,<script>alert(1)</script>'],
		['vbscript:', 'vbscript:msgbox(1)'],
		['file:', 'file:///etc/passwd'],
		['ftp:', 'ftp://files.example/x'],
		['mailto:', 'mailto:a@example.com'],
		['protocol-relative', '//evil.example'],
		['protocol-relative with path', '//evil.example/path'],
		['slash-backslash', '/\\evil.example'],
		['backslash-backslash', '\\\\evil.example'],
		['backslash in an absolute URL', 'https://app.example\\@evil.example'],
		['newline', '/path\nSet-Cookie: x=y'],
		['carriage return', '/path\r\n'],
		['NUL', '/path\u0000'],
		['tab', '/\t/evil.example'],
		['DEL', '/path\u007f'],
		['malformed IPv6 host', 'http://['],
		['malformed URL', 'http://'],
		['bare relative path', 'dashboard'],
		['dot relative path', './dashboard'],
		['empty', '']
	])('refuses %s', (_name, value) => {
		expect(parseCallbackUrl(value)).toBeUndefined();
	});

	it('refuses non-strings', () => {
		for (const value of [undefined, null, 42, ['/x'], { href: '/x' }, new URL('https://app.example/x')]) {
			expect(parseCallbackUrl(value)).toBeUndefined();
		}
	});

	it('refuses values over 2048 characters, keeps one of exactly 2048', () => {
		const exact = `/${'a'.repeat(2047)}`;
		expect(parseCallbackUrl(exact)).toBe(exact);
		expect(parseCallbackUrl(`${exact}a`)).toBeUndefined();
		expect(parseCallbackUrl(`https://app.example/${'a'.repeat(100_000)}`)).toBeUndefined();
	});
});

describe('defaultRedirect', () => {
	it('prefixes relative paths with the base URL', () => {
		expect(defaultRedirect({ url: '/dashboard?tab=1', baseUrl: BASE })).toBe(`${BASE}/dashboard?tab=1`);
		expect(defaultRedirect({ url: '/', baseUrl: BASE })).toBe(`${BASE}/`);
	});

	it('keeps a same-origin absolute URL unchanged', () => {
		expect(defaultRedirect({ url: `${BASE}/x/y?z=1`, baseUrl: BASE })).toBe(`${BASE}/x/y?z=1`);
	});

	it.each([
		'https://evil.example/',
		'https://app.example.evil.example/',
		'https://evil.example/https://app.example',
		'http://app.example/',
		'https://app.example:8443/',
		'https://sub.app.example/',
		'//evil.example',
		'//evil.example/path',
		'javascript:alert(1)',
		'data:text/html,x',
		'not a url',
		''
	])('sends %j to the base URL', (url) => {
		expect(defaultRedirect({ url, baseUrl: BASE })).toBe(BASE);
	});

	it('a /\\ path stays on this origin', () => {
		const result = defaultRedirect({ url: '/\\evil.example', baseUrl: BASE });
		expect(new URL(result).origin).toBe(BASE);
	});
});

describe('absoluteRedirect', () => {
	it('makes a path absolute against the base URL', () => {
		expect(absoluteRedirect('/after', BASE)).toBe(`${BASE}/after`);
	});

	it('keeps an absolute http(s) URL (the redirect callback chose it)', () => {
		expect(absoluteRedirect('https://partner.example/landing', BASE)).toBe('https://partner.example/landing');
		expect(absoluteRedirect(`${BASE}/x`, BASE)).toBe(`${BASE}/x`);
	});

	it.each([['javascript:alert(1)'], ['//evil.example'], ['/\\evil.example'], ['http://['], [''], [42], [null], [undefined]])(
		'refuses %j',
		(value) => {
			expect(absoluteRedirect(value, BASE)).toBeUndefined();
		}
	);
});

describe('safeCallbackUrl (for app routes passing a return address along)', () => {
	it.each(['/account', '/?from=signin#top', '/a/../b', `${BASE}/account?tab=1`, `${BASE}`])('%s stays on the site: kept as it is', (value) => {
		expect(safeCallbackUrl(value, BASE)).toBe(parseCallbackUrl(value));
	});

	it.each([
		'//evil.example',
		'/\\evil.example',
		'/.//evil.example',
		'/./..//evil.example',
		'/\t/evil.example',
		'https://evil.example/account',
		'https://app.example.evil.example/',
		'http://app.example/account',
		'javascript:alert(1)',
		'data:text/html,x',
		'',
		'account',
		undefined,
		42,
		'/' + 'a'.repeat(5000)
	])('%s leaves the site or is no URL: undefined', (value) => {
		expect(safeCallbackUrl(value, BASE)).toBeUndefined();
	});
});
