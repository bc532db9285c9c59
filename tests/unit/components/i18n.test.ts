/**
 * The components' texts come from the catalogue, in the locale of their `locale` prop, else of
 * what a layout set with `setAuthI18n`, else English; an app's `messages` override any of them.
 */
import { describe, expect, test } from 'vitest';
import ConfirmSignIn from '../../../src/lib/components/parts/ConfirmSignIn.svelte';
import SessionList from '../../../src/lib/components/parts/SessionList.svelte';
import VerifyRequest from '../../../src/lib/components/parts/VerifyRequest.svelte';
import WithI18n from './fixtures/WithI18n.svelte';
import { renderDom, text } from './dom.js';

const nl = {
	'signOut.heading': 'Uitloggen',
	'signOut.question': 'Weet je zeker dat je wilt uitloggen?',
	'error.accessDenied.heading': 'Geen toegang',
	'verify.sentTo': 'We hebben een link gestuurd naar {email}.',
	'sessions.others': { one: 'Eén andere sessie', other: '{count} andere sessies' }
};

describe('locale and messages', () => {
	test("a component's own props: its texts, lang and dir; values stay text", () => {
		const { $, body } = renderDom(VerifyRequest, { email: '<b>ann@example.com</b>', locale: 'nl', messages: { nl } });
		const card = $('[data-kitauth="verify-request"]')!;
		expect(card.getAttribute('lang')).toBe('nl');
		expect(card.getAttribute('dir')).toBe('ltr');
		expect(text($('p'))).toBe('We hebben een link gestuurd naar <b>ann@example.com</b>.');
		expect($('p strong')?.textContent).toBe('<b>ann@example.com</b>');
		expect(body).not.toContain('<b>ann');
		// Not translated: English.
		expect(text($('h1'))).toBe('Check your email');
	});

	test('plural messages by the count', () => {
		const sessions = (totalOthers: number) => ({ current: null, others: [], totalOthers, nextCursor: null });
		expect(text(renderDom(SessionList, { sessions: sessions(1), locale: 'nl', messages: { nl } }).$('.count'))).toBe('Eén andere sessie');
		expect(text(renderDom(SessionList, { sessions: sessions(37), locale: 'nl', messages: { nl } }).$('.count'))).toBe('37 andere sessies');
		expect(text(renderDom(SessionList, { sessions: sessions(37) }).$('.count'))).toBe('37 other sessions');
	});

	test("setAuthI18n in a layout reaches every component below; a component's own props win", () => {
		const { $ } = renderDom(WithI18n, { i18n: { locale: 'nl', messages: { nl } } });
		expect(text($('[data-kitauth="signout"] h1'))).toBe('Uitloggen');
		expect(text($('[data-kitauth="signout"] .question, [data-kitauth="signout"] p'))).toBe('Weet je zeker dat je wilt uitloggen?');
		expect(text($('[data-kitauth="error"] h1'))).toBe('Geen toegang');
		const own = renderDom(WithI18n, { i18n: { locale: 'nl', messages: { nl } }, own: { locale: 'en', messages: { en: { 'error.accessDenied.heading': 'No entry' } } } });
		expect(text(own.$('[data-kitauth="error"] h1'))).toBe('No entry');
		expect(own.$('[data-kitauth="error"]')?.getAttribute('lang')).toBe('en');
	});

	test('English without either', () => {
		const { $ } = renderDom(ConfirmSignIn, { email: 'ann@example.com', target: { action: '/auth/callback/email' } });
		expect(text($('h1'))).toBe('Confirm sign-in');
		expect(text($('p'))).toBe('Sign in as ann@example.com?');
		expect($('[data-kitauth]')?.getAttribute('lang')).toBe('en');
	});
});
