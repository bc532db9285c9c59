/**
 * SessionList and LinkedAccounts, and the device names SessionList shows.
 */
import { describe, expect, test } from 'vitest';
import LinkedAccounts from '../../../src/lib/components/parts/LinkedAccounts.svelte';
import SessionList from '../../../src/lib/components/parts/SessionList.svelte';
import { describeDevice } from '../../../src/lib/components/device.js';
import type { ClientProvider, LinkedAccount, SessionInfo, SessionPage } from '../../../src/lib/core/index.js';
import { renderDom, text } from './dom.js';

const UA = {
	mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Safari/537.36',
	windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0',
	iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1',
	android: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Mobile Safari/537.36'
};

describe('describeDevice', () => {
	test.each([
		[UA.mac, 'Chrome 139 on macOS', 'desktop'],
		[UA.windows, 'Firefox 140 on Windows', 'desktop'],
		[UA.iphone, 'Safari 18 on iOS 18', 'mobile'],
		[UA.android, 'Chrome 139 on Android 14', 'mobile']
	])('%s → %s', (ua, label, type) => {
		expect(describeDevice(ua)).toMatchObject({ label, type });
		expect(describeDevice(ua).raw).toBeUndefined();
	});

	test.each([null, undefined, ''])('%s: unknown, nothing raw', (ua) => {
		expect(describeDevice(ua)).toEqual({ label: 'Unknown device' });
	});

	test('an agent it cannot name: unknown, with the raw text cut short', () => {
		const device = describeDevice(`Laptop browser e2e ${'x'.repeat(500)}`);
		expect(device.label).toBe('Unknown device');
		expect(device.raw?.startsWith('Laptop browser e2e')).toBe(true);
		expect(device.raw!.length).toBeLessThanOrEqual(120);
	});
});

const at = (h: number) => new Date(Date.UTC(2026, 2, 14, h, 5)).toISOString();
const session = (id: string, current: boolean, h: number, userAgent: string | null): SessionInfo => ({ id, current, createdAt: at(h), expires: at(23), userAgent });
const page: SessionPage = {
	current: session('me', true, 12, UA.mac),
	others: [session('a', false, 10, UA.iphone), session('b', false, 9, '<img src=x onerror=alert(1)>')],
	totalOthers: 7,
	nextCursor: '123.b'
};

describe('SessionList', () => {
	test('this device first and marked, no button to end it; the others named, each with its own button', () => {
		const { $$ } = renderDom(SessionList, { sessions: page });
		const rows = $$('li');
		expect(rows).toHaveLength(3);
		expect(text(rows[0]!.querySelector('.device'))).toBe('Chrome 139 on macOS');
		expect(text(rows[0])).toContain('This device');
		expect(rows[0]!.querySelector('form')).toBeNull();
		expect(text(rows[1]!.querySelector('.device'))).toBe('Safari 18 on iOS 18');
		expect(rows[1]!.querySelector('input[name="id"]')?.getAttribute('value')).toBe('a');
		expect(rows[1]!.querySelector('form')?.getAttribute('action')).toBe('?/revokeSession');
		expect(text(rows[1]!.querySelector('button'))).toBe('Sign out Safari 18 on iOS 18, signed in Mar 14, 2026, 10:05 AM UTC');
		expect(rows[1]!.querySelector('time')?.getAttribute('datetime')).toBe(at(10));
	});

	test('a user agent is text, never HTML', () => {
		const { $$, body } = renderDom(SessionList, { sessions: page });
		expect($$('img')).toHaveLength(0);
		expect(body).not.toContain('<img src=x');
		expect(text($$('li')[2]!.querySelector('.raw'))).toBe('<img src=x onerror=alert(1)>');
	});

	test('paging: "Older sessions" to the next cursor, "Newest sessions" back when not on the first page', () => {
		const first = renderDom(SessionList, { sessions: page });
		expect(first.$$('nav a').map((a) => [text(a), a.getAttribute('href')])).toEqual([['Older sessions', '?sessions=123.b']]);
		const later = renderDom(SessionList, { sessions: { ...page, nextCursor: null }, cursor: '99.a', pageHref: (c: string | null) => (c ? `/account?s=${c}` : '/account') });
		expect(later.$$('nav a').map((a) => [text(a), a.getAttribute('href')])).toEqual([['Newest sessions', '/account']]);
		expect(renderDom(SessionList, { sessions: { ...page, nextCursor: null } }).$('nav')).toBeNull();
	});

	test('"Sign out everywhere else" with the count of all the others, not only this page', () => {
		const { $ } = renderDom(SessionList, { sessions: page, revokeOthersAction: '/account?/others' });
		expect(text($('.count'))).toBe('7 other sessions');
		expect($('form.others')?.getAttribute('action')).toBe('/account?/others');
		const alone = renderDom(SessionList, { sessions: { current: page.current, others: [], totalOthers: 0, nextCursor: null } });
		expect(alone.$('form.others')).toBeNull();
	});

	test('the last answer: done (status) or refused (alert)', () => {
		expect(text(renderDom(SessionList, { sessions: page, form: { message: 'Session ended.' } }).$('[role="status"]'))).toBe('Session ended.');
		expect(text(renderDom(SessionList, { sessions: page, form: { formErrors: ['Gone already.'] } }).$('[role="alert"]'))).toBe('Gone already.');
	});

	test('dates in the given time zone and locale', () => {
		const { $$ } = renderDom(SessionList, { sessions: page, timeZone: 'Asia/Tokyo', locale: 'en-GB' });
		expect(text($$('.when')[0])).toBe('Signed in 14 Mar 2026, 21:05 GMT+9');
	});
});

const providers: ClientProvider[] = [
	{ id: 'github', name: 'GitHub', type: 'oauth', style: { bg: '#24292f', text: '#fff' } },
	{ id: 'local', name: 'Local IdP', type: 'oidc' },
	{ id: 'gitlab', name: 'GitLab', type: 'oauth' },
	{ id: 'credentials', name: 'Password', type: 'credentials' }
];
const linked = (provider: string, unlinkable: boolean, type = 'oauth'): LinkedAccount => ({ provider, type, providerAccountId: `${provider}-1`, unlinkable });

describe('LinkedAccounts', () => {
	test('each account by its provider’s name, with Unlink where allowed; linkable OAuth providers offered', () => {
		const { $$ } = renderDom(LinkedAccounts, { accounts: [linked('github', true), linked('local', true)], providers, redirectTo: '/account' });
		const rows = $$('li');
		expect(rows.map((r) => text(r.querySelector('.name')))).toEqual(['GitHub', 'Local IdP']);
		expect(text(rows[0]!.querySelector('button'))).toBe('Unlink GitHub');
		expect(rows[0]!.querySelector('input[name="provider"]')?.getAttribute('value')).toBe('github');
		expect(rows[0]!.querySelector('input[name="providerAccountId"]')?.getAttribute('value')).toBe('github-1');
		// Only OAuth/OIDC providers not linked yet can be linked (signing in with them while signed in).
		const links = $$('form[data-key^="link:"]');
		expect(links.map((f) => text(f.querySelector('button')))).toEqual(['Link GitLab']);
		expect(links[0]!.getAttribute('action')).toBe('?/signIn');
		expect(links[0]!.querySelector('input[name="providerId"]')?.getAttribute('value')).toBe('gitlab');
		expect(links[0]!.querySelector('input[name="redirectTo"]')?.getAttribute('value')).toBe('/account');
	});

	test('the last way to sign in: no Unlink, says why', () => {
		const { $, $$ } = renderDom(LinkedAccounts, { accounts: [linked('github', false)], providers });
		expect($$('form[data-key^="unlink:"]')).toHaveLength(0);
		expect(text($('.note'))).toBe('Your only way to sign in');
	});

	test('passkeys and email accounts are named for what they are; unknown providers by their id, as text', () => {
		const { $$, body } = renderDom(LinkedAccounts, {
			accounts: [linked('passkey', true, 'webauthn'), { ...linked('email', true, 'email'), providerAccountId: 'me@example.com' }, linked('<b>x</b>', true)],
			providers
		});
		expect($$('.name').map(text)).toEqual(['Passkey', 'email', '<b>x</b>']);
		expect(text($$('.detail')[0])).toBe('me@example.com');
		expect(body).not.toContain('<b>x</b>');
	});

	test('none linked: says so', () => {
		expect(text(renderDom(LinkedAccounts, { accounts: [], providers }).$('li'))).toBe('No linked accounts yet.');
	});
});
