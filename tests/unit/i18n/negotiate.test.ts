import { describe, expect, test } from 'vitest';
import { negotiateLocale, parseAcceptLanguage } from '../../../src/lib/i18n/index.js';

const AVAILABLE = ['en', 'de', 'fr', 'es', 'pt-BR', 'ja', 'ar'];

describe('Accept-Language', () => {
	test('ranges come most wanted first, by q-value; ties keep the header order', () => {
		expect(parseAcceptLanguage('fr;q=0.5, de-CH, de;q=0.9, *;q=0.1, en;q=0.5')).toEqual([
			{ tag: 'de-CH', q: 1 },
			{ tag: 'de', q: 0.9 },
			{ tag: 'fr', q: 0.5 },
			{ tag: 'en', q: 0.5 },
			{ tag: '*', q: 0.1 }
		]);
	});

	test('malformed ranges and weights are skipped, never guessed at', () => {
		expect(parseAcceptLanguage('de;q=2, fr;q=abc, es;q=0.5000, <script>, ja;q=1.0, pt-BR ; q=0.3')).toEqual([
			{ tag: 'ja', q: 1 },
			{ tag: 'pt-BR', q: 0.3 }
		]);
		expect(parseAcceptLanguage('')).toEqual([]);
		expect(parseAcceptLanguage(null)).toEqual([]);
	});

	test('a huge header is read only so far', () => {
		const header = Array.from({ length: 5000 }, (_, i) => `x${i % 10}-abc;q=0.${i % 9}`).join(',');
		expect(parseAcceptLanguage(header).length).toBeLessThanOrEqual(32);
	});
});

describe('negotiateLocale', () => {
	test.each([
		['de-DE,de;q=0.9,en;q=0.8', 'de'],
		['fr-CA', 'fr'],
		['pt-BR', 'pt-BR'],
		// Another region of the language before the fallback: Portugal gets Brazil's Portuguese.
		['pt-PT,pt;q=0.9', 'pt-BR'],
		['PT-br', 'pt-BR'],
		['ja-JP-u-ca-japanese', 'ja'],
		['ar-EG', 'ar'],
		['zh-CN,ja;q=0.4', 'ja'],
		// The q-values decide, not the order.
		['en;q=0.2, es;q=0.8', 'es'],
		['nl, sv', 'en'],
		['*', 'en'],
		['', 'en']
	])('%j → %s', (header, expected) => {
		expect(negotiateLocale(header, AVAILABLE)).toBe(expected);
	});

	test('q=0 refuses a language, also for *', () => {
		expect(negotiateLocale('en;q=0, *', AVAILABLE)).toBe('de');
		expect(negotiateLocale('nl, en;q=0', AVAILABLE, 'fr')).toBe('fr');
	});

	test('preferences as a list of tags (navigator.languages), and the fallback', () => {
		expect(negotiateLocale(['nl-BE', 'fr-BE', 'en'], AVAILABLE)).toBe('fr');
		expect(negotiateLocale(['nl'], ['en', 'de'], 'de')).toBe('de');
		expect(negotiateLocale(undefined, ['en', 'de'])).toBe('en');
	});

	test("an app's own locale takes part", () => {
		expect(negotiateLocale('nl-NL, de;q=0.5', [...AVAILABLE, 'nl'])).toBe('nl');
	});
});
