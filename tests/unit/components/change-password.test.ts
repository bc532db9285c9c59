/**
 * ChangePassword: a plain form posting `currentPassword` and `newPassword` to the form action,
 * the action's refusals under their fields (or above the form), its success as a status, in the
 * locale it is given; and the account messages (`accountMessage`) in the send's locale.
 */
import { describe, expect, test } from 'vitest';
import ChangePassword from '../../../src/lib/components/parts/ChangePassword.svelte';
import PasswordLink from '../../../src/lib/components/parts/PasswordLink.svelte';
import { accountMessage } from '../../../src/lib/providers/password.js';
import type { PasswordAccountActionData } from '../../../src/lib/sveltekit/passwords.js';
import { renderDom, text } from './dom.js';

describe('ChangePassword', () => {
	test('a form posting to ?/changePassword with both fields, their autocomplete and the rules hint', () => {
		const { $, $$ } = renderDom(ChangePassword, { minLength: 12 });
		expect($('form')?.getAttribute('action')).toBe('?/changePassword');
		expect($$('input').map((input) => [input.getAttribute('name'), input.getAttribute('autocomplete')])).toEqual([
			['currentPassword', 'current-password'],
			['newPassword', 'new-password']
		]);
		expect($('input[name="newPassword"]')?.getAttribute('minlength')).toBe('12');
		expect(text($('h2'))).toBe('Change your password');
		expect(text($('button'))).toBe('Change the password');
	});

	test("the action's refusal under its field; a form error above; success as a status", () => {
		const wrong: PasswordAccountActionData = { failed: true, fieldErrors: { currentPassword: ['The current password is wrong.'] }, formErrors: [] };
		const refused = renderDom(ChangePassword, { form: wrong });
		expect(refused.$('input[name="currentPassword"]')?.getAttribute('aria-invalid')).toBe('true');
		expect(text(refused.$('#' + refused.$('input[name="currentPassword"]')!.getAttribute('aria-describedby')))).toBe('The current password is wrong.');
		expect(refused.$('[role="alert"]')).toBeNull();

		const limited = renderDom(ChangePassword, { form: { failed: true, fieldErrors: {}, formErrors: ['Too many attempts.'] } });
		expect(text(limited.$('[role="alert"]'))).toBe('Too many attempts.');

		const done = renderDom(ChangePassword, { form: { changed: true } });
		expect(text(done.$('[role="status"]'))).toBe('Your password was changed.');
	});

	test('without the current password field, its refusal shows above the form', () => {
		const { $, $$ } = renderDom(ChangePassword, { askCurrent: false, form: { failed: true, fieldErrors: { currentPassword: ['Enter your current password.'] }, formErrors: [] } });
		expect($$('input').map((input) => input.getAttribute('name'))).toEqual(['newPassword']);
		expect(text($('[role="alert"]'))).toBe('Enter your current password.');
	});

	test('in German, and in Arabic right to left', () => {
		expect(text(renderDom(ChangePassword, { locale: 'de' }).$('button'))).toBe('Passwort ändern');
		const card = renderDom(ChangePassword, { locale: 'ar' }).$('[data-kitauth="change-password"]')!;
		expect(card.getAttribute('dir')).toBe('rtl');
	});
});

describe('the email change confirmation page', () => {
	test('one button posting the link, the new address said, in German', () => {
		const target = { action: '/auth/confirm-email/password', fields: { user: 'u', email: 'neu@example.com', token: 't' } };
		const { $, $$ } = renderDom(PasswordLink, { kind: 'confirm-email' as const, target, email: 'neu@example.com', locale: 'de' });
		expect(text($('h1'))).toBe('Neue E-Mail-Adresse bestätigen');
		expect(text($('.note'))).toBe('Künftig melden Sie sich mit neu@example.com an.');
		expect($$('input[type="hidden"]').map((input) => input.getAttribute('name'))).toEqual(['user', 'email', 'token']);
		expect($$('button')).toHaveLength(1);
	});
});

describe('accountMessage', () => {
	const expires = new Date(Date.now() + 24 * 60 * 60_000);
	test('the new address link and the notices, in the locale given', () => {
		const confirm = accountMessage({ kind: 'confirm-email', url: 'https://app.example.com/auth/confirm-email/password?token=t', expires });
		expect(confirm.subject).toBe('Confirm your new email address for app.example.com');
		expect(confirm.text).toContain('for 24 hours');
		expect(confirm.html).toContain('href="https://app.example.com/auth/confirm-email/password?token=t"');
		const notice = accountMessage({ kind: 'email-change-requested', url: 'https://app.example.com/auth/signin', expires, newEmail: 'new@example.com', locale: 'fr' });
		expect(notice.text).toContain('new@example.com');
		expect(notice.subject).toBe('Votre adresse e-mail sur app.example.com va changer');
		expect(accountMessage({ kind: 'password-changed', url: 'https://app.example.com/auth/signin', expires, locale: 'ja' }).subject).toBe('app.example.com のパスワードが変更されました');
		expect(accountMessage({ kind: 'email-taken', url: 'https://app.example.com/auth/signin', expires }).text).toContain('nothing changed');
	});
});
