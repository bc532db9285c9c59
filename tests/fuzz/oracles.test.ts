/**
 * The fuzzers' oracles catch what they are meant to: each flawed answer below is one a defect
 * would produce, and must be reported; the honest answers must not be.
 */
import { describe, expect, test } from 'vitest';
import { jarAfter } from './driver.js';
import type { FuzzRequest } from './generator.js';
import { checkAnswer, type OracleContext } from './oracles.js';

const ctx: OracleContext = {
	origins: ['http://localhost:3000'],
	authorizationEndpoints: ['http://127.0.0.1:9999/authorize'],
	sessionCookie: 'authjs.session-token',
	marker: 'x-fz7',
	url: 'http://localhost:3000/auth/signin?callbackUrl=x'
};

const html = (body: string) => ({ status: 200, headers: new Headers({ 'content-type': 'text/html; charset=utf-8' }), body });
const redirect = (location: string) => ({ status: 302, headers: new Headers({ location }), body: '' });

describe('flawed answers are reported', () => {
	test.each([
		['a 500', { status: 500, headers: new Headers(), body: 'boom' }],
		['the error page for ?error=Configuration answered 500', { status: 500, headers: new Headers({ 'content-type': 'text/html' }), body: '<title>Server error</title>' }],
		['a 502', { status: 502, headers: new Headers({ 'retry-after': '1' }), body: '' }],
		['a 503 while the store is up', { status: 503, headers: new Headers({ 'retry-after': '5' }), body: '{}' }],
		['a session cookie', { status: 302, headers: new Headers({ location: '/', 'set-cookie': 'authjs.session-token=abc; Path=/' }), body: '' }],
		['a session chunk', { status: 200, headers: new Headers({ 'set-cookie': '__Secure-authjs.session-token.0=abc; Path=/' }), body: '' }],
		['a __Host- session cookie', { status: 302, headers: new Headers({ location: '/', 'set-cookie': '__Host-authjs.session-token=abc; Path=/; Secure' }), body: '' }],
		['a redirect off the site', redirect('https://evil.example/')],
		['a protocol-relative redirect', redirect('//evil.example/x')],
		['a javascript: redirect', redirect('javascript:alert(1)')],
		['another path of the IdP', redirect('http://127.0.0.1:9999/logout')],
		['a JSON url off the site', { status: 200, headers: new Headers({ 'content-type': 'application/json' }), body: '{"url":"https://evil.example"}' }],
		['an injected element', html('<p>Hello <x-fz7>!</p>')],
		['an injected element out of a script', html('<script>var a = "</script><x-fz7>";</script>')],
		['an injected attribute', html('<input value="" x-fz7="1">')],
		['an injected handler', html('<svg onx-fz7=1></svg>')],
		['a javascript: link', html('<a href="java\tscript:alert(1)">back</a>')],
		['an HTML page served as text', { status: 200, headers: new Headers({ 'content-type': 'text/plain' }), body: '<!doctype html><p>x' }],
		['a stack trace', { status: 400, headers: new Headers(), body: 'Error: x\n    at f (/app/src/x.ts:1:2)' }],
		['a driver error', { status: 400, headers: new Headers(), body: 'SQLITE_BUSY: database is locked' }]
	])('%s', (_, answer) => {
		expect(checkAnswer(answer, ctx)).not.toEqual([]);
	});
});

describe('honest answers pass', () => {
	test.each([
		['a redirect on the site', redirect('/auth/signin?error=x')],
		['a redirect to the authorization endpoint', redirect('http://127.0.0.1:9999/authorize?state=x')],
		['a deleted session cookie', { status: 302, headers: new Headers({ location: '/', 'set-cookie': 'authjs.session-token=; Max-Age=0; Path=/' }), body: '' }],
		['the escaped marker', html('<p>&lt;x-fz7&gt; <input value="&quot; x-fz7=&quot;1"></p>')],
		['a 503 of a store that is down', { status: 503, headers: new Headers({ 'retry-after': '5' }), body: '{}' }]
	])('%s', (name, answer) => {
		expect(checkAnswer(answer, { ...ctx, storeDown: name.includes('down') })).toEqual([]);
	});
});

test('on https (the __Host- name in the context), every variant of the session cookie is still caught', () => {
	const https = { ...ctx, sessionCookie: '__Host-authjs.session-token' };
	for (const name of ['authjs.session-token', '__Secure-authjs.session-token.1', '__Host-authjs.session-token']) {
		expect(checkAnswer({ status: 200, headers: new Headers({ 'set-cookie': `${name}=abc; Path=/` }), body: '' }, https), name).not.toEqual([]);
	}
});

test('the jar after an answer: the request cookies, with what the answer set or deleted', () => {
	const request = { headers: [['cookie', 'a=1; b=2; c=3']] } as unknown as FuzzRequest;
	expect(jarAfter(request, ['b=; Max-Age=0; Path=/', 'c=4; Path=/', 'd=5'])).toBe('a=1; c=4; d=5');
});
