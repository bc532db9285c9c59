/**
 * SignOut, ErrorPage and VerifyRequest as the built-in pages and apps render them.
 */
import { describe, expect, test } from 'vitest';
import ErrorPage from '../../../src/lib/components/parts/ErrorPage.svelte';
import SignOut from '../../../src/lib/components/parts/SignOut.svelte';
import VerifyRequest from '../../../src/lib/components/parts/VerifyRequest.svelte';
import { ERROR_PAGES } from '../../../src/lib/shared/messages.js';
import { renderDom, text } from './dom.js';

describe('SignOut', () => {
	test('a button posting to the signOut action with redirectTo', () => {
		const { $, $$ } = renderDom(SignOut, { redirectTo: '/' });
		expect($('form')?.getAttribute('action')).toBe('?/signOut');
		expect($('input[name="redirectTo"]')?.getAttribute('value')).toBe('/');
		expect($$('button').map(text)).toEqual(['Sign out']);
		expect($('h1')).toBeNull();
	});

	test('a card with a heading and the question; a target with the CSRF token', () => {
		const { $ } = renderDom(SignOut, { variant: 'card', target: { action: '/auth/signout', fields: { csrfToken: 't' } } });
		expect(text($('h1'))).toBe('Sign out');
		expect(text($('p'))).toBe('Are you sure you want to sign out?');
		expect($('form')?.getAttribute('action')).toBe('/auth/signout');
		expect($('input[name="csrfToken"]')?.getAttribute('value')).toBe('t');
		expect($('input[name="redirectTo"]')).toBeNull();
	});

	test("the action's failure is shown, as text", () => {
		const { $, $$ } = renderDom(SignOut, { form: { failed: true, formErrors: ['Could not sign out. <b>Try again.</b>'] } });
		expect(text($('[role="alert"]'))).toBe('Could not sign out. <b>Try again.</b>');
		expect($$('b')).toHaveLength(0);
	});
});

describe('ErrorPage', () => {
	test.each(['Configuration', 'AccessDenied', 'Verification', 'OAuthSignin', 'Unavailable'])('%s: its heading, message and way on', (error) => {
		const page = ERROR_PAGES[error]!;
		const { $ } = renderDom(ErrorPage, { error, signInUrl: '/auth/signin', homeUrl: 'https://app.example' });
		expect(text($('h1'))).toBe(page.heading);
		expect(text($('p'))).toBe(page.message);
		expect($('a')?.getAttribute('href')).toBe(page.signin ? '/auth/signin' : 'https://app.example');
		expect(text($('a'))).toBe(page.signin ? 'Sign in' : 'Go to the home page');
	});

	test.each([undefined, null, '', 'constructor', '__proto__', '<script>alert(1)</script>'])('%s: the generic text, the value never shown', (error) => {
		const { $, body } = renderDom(ErrorPage, { error });
		expect(text($('h1'))).toBe(ERROR_PAGES.default!.heading);
		expect(body).not.toContain('<script>alert');
		// Without a sign-in URL the way on is the home page.
		expect($('a')?.getAttribute('href')).toBe('/');
	});
});

describe('VerifyRequest', () => {
	test('the address (as text) and the way back; no code form', () => {
		const { $, body } = renderDom(VerifyRequest, { email: '<i>x</i>@example.com', homeUrl: 'https://app.example', host: 'app.example' });
		expect(text($('h1'))).toBe('Check your email');
		expect(text($('strong'))).toBe('<i>x</i>@example.com');
		expect(body).not.toContain('<i>x</i>');
		expect(text($('a'))).toBe('Back to app.example');
		expect($('form')).toBeNull();
	});

	test('codes on: a one-time code field posting with its hidden fields', () => {
		const { $ } = renderDom(VerifyRequest, { codes: true, action: '/auth/callback/email', fields: { csrfToken: 't', email: 'a@example.com' } });
		const form = $('form')!;
		expect(form.getAttribute('action')).toBe('/auth/callback/email');
		expect(form.querySelector('input[name="csrfToken"]')?.getAttribute('value')).toBe('t');
		expect(form.querySelector('input[name="email"][type="hidden"]')?.getAttribute('value')).toBe('a@example.com');
		const code = form.querySelector('input[name="code"]')!;
		expect(code.getAttribute('autocomplete')).toBe('one-time-code');
		expect($(`label[for="${code.id}"]`)?.textContent).toBe('Code from the email');
		expect(text(form.querySelector('button'))).toBe('Sign in with the code');
	});

	test('a refused code: under the field, linked, focused; other messages above the form', () => {
		const { $ } = renderDom(VerifyRequest, {
			codes: true,
			form: { failed: true, fieldErrors: { code: ['That code is not right.'] }, formErrors: ['Too many tries.'] }
		});
		const code = $('input[name="code"]')!;
		expect(code.getAttribute('aria-invalid')).toBe('true');
		expect(text($(`#${code.getAttribute('aria-describedby')}`))).toBe('That code is not right.');
		expect(code.hasAttribute('autofocus')).toBe(true);
		expect(text($('[role="alert"]'))).toBe('Too many tries.');
	});
});
