/**
 * The built-in pages speak the request's language: the app's `i18n.locale` (a tag, or a function
 * of the request), else `Accept-Language`, with the app's messages before kitauth's catalogues.
 */
import { parseHTML } from 'linkedom';
import { describe, expect, test } from 'vitest';
import { createAuthServer } from '../../src/lib/core/index.js';
import type { AuthConfig } from '../../src/lib/core/types.js';
import { ORIGIN, setup } from './fixtures.js';

/** A locale of the app's own, and an override of English. */
const messages = {
	nl: { 'signIn.heading': 'Inloggen', 'signOut.heading': 'Uitloggen', 'error.accessDenied.heading': 'Geen toegang' },
	en: { 'signIn.heading': 'Welcome back' }
};

async function page(path: string, config: Partial<AuthConfig>, headers: Record<string, string> = {}) {
	const res = await setup(config).client().get(path, { headers });
	const { document } = parseHTML(await res.text());
	return { res, document, $: (s: string) => document.querySelector(s) };
}

describe('the language of the built-in pages', () => {
	test("Accept-Language picks among the app's locales and kitauth's; the document says which", async () => {
		const { $, document } = await page('signin', { i18n: { messages } }, { 'accept-language': 'nl-BE, nl;q=0.9, en;q=0.5' });
		expect(document.documentElement.getAttribute('lang')).toBe('nl');
		expect(document.documentElement.getAttribute('dir')).toBe('ltr');
		expect($('title')?.textContent).toBe('Inloggen');
		expect($('h1')?.textContent).toBe('Inloggen');
		expect($('[data-kitauth="signin"]')?.getAttribute('lang')).toBe('nl');
		// What the app did not translate is English.
		expect((await page('signout', { i18n: { messages } }, { 'accept-language': 'nl' })).$('h1')?.textContent).toBe('Uitloggen');
		expect((await page('error?error=AccessDenied', { i18n: { messages } }, { 'accept-language': 'nl' })).$('h1')?.textContent).toBe('Geen toegang');
	});

	test("no Accept-Language, or none the app speaks: English, with the app's overrides", async () => {
		for (const headers of [{}, { 'accept-language': 'sv, fi;q=0.5' }, { 'accept-language': ';;;q=x,*-*' }] as Record<string, string>[]) {
			const { $, document } = await page('signin', { i18n: { messages } }, headers);
			expect(document.documentElement.getAttribute('lang')).toBe('en');
			expect($('h1')?.textContent).toBe('Welcome back');
		}
	});

	test("the app's locale wins over Accept-Language: fixed, or a function of the request", async () => {
		const fixed = await page('signin', { i18n: { locale: 'nl', messages } }, { 'accept-language': 'en' });
		expect(fixed.$('h1')?.textContent).toBe('Inloggen');
		const byCookie = (request: Request) => /(?:^|;\s*)lang=(\w+)/.exec(request.headers.get('cookie') ?? '')?.[1];
		const chosen = await page('signin', { i18n: { locale: byCookie, messages } }, { cookie: 'lang=nl', 'accept-language': 'en' });
		expect(chosen.$('h1')?.textContent).toBe('Inloggen');
		// Nothing from the function: Accept-Language decides.
		const asked = await page('signin', { i18n: { locale: byCookie, messages } }, { 'accept-language': 'nl' });
		expect(asked.$('h1')?.textContent).toBe('Inloggen');
	});

	test('the shipped catalogues: German, and Arabic right to left on the page and its card', async () => {
		const german = await page('signin', {}, { 'accept-language': 'de-CH, en;q=0.5' });
		expect(german.document.documentElement.getAttribute('lang')).toBe('de');
		expect(german.$('h1')?.textContent).toBe('Anmelden');
		const arabic = await page('signin', {}, { 'accept-language': 'ar-EG' });
		expect(arabic.document.documentElement.getAttribute('lang')).toBe('ar');
		expect(arabic.document.documentElement.getAttribute('dir')).toBe('rtl');
		expect(arabic.$('[data-kitauth="signin"]')?.getAttribute('dir')).toBe('rtl');
		expect(arabic.$('h1')?.textContent).toBe('تسجيل الدخول');
		const error = await page('error?error=Verification', {}, { 'accept-language': 'ar' });
		expect(error.$('h1')?.textContent).toBe('تعذّر تسجيل الدخول');
	});

	test('the server API tells the request language, for the form actions and the components', () => {
		const server = createAuthServer({ secret: 'x'.repeat(32), trustHost: true, providers: [], i18n: { messages } });
		const request = new Request(`${ORIGIN}/`, { headers: { 'accept-language': 'nl-NL' } });
		expect(server.i18n(request).locale).toBe('nl');
		expect(server.i18n(request).t('signIn.heading')).toBe('Inloggen');
		expect(server.i18n(new Request(`${ORIGIN}/`)).t('signIn.heading')).toBe('Welcome back');
	});
});
