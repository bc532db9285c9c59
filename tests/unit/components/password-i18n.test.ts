/**
 * The password components and messages in a locale of their own: texts from the catalogue, the
 * card's lang and dir, plural forms by the count (Arabic's six), an app's messages first.
 */
import { describe, expect, test } from 'vitest';
import PasswordAccount from '../../../src/lib/components/parts/PasswordAccount.svelte';
import PasswordLink from '../../../src/lib/components/parts/PasswordLink.svelte';
import { signUpMessage } from '../../../src/lib/providers/password.js';
import { renderDom, text } from './dom.js';

const target = { action: '/auth/reset-password/password', fields: { user: 'u', token: 't' } };

describe('password components and messages in a locale', () => {
	test('the reset form in Arabic, right to left; the sign-up form with an app message', () => {
		const { $ } = renderDom(PasswordLink, { target, locale: 'ar' });
		const card = $('[data-kitauth="password-reset"]')!;
		expect(card.getAttribute('lang')).toBe('ar');
		expect(card.getAttribute('dir')).toBe('rtl');
		expect(text($('h1'))).toBe('اختر كلمة مرور جديدة');
		expect(text($('button'))).toBe('احفظ كلمة المرور الجديدة');

		const signUp = renderDom(PasswordAccount, {
			kind: 'signup' as const,
			target: { action: '/auth/signup/password' },
			minLength: 12,
			locale: 'fr',
			messages: { fr: { 'password.signUp.heading': 'Rejoignez-nous' } }
		});
		expect(text(signUp.$('h1'))).toBe('Rejoignez-nous');
		expect(signUp.body).toContain('De 12 à 128 caractères, ceux que vous voulez.');
	});

	test("signUpMessage in the send's locale, its hours as the language counts them", () => {
		const expires = new Date(Date.now() + 24 * 60 * 60_000);
		const url = 'https://app.example.com/auth/verify-email/password?user=u&token=t';
		const arabic = signUpMessage({ kind: 'verify-email', url, expires, locale: 'ar' });
		expect(arabic.subject).toBe('أكّد عنوان بريدك الإلكتروني لـ app.example.com');
		expect(arabic.text).toContain('لمدة 24 ساعة. إذا لم تسجّل');
		expect(arabic.html).toContain('dir="rtl"');
		const japanese = signUpMessage({ kind: 'already-registered', url: 'https://app.example.com/auth/signin', expires, locale: 'ja' });
		expect(japanese.subject).toBe('app.example.com のアカウントについて');
	});
});
