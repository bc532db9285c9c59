/**
 * The demo's /account password forms (change email, delete account, beside the kit's
 * ChangePassword) in every shipped language: each text is the catalogue's, none left in English.
 * (That every catalogue has every key is the catalogue test's: tests/unit/i18n/catalogues.test.ts.)
 */
import { describe, expect, test } from 'vitest';
import { en } from '../../../src/lib/i18n/en.js';
import { SHIPPED_LOCALES, translator } from '../../../src/lib/i18n/index.js';
import PasswordSettings from '../../../src/demo/views/PasswordSettings.svelte';
import { renderDom, text } from './dom.js';

const TEXTS = [
	'account.changeEmail.heading',
	'account.changeEmail.email',
	'account.changeEmail.submit',
	'account.currentPassword',
	'account.deleteAccount.heading',
	'account.deleteAccount.submit',
	'account.deleteAccount.note'
] as const;

describe("the demo's account forms", () => {
	test.each(SHIPPED_LOCALES)('%s: every text from the catalogue', (locale) => {
		const { document, $ } = renderDom(PasswordSettings, { recentSignIn: 600, locale, form: { for: 'email', requested: true } });
		const page = text(document.body);
		const t = translator(locale).t;
		for (const key of TEXTS) expect(page, key).toContain(t(key));
		expect(text($('[role="status"]'))).toBe(t('account.changeEmail.requested'));
		const minutes = new Intl.NumberFormat(locale, { style: 'unit', unit: 'minute', unitDisplay: 'long' }).format(10);
		expect(page).toContain(t('account.deleteAccount.hint', { duration: minutes }));
		if (locale === 'en') return;
		for (const key of TEXTS) expect(page, `${key} in English`).not.toContain(en[key]);
	});

	test('Arabic cards are right to left, in their language', () => {
		const { $$ } = renderDom(PasswordSettings, { recentSignIn: 600, locale: 'ar' });
		// The kit's ChangePassword card, then the demo's change-email and delete-account cards.
		const cards = $$('section.card');
		expect(cards.map((card) => [card.getAttribute('lang'), card.getAttribute('dir')])).toEqual(Array.from({ length: 3 }, () => ['ar', 'rtl']));
	});

	test('a window under a minute is said in seconds', () => {
		const { document } = renderDom(PasswordSettings, { recentSignIn: 5, locale: 'de' });
		expect(text(document.body)).toContain('Innerhalb von 5 Sekunden nach der Anmeldung nicht nötig.');
	});
});
