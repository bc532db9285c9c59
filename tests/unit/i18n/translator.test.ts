import { describe, expect, test } from 'vitest';
import { en, translator } from '../../../src/lib/i18n/index.js';

describe('texts and fallbacks', () => {
	test('English by default, and for anything that is not a well-formed locale', () => {
		for (const locale of [undefined, null, '', 'not a locale', 'x'.repeat(200), '__proto__', 'constructor']) {
			const i18n = translator(locale);
			expect(i18n.locale).toBe('en');
			expect(i18n.t('signIn.heading')).toBe('Sign in');
		}
	});

	test('placeholders are filled as text; numbers formatted for the locale', () => {
		const i18n = translator('en');
		expect(i18n.t('signIn.withProvider', { provider: '<b>GitHub</b>' })).toBe('Sign in with <b>GitHub</b>');
		expect(i18n.t('verify.backTo', { host: 'app.example' })).toBe('Back to app.example');
		expect(i18n.t('sessions.others', { count: 1234 })).toBe('1,234 other sessions');
	});

	test('pieces: the text split at its placeholders, the values marked', () => {
		expect(translator('en').pieces('confirm.question', { email: 'ann@example.com' })).toEqual([
			{ text: 'Sign in as ' },
			{ text: 'ann@example.com', param: 'email' },
			{ text: '?' }
		]);
	});

	test("an app's overrides win, per locale; what they lack is the catalogue's, then English", () => {
		const messages = {
			en: { 'signIn.heading': 'Welcome back' },
			nl: { 'signIn.heading': 'Inloggen', 'sessions.others': { one: 'Eén andere sessie', other: '{count} andere sessies' } }
		};
		expect(translator('en', messages).t('signIn.heading')).toBe('Welcome back');
		expect(translator('en-GB', messages).t('signIn.heading')).toBe('Welcome back');
		const dutch = translator('nl-BE', messages);
		expect(dutch.locale).toBe('nl-BE');
		expect(dutch.t('signIn.heading')).toBe('Inloggen');
		expect(dutch.t('sessions.others', { count: 3 })).toBe('3 andere sessies');
		expect(dutch.t('sessions.others', { count: 1 })).toBe('Eén andere sessie');
		// Missing in Dutch: English, never the key.
		expect(dutch.t('signOut.heading')).toBe(en['signOut.heading']);
	});

	test("messages are looked up as the app's own keys only", () => {
		const messages = JSON.parse('{"en": {"__proto__": {"signIn.heading": "polluted"}}}');
		expect(translator('en', messages).t('signIn.heading')).toBe('Sign in');
	});
});

describe('plurals (Intl.PluralRules)', () => {
	test('the category of the count picks the text', () => {
		const i18n = translator('en');
		expect(i18n.t('verify.codeWrong', { count: 1 })).toBe('That code is not right. 1 attempt left.');
		expect(i18n.t('verify.codeWrong', { count: 0 })).toBe('That code is not right. 0 attempts left.');
		expect(i18n.t('verify.codeWrong', { count: 4 })).toBe('That code is not right. 4 attempts left.');
	});

	test("a category a message lacks falls back to its 'other'", () => {
		const messages = { ar: { 'sessions.others': { other: '{count} جلسات أخرى' } } };
		// Arabic has zero, one, two, few, many and other.
		expect(translator('ar', messages).t('sessions.others', { count: 2 })).toBe('2 جلسات أخرى');
	});
});

describe('dates and direction', () => {
	test('dates and times from now through Intl', () => {
		const en = translator('en');
		expect(en.date('2026-03-05T10:00:00Z', { dateStyle: 'medium', timeZone: 'UTC' })).toBe('Mar 5, 2026');
		expect(en.relative(2, 'hour')).toBe('in 2 hours');
		expect(en.relative(-1, 'day')).toBe('yesterday');
		expect(translator('de', { de: {} }).date('2026-03-05T10:00:00Z', { dateStyle: 'medium', timeZone: 'UTC' })).toBe('05.03.2026');
	});

	test('right-to-left scripts', () => {
		expect(translator('en').dir).toBe('ltr');
		expect(translator('ar', { ar: {} }).dir).toBe('rtl');
		expect(translator('he', { he: {} }).dir).toBe('rtl');
		expect(translator('fa-IR', { fa: {} }).dir).toBe('rtl');
		// Azerbaijani in Latin script is left to right, in Arabic script right to left.
		expect(translator('az', { az: {} }).dir).toBe('ltr');
		expect(translator('az-Arab', { az: {} }).dir).toBe('rtl');
	});
});
