/**
 * SignUp, ForgotPassword and ResetPassword (`kitauth/components`): the built-in pages' parts
 * posting to the password form actions, showing what `passwords.actions()` answers on a refusal
 * (`{ failed, fieldErrors, formErrors }`): field errors under their fields, the rest above the form,
 * the typed address kept, never a password.
 */
import { describe, expect, test } from 'vitest';
import ForgotPassword from '../../../src/lib/components/ForgotPassword.svelte';
import ResetPassword from '../../../src/lib/components/ResetPassword.svelte';
import SignUp from '../../../src/lib/components/SignUp.svelte';
import type { PasswordActionData } from '../../../src/lib/sveltekit/passwords.js';
import { renderDom, text } from './dom.js';

/** The error text an input is described by. */
const errorOf = (dom: ReturnType<typeof renderDom>, name: string) => text(dom.$(`#${dom.$(`input[name="${name}"]`)?.getAttribute('id')}-error`));

const refused = (data: Partial<PasswordActionData>): PasswordActionData => ({ failed: true, fieldErrors: {}, formErrors: [], ...data });

describe('SignUp', () => {
	test("posts to ?/signUp (or the action given) with redirectTo as the callbackUrl", () => {
		const { $ } = renderDom(SignUp, { redirectTo: '/account' });
		expect($('form')?.getAttribute('action')).toBe('?/signUp');
		expect($('form')?.getAttribute('method')).toBe('post');
		expect($('input[name="callbackUrl"]')?.getAttribute('value')).toBe('/account');
		expect($('input[name="password"]')?.getAttribute('autocomplete')).toBe('new-password');
		expect(renderDom(SignUp, { action: '?/join' }).$('form')?.getAttribute('action')).toBe('?/join');
		expect(renderDom(SignUp, {}).$('input[name="callbackUrl"]')).toBeNull();
	});

	test('a refusal: each field its message, the address kept, the password not, the form errors above', () => {
		const form = refused({
			fieldErrors: { email: ['Enter one email address.'], password: ['This password is too common: choose another.'] },
			formErrors: ['Too many attempts. Try again later.'],
			values: { email: 'ada@example.com' }
		});
		const dom = renderDom(SignUp, { form });
		const { $ } = dom;
		const email = $('input[name="email"]')!;
		const password = $('input[name="password"]')!;
		expect(email.getAttribute('value')).toBe('ada@example.com');
		expect(email.getAttribute('aria-invalid')).toBe('true');
		expect(password.getAttribute('aria-invalid')).toBe('true');
		expect(password.getAttribute('value')).toBeNull();
		expect(errorOf(dom, 'email')).toBe('Enter one email address.');
		expect(errorOf(dom, 'password')).toBe('This password is too common: choose another.');
		expect(text($('[role="alert"][data-kitauth-error]'))).toBe('Too many attempts. Try again later.');
	});

	test('in the locale given', () => {
		const { $ } = renderDom(SignUp, { locale: 'de' });
		expect($('[data-kitauth="password-signup"]')?.getAttribute('lang')).toBe('de');
		expect(text($('h1'))).not.toBe('Create an account');
	});
});

describe('ForgotPassword', () => {
	test('posts an email to ?/forgotPassword (or the action given); a refusal under the field', () => {
		const dom = renderDom(ForgotPassword, { form: refused({ fieldErrors: { email: ['Enter one email address.'] } }), signInUrl: '/signin' });
		const { $, $$ } = dom;
		expect($('form')?.getAttribute('action')).toBe('?/forgotPassword');
		expect($$('input:not([type="hidden"])').map((input) => input.getAttribute('name'))).toEqual(['email']);
		expect($('input[name="email"]')?.getAttribute('aria-invalid')).toBe('true');
		expect(errorOf(dom, 'email')).toBe('Enter one email address.');
		expect($('[data-kitauth-error]')).toBeNull();
		expect($('a[href="/signin"]')).not.toBeNull();
		expect(renderDom(ForgotPassword, { action: '/forgot?/ask' }).$('form')?.getAttribute('action')).toBe('/forgot?/ask');
	});
});

describe('ResetPassword', () => {
	test("posts the link's user and token with the new password to ?/resetPassword, keeping the link's query", () => {
		const { $ } = renderDom(ResetPassword, { user: 'u-1', token: 't-1' });
		expect($('form')?.getAttribute('action')).toBe('?/resetPassword&user=u-1&token=t-1');
		expect(renderDom(ResetPassword, { user: 'u', token: 't', action: '/reset?/set' }).$('form')?.getAttribute('action')).toBe('/reset?/set');
		expect($('input[name="user"]')?.getAttribute('value')).toBe('u-1');
		expect($('input[name="token"]')?.getAttribute('value')).toBe('t-1');
		expect($('input[name="password"]')?.getAttribute('autocomplete')).toBe('new-password');
	});

	test('a refused password under its field; an expired link above the form', () => {
		const password = renderDom(ResetPassword, { user: 'u', token: 't', form: refused({ fieldErrors: { password: ['This password is too short. Use at least 8 characters.'] } }) });
		expect(password.$('input[name="password"]')?.getAttribute('aria-invalid')).toBe('true');
		expect(errorOf(password, 'password')).toBe('This password is too short. Use at least 8 characters.');
		expect(password.$('[data-kitauth-error]')).toBeNull();

		const link = renderDom(ResetPassword, { user: 'u', token: 't', form: refused({ formErrors: ['The link has expired or was used already.'] }) });
		expect(text(link.$('[data-kitauth-error]'))).toBe('The link has expired or was used already.');
		expect(link.$('input[name="password"]')?.getAttribute('aria-invalid')).toBeNull();
	});
});
