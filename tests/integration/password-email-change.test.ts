/**
 * Changing the signed-in user's email address (`Password({ sendAccountEmail })`) and asking for a
 * new confirmation link, through `Auth()` on a real libSQL database: the link goes to the new
 * address (a notice to the old one), works once, for that user, address and purpose, not after
 * it expired; a taken address gets the same answer and a notice instead.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { scryptHasher } from '../../src/lib/core/passwords/hash.js';
import type { AuthConfig } from '../../src/lib/core/types/config.js';
import type { AccountEmailRequest, SignUpEmailRequest } from '../../src/lib/core/types/provider.js';
import Password from '../../src/lib/providers/password.js';
import type { TestClient } from '../support/client.js';
import { dbSetup, openStore, type Store } from './database-fixtures.js';
import { location, ORIGIN, type Setup } from './fixtures.js';

const FAST = scryptHasher({ N: 2 ** 10, r: 8, p: 1 });
const PASSWORD = 'correct horse battery staple';

let store: Store;
let mails: AccountEmailRequest[];
let signUpMails: SignUpEmailRequest[];
let updated: string[];
beforeEach(async () => {
	store = await openStore('memory');
	mails = [];
	signUpMails = [];
	updated = [];
});
afterEach(() => store.close());

function app(overrides: Partial<AuthConfig> = {}): Setup {
	return dbSetup(store, {
		providers: [Password({ hasher: FAST, sendAccountEmail: (mail) => void mails.push(mail), sendSignUpEmail: (mail) => void signUpMails.push(mail) })],
		events: { updateUser: ({ user }) => void updated.push(user.email!) },
		...overrides
	});
}

async function account(s: Setup, email: string): Promise<{ id: string; browser: TestClient }> {
	await s.client().postForm('signup/password', { email, password: PASSWORD });
	const browser = s.client();
	await browser.signInWithCredentials('password', { email, password: PASSWORD });
	return { id: (await store.adapter.getPasswordUser!(email))!.user.id, browser };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));
async function requestChange(browser: TestClient, email: string, currentPassword = PASSWORD): Promise<Response> {
	const res = await browser.postForm('change-email/password', { email, currentPassword });
	await settled();
	return res;
}
const linkOf = (mail: AccountEmailRequest | undefined) => new URL(mail!.url);
const confirm = (s: Setup, link: URL, overrides: Record<string, string> = {}) =>
	s.client().postForm('confirm-email/password', { ...Object.fromEntries(link.searchParams), ...overrides });
const emailOf = async (id: string) => (await store.adapter.getUser!(id))?.email;

describe('asking for an email change', () => {
	test('a free address gets the link, the old one a notice; the link opens a button, its POST changes the address', async () => {
		const s = app();
		const { id, browser } = await account(s, 'old@example.com');
		const res = await requestChange(browser, 'New@Example.com');
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({ requested: true });
		expect(mails.map(({ kind, identifier }) => [kind, identifier])).toEqual([
			['confirm-email', 'new@example.com'],
			['email-change-requested', 'old@example.com']
		]);
		expect(mails[1]).toMatchObject({ newEmail: 'new@example.com', url: `${ORIGIN}/auth/signin` });
		const link = linkOf(mails[0]);
		expect(link.pathname).toBe('/auth/confirm-email/password');
		const page = await s.client().get(`confirm-email/password${link.search}`);
		expect(page.status).toBe(200);
		expect(page.headers.get('referrer-policy')).toBe('strict-origin');
		expect(await page.text()).toContain('new@example.com');
		expect(await emailOf(id)).toBe('old@example.com');
		const done = await confirm(s, link);
		expect(done.headers.get('location')).toBe(`${ORIGIN}/auth/signin`);
		expect(await store.adapter.getUser!(id)).toMatchObject({ email: 'new@example.com', emailVerified: expect.any(Date) });
		expect(updated).toEqual(['new@example.com']);
	});

	test('a taken address: the same answer, a notice to its owner instead of a link, nothing changes', async () => {
		const s = app();
		await account(s, 'owner@example.com');
		const { id, browser } = await account(s, 'asker@example.com');
		const free = await requestChange(browser, 'free@example.com');
		const taken = await requestChange(browser, 'owner@example.com');
		expect(taken.status).toBe(free.status);
		expect(await taken.json()).toEqual(await free.json());
		expect(mails.slice(2).map(({ kind, identifier }) => [kind, identifier])).toEqual([
			['email-taken', 'owner@example.com'],
			['email-change-requested', 'asker@example.com']
		]);
		expect(mails[2]!.url).toBe(`${ORIGIN}/auth/signin`);
		expect(await emailOf(id)).toBe('asker@example.com');
	});

	test('the current password is needed (403, counted) and the address must be usable (400)', async () => {
		const s = app();
		const { id, browser } = await account(s, 'me@example.com');
		expect((await requestChange(browser, 'new@example.com', 'a wrong password here')).status).toBe(403);
		expect((await browser.postForm('change-email/password', { email: 'new@example.com' })).status).toBe(403);
		const bad = await requestChange(browser, 'not an address');
		expect(bad.status).toBe(400);
		expect(await bad.json()).toMatchObject({ fieldErrors: { email: ['Enter one email address, such as name@example.com.'] } });
		expect((await requestChange(browser, 'x'.repeat(100_000))).status).toBe(413);
		expect((await requestChange(s.client(), 'new@example.com')).status).toBe(401);
		expect(mails).toEqual([]);
		expect(await emailOf(id)).toBe('me@example.com');
	});

	test('without sendAccountEmail there is no email change (404); without sendSignUpEmail no new confirmation link', async () => {
		const s = dbSetup(store, { providers: [Password({ hasher: FAST })] });
		const { browser } = await account(s, 'me@example.com');
		expect((await requestChange(browser, 'new@example.com')).status).toBe(404);
		expect((await s.client().get('confirm-email/password', { query: { user: 'u', email: 'a@example.com', token: 't' } })).status).toBe(404);
		expect((await s.client().postForm('resend-verification/password', { email: 'me@example.com' })).status).toBe(404);
	});
});

describe('using an email change link', () => {
	async function linked(s: Setup, from = 'from@example.com', to = 'to@example.com') {
		const { id, browser } = await account(s, from);
		await requestChange(browser, to);
		return { id, link: linkOf(mails.find((mail) => mail.kind === 'confirm-email' && mail.identifier === to)) };
	}
	const refused = (res: Response) => location(res).searchParams.get('error') === 'Verification';

	test('replayed after use: refused', async () => {
		const s = app();
		const { id, link } = await linked(s);
		await confirm(s, link);
		await store.adapter.updateUser!({ id, email: 'back@example.com' });
		expect(refused(await confirm(s, link))).toBe(true);
		expect(await emailOf(id)).toBe('back@example.com');
	});

	test('expired: refused', async () => {
		const s = app();
		const { id, link } = await linked(s);
		await store.db.execute(`UPDATE "verificationToken" SET "expires" = ${Date.now() - 1000}`);
		expect(refused(await confirm(s, link))).toBe(true);
		expect(await emailOf(id)).toBe('from@example.com');
	});

	test('for another user, another address, or another purpose: refused', async () => {
		const s = app();
		const other = await account(s, 'other@example.com');
		const { id, link } = await linked(s);
		expect(refused(await confirm(s, link, { user: other.id }))).toBe(true);
		expect(refused(await confirm(s, link, { email: 'attacker@example.com' }))).toBe(true);
		// The same user and token on the address confirmation route: no such token there.
		const verify = await s.client().postForm('verify-email/password', { user: id, token: link.searchParams.get('token')! });
		expect(refused(verify)).toBe(true);
		expect(await emailOf(other.id)).toBe('other@example.com');
		expect(await emailOf(id)).toBe('from@example.com');
		expect((await confirm(s, link)).headers.get('location')).toBe(`${ORIGIN}/auth/signin`);
	});

	test('50 uses at once: exactly one wins', async () => {
		const s = app();
		const { id, link } = await linked(s);
		const answers = await Promise.all(Array.from({ length: 50 }, () => confirm(s, link)));
		expect(answers.filter((res) => res.headers.get('location') === `${ORIGIN}/auth/signin`)).toHaveLength(1);
		expect(answers.filter(refused)).toHaveLength(49);
		expect(await emailOf(id)).toBe('to@example.com');
		expect(updated).toEqual(['to@example.com']);
	});

	test('the address taken meanwhile: refused cleanly, nothing changed', async () => {
		const s = app();
		const { id, link } = await linked(s);
		await s.client().postForm('signup/password', { email: 'to@example.com', password: PASSWORD });
		expect(refused(await confirm(s, link))).toBe(true);
		expect(await emailOf(id)).toBe('from@example.com');
	});

	test.each([
		['no token', { token: '' }],
		['a huge token', { token: 'a'.repeat(10_000) }],
		['no address', { email: '' }],
		['an unknown user', { user: 'nobody' }]
	])('%s: the Verification page, never a 500', async (_label, overrides) => {
		const s = app();
		const { link } = await linked(s);
		expect(refused(await confirm(s, link, overrides))).toBe(true);
		const page = await s.client().get('confirm-email/password', { query: { ...Object.fromEntries(link.searchParams), ...overrides } });
		expect(page.status).toBeLessThan(500);
	});
});

describe('a new confirmation link', () => {
	test('an unconfirmed account gets one; confirmed and unknown addresses the same answer and nothing', async () => {
		const s = app();
		await s.client().postForm('signup/password', { email: 'late@example.com', password: PASSWORD });
		const { id: confirmed } = await account(s, 'done@example.com');
		await store.adapter.updateUser!({ id: confirmed, emailVerified: new Date() });
		signUpMails = [];
		const answers = [];
		for (const email of ['late@example.com', 'done@example.com', 'nobody@example.com']) answers.push(await s.client().postForm('resend-verification/password', { email }));
		await settled();
		expect(answers.map((res) => [res.status, res.headers.get('location')])).toEqual(Array(3).fill([302, `${ORIGIN}/auth/verify-email/password`]));
		expect(signUpMails.map(({ kind, identifier }) => [kind, identifier])).toEqual([['verify-email', 'late@example.com']]);
		const link = new URL(signUpMails[0]!.url);
		const done = await s.client().postForm('verify-email/password', Object.fromEntries(link.searchParams));
		expect(done.headers.get('location')).toBe(`${ORIGIN}/auth/signin`);
		expect((await store.adapter.getPasswordUser!('late@example.com'))!.user.emailVerified).toBeInstanceOf(Date);
	});

	test('counted against the email-request budget; an unusable address is a 400', async () => {
		const s = app({ rateLimit: { rules: { 'email-request': { account: { freeAttempts: 2, delay: 0, maxDelay: 0, limit: 2, window: 600 } } } } });
		const statuses = [];
		for (let i = 0; i < 3; i++) statuses.push((await s.client().postForm('resend-verification/password', { email: 'victim@example.com' })).status);
		expect(statuses).toEqual([302, 302, 429]);
		expect((await s.client().postForm('resend-verification/password', { email: 'nope' })).status).toBe(400);
	});
});
