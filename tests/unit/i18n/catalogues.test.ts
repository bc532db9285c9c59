/**
 * The shipped catalogues against English, the source: the same keys (none missing, none extra),
 * plain messages plain and plural ones plural, the same `{parameters}`, and plural messages with
 * exactly the categories `Intl.PluralRules` has for the language (Arabic six, Japanese one).
 * A new key in `en.ts` fails here until every shipped catalogue has it.
 */
import { describe, expect, test } from 'vitest';
import { CATALOGUES, en, type Message, type Messages, SHIPPED_LOCALES, translator } from '../../../src/lib/i18n/index.js';

const placeholders = (text: string) => new Set([...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!));
const sorted = (names: Iterable<string>) => [...names].sort().join(', ');

/** What is wrong with `catalogue` as the messages of `locale`, one line per problem. */
function problems(locale: string, catalogue: Messages): string[] {
	const found: string[] = [];
	const source: Record<string, Message> = en;
	const translated: Record<string, Message | undefined> = catalogue;
	for (const key of Object.keys(source)) if (!Object.hasOwn(translated, key)) found.push(`${key}: missing`);
	for (const key of Object.keys(translated)) if (!Object.hasOwn(source, key)) found.push(`${key}: not in English`);
	const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
	for (const [key, english] of Object.entries(source)) {
		const message = translated[key];
		if (message === undefined) continue;
		if (typeof english === 'string') {
			if (typeof message !== 'string') found.push(`${key}: plural, English is plain`);
			else if (sorted(placeholders(message)) !== sorted(placeholders(english))) found.push(`${key}: {${sorted(placeholders(message))}} for {${sorted(placeholders(english))}}`);
			continue;
		}
		if (typeof message === 'string') {
			found.push(`${key}: plain, English is plural`);
			continue;
		}
		if (sorted(Object.keys(message)) !== sorted(categories)) found.push(`${key}: categories ${sorted(Object.keys(message))}, ${locale} has ${sorted(categories)}`);
		// Every form names the parameters besides `count`; a form may spell its number out ("one", "two"), never `other`.
		const named = new Set(Object.values(english).flatMap((text) => [...placeholders(text)]));
		const required = [...placeholders(english.other)];
		for (const [category, text] of Object.entries(message)) {
			const has = placeholders(text);
			const wanted = category === 'other' ? required : required.filter((name) => name !== 'count');
			if (wanted.some((name) => !has.has(name)) || [...has].some((name) => !named.has(name)))
				found.push(`${key}.${category}: {${sorted(has)}} for {${sorted(named)}}`);
		}
	}
	return found;
}

describe('the shipped catalogues', () => {
	test('English, German, French, Spanish, Portuguese (Brazil), Japanese and Arabic', () => {
		expect(SHIPPED_LOCALES).toEqual(['en', 'de', 'fr', 'es', 'pt-BR', 'ja', 'ar']);
	});

	test.each(SHIPPED_LOCALES.filter((locale) => locale !== 'en'))('%s has every key of English, and its parameters and plural forms', (locale) => {
		expect(problems(locale, CATALOGUES[locale]!)).toEqual([]);
	});

	test('the check names a missing key, an extra one, a changed parameter and a missing plural form', () => {
		const { 'signIn.heading': _dropped, ...rest } = CATALOGUES.de!;
		const broken = {
			...rest,
			'signIn.headng': 'Anmelden',
			'signIn.withProvider': 'Mit {anbieter} anmelden',
			'verify.codeWrong': { other: 'Falsch.' }
		} as Messages;
		expect(problems('de', broken)).toEqual([
			'signIn.heading: missing',
			'signIn.headng: not in English',
			'signIn.withProvider: {anbieter} for {provider}',
			'verify.codeWrong: categories other, de has one, other',
			'verify.codeWrong.other: {} for {count}'
		]);
	});
});

describe('plural forms in use', () => {
	test('Arabic: zero, one, two, few, many and other', () => {
		const arabic = translator('ar');
		const number = new Intl.NumberFormat('ar');
		expect([0, 1, 2, 3, 11, 100].map((count) => arabic.t('sessions.others', { count }))).toEqual([
			'لا جلسات أخرى',
			'جلسة أخرى واحدة',
			'جلستان أخريان',
			`${number.format(3)} جلسات أخرى`,
			`${number.format(11)} جلسة أخرى`,
			`${number.format(100)} جلسة أخرى`
		]);
	});

	test('French counts 0 and 1 as one, German only 1', () => {
		expect(translator('fr').t('verify.codeWrong', { count: 0 })).toBe('Ce code n’est pas le bon. Il vous reste 0 tentative.');
		expect(translator('de').t('verify.codeWrong', { count: 0 })).toBe('Der Code ist nicht richtig. Noch 0 Versuche.');
		expect(translator('de').t('verify.codeWrong', { count: 1 })).toBe('Der Code ist nicht richtig. Noch 1 Versuch.');
		expect(translator('ja').t('verify.codeWrong', { count: 1 })).toBe('コードが正しくありません。残り 1 回です。');
	});

	test('each shipped locale by its tag and by its language alone', () => {
		expect(translator('pt').locale).toBe('pt');
		expect(translator('pt').t('signIn.heading')).toBe('Entrar');
		expect(translator('de-AT').t('signIn.heading')).toBe('Anmelden');
		expect(translator('es-MX').t('signIn.heading')).toBe('Iniciar sesión');
		expect(translator('ar-EG').dir).toBe('rtl');
	});
});
