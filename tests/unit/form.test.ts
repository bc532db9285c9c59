import { describe, expect, it } from 'vitest';
import { parseSignInForm, parseSignOutForm } from '../../src/lib/sveltekit/form.js';
import type { AuthActionFailure } from '../../src/lib/sveltekit/types.js';

const ORIGIN = 'https://app.example';
const PROVIDERS = ['github', 'credentials', 'passkey'];

function form(entries: [string, string | File][]): FormData {
	const data = new FormData();
	for (const [name, value] of entries) data.append(name, value);
	return data;
}

const file = (): File => new File(['file content'], 'upload.txt', { type: 'text/plain' });

function signInOk(entries: [string, string | File][]) {
	const result = parseSignInForm(form(entries), PROVIDERS, ORIGIN);
	if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.failure)}`);
	return result.value;
}

function signInFailure(entries: [string, string | File][]): AuthActionFailure {
	const result = parseSignInForm(form(entries), PROVIDERS, ORIGIN);
	if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
	expect(result.failure.failed).toBe(true);
	expect(Array.isArray(result.failure.formErrors)).toBe(true);
	return result.failure;
}

describe('parseSignInForm: valid forms', () => {
	it('an empty form is valid and empty', () => {
		const value = signInOk([]);
		expect(value.providerId).toBeUndefined();
		expect(value.options).toEqual({});
		expect([...value.authorizationParams]).toEqual([]);
		expect(value.redirectTo).toBeUndefined();
	});

	it('reads a known providerId and carries extra fields into options', () => {
		const value = signInOk([
			['providerId', 'credentials'],
			['email', 'a@example.com'],
			['password', 'hunter2']
		]);
		expect(value.providerId).toBe('credentials');
		expect(value.options).toEqual({ email: 'a@example.com', password: 'hunter2' });
	});

	it('reads options as a JSON object, turning numbers and booleans into text', () => {
		const value = signInOk([['options', '{"email":"b@example.com","remember":true,"n":3}']]);
		expect(value.options).toEqual({ email: 'b@example.com', remember: 'true', n: '3' });
	});

	it('reads authorizationParams as a query string', () => {
		const value = signInOk([['authorizationParams', 'prompt=login&login_hint=a%40example.com']]);
		expect(Object.fromEntries(value.authorizationParams)).toEqual({ prompt: 'login', login_hint: 'a@example.com' });
	});

	it('reads authorizationParams as JSON', () => {
		const value = signInOk([['authorizationParams', ' {"prompt":"consent","max_age":0}']]);
		expect(Object.fromEntries(value.authorizationParams)).toEqual({ prompt: 'consent', max_age: '0' });
	});

	it('reads authorizationParams-<key> fields, and they are not options', () => {
		const value = signInOk([
			['authorizationParams-prompt', 'select_account'],
			['authorizationParams-ui_locales', 'fr'],
			['email', 'x@example.com']
		]);
		expect(Object.fromEntries(value.authorizationParams)).toEqual({ prompt: 'select_account', ui_locales: 'fr' });
		expect(value.options).toEqual({ email: 'x@example.com' });
	});

	it('accepts a path redirectTo and a same-origin absolute one', () => {
		expect(signInOk([['redirectTo', '/dashboard?tab=2']]).redirectTo).toBe('/dashboard?tab=2');
		expect(signInOk([['redirectTo', `${ORIGIN}/x`]]).redirectTo).toBe(`${ORIGIN}/x`);
	});

	it('an empty redirectTo counts as absent', () => {
		expect(signInOk([['redirectTo', '']]).redirectTo).toBeUndefined();
	});

	it('takes redirectTo from options when there is no field, and removes it from options', () => {
		const value = signInOk([['options', '{"redirectTo":"/from-options","email":"e@example.com"}']]);
		expect(value.redirectTo).toBe('/from-options');
		expect(value.options).toEqual({ email: 'e@example.com' });
	});

	it('carries extra fields whose names exist on Object.prototype', () => {
		const value = signInOk([
			['constructor', 'c'],
			['toString', 't'],
			['valueOf', 'v']
		]);
		expect(Object.getOwnPropertyDescriptor(value.options, 'constructor')?.value).toBe('c');
		expect(Object.getOwnPropertyDescriptor(value.options, 'toString')?.value).toBe('t');
		expect(Object.getOwnPropertyDescriptor(value.options, 'valueOf')?.value).toBe('v');
	});
});

describe('parseSignInForm: failures', () => {
	it('an unknown providerId is a field error (and the echo is bounded)', () => {
		const failure = signInFailure([['providerId', 'gitlab']]);
		expect(failure.fieldErrors.providerId).toHaveLength(1);
		expect(failure.fieldErrors.providerId?.[0]).toContain('gitlab');
		const long = signInFailure([['providerId', 'x'.repeat(10_000)]]);
		expect(long.fieldErrors.providerId?.[0]?.length ?? Infinity).toBeLessThan(200);
	});

	it('a providerId from Object.prototype is unknown', () => {
		for (const id of ['toString', '__proto__', 'constructor']) {
			expect(signInFailure([['providerId', id]]).fieldErrors.providerId).toHaveLength(1);
		}
	});

	it('a duplicate providerId is a field error', () => {
		const failure = signInFailure([
			['providerId', 'github'],
			['providerId', 'credentials']
		]);
		expect(failure.fieldErrors.providerId).toHaveLength(1);
		expect(failure.formErrors).toEqual([]);
	});

	it('a providerId uploaded as a file is a field error', () => {
		expect(signInFailure([['providerId', file()]]).fieldErrors.providerId).toHaveLength(1);
	});

	it('any other field uploaded as a file is a form error', () => {
		const failure = signInFailure([
			['providerId', 'credentials'],
			['avatar', file()]
		]);
		expect(failure.formErrors).toHaveLength(1);
		expect(failure.formErrors[0]).toContain('avatar');
		expect(failure.fieldErrors).toEqual({});
	});

	it.each([
		['malformed JSON', '{"email":'],
		['a JSON array', '["a"]'],
		['a JSON string', '"email"'],
		['JSON null', 'null'],
		['a nested object', '{"email":{"$ne":null}}'],
		['an array value', '{"email":["a","b"]}'],
		['a null value', '{"email":null}']
	])('options that are %s are a field error', (_name, options) => {
		const failure = signInFailure([['options', options]]);
		expect(failure.fieldErrors.options).toHaveLength(1);
	});

	it('options uploaded as a file are a field error', () => {
		expect(signInFailure([['options', file()]]).fieldErrors.options).toHaveLength(1);
	});

	it.each([
		['malformed JSON', '{"prompt":'],
		['JSON with a nested value', '{"prompt":{"x":1}}']
	])('authorizationParams that are %s are a field error', (_name, params) => {
		expect(signInFailure([['authorizationParams', params]]).fieldErrors.authorizationParams).toHaveLength(1);
	});

	it.each([
		['a foreign URL', 'https://evil.example/phish'],
		['a look-alike host', 'https://app.example.evil.example/'],
		['another scheme on the same host', 'http://app.example/x'],
		['javascript:', 'javascript:alert(document.cookie)'],
		['data:', 'data:text/html,<script>alert(1)</script>'],
		['protocol-relative', '//evil.example'],
		['slash-backslash', '/\\evil.example'],
		['a bare word', 'dashboard'],
		['a newline', '/x\r\nLocation: https://evil.example']
	])('redirectTo that is %s is a field error', (_name, redirectTo) => {
		const failure = signInFailure([['redirectTo', redirectTo]]);
		expect(failure.fieldErrors.redirectTo).toHaveLength(1);
	});

	it('a foreign redirectTo smuggled through options is a field error', () => {
		const failure = signInFailure([['options', '{"redirectTo":"https://evil.example"}']]);
		expect(failure.fieldErrors.redirectTo).toHaveLength(1);
	});

	it('a duplicate redirectTo is a field error', () => {
		const failure = signInFailure([
			['redirectTo', '/a'],
			['redirectTo', '/b']
		]);
		expect(failure.fieldErrors.redirectTo).toHaveLength(1);
	});

	it('collects every error at once', () => {
		const failure = signInFailure([
			['providerId', 'nope'],
			['options', '{'],
			['authorizationParams', '{'],
			['redirectTo', 'javascript:x'],
			['upload', file()]
		]);
		expect(Object.keys(failure.fieldErrors).sort()).toEqual(['authorizationParams', 'options', 'providerId', 'redirectTo']);
		expect(failure.formErrors).toHaveLength(1);
	});
});

describe('parseSignOutForm', () => {
	it('accepts no redirectTo, a path, or a same-origin URL', () => {
		expect(parseSignOutForm(form([]), ORIGIN)).toEqual({ ok: true, value: { redirectTo: undefined } });
		expect(parseSignOutForm(form([['redirectTo', '/bye']]), ORIGIN)).toEqual({ ok: true, value: { redirectTo: '/bye' } });
		expect(parseSignOutForm(form([['redirectTo', `${ORIGIN}/bye`]]), ORIGIN)).toEqual({
			ok: true,
			value: { redirectTo: `${ORIGIN}/bye` }
		});
	});

	it.each([
		['foreign', [['redirectTo', 'https://evil.example/']]],
		['javascript:', [['redirectTo', 'javascript:alert(1)']]],
		['protocol-relative', [['redirectTo', '//evil.example']]],
		['duplicate', [['redirectTo', '/a'], ['redirectTo', '/b']]]
	] as [string, [string, string][]][])('refuses a %s redirectTo', (_name, entries) => {
		const result = parseSignOutForm(form(entries), ORIGIN);
		expect(result.ok).toBe(false);
		if (!result.ok) {
			expect(result.failure.failed).toBe(true);
			expect(result.failure.fieldErrors.redirectTo).toHaveLength(1);
			expect(result.failure.formErrors).toEqual([]);
		}
	});

	it('refuses a redirectTo uploaded as a file', () => {
		const result = parseSignOutForm(form([['redirectTo', file()]]), ORIGIN);
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.failure.fieldErrors.redirectTo).toHaveLength(1);
	});
});
