/**
 * Password reset by email (`Password({ sendPasswordReset })`) through `Auth()` on a real libSQL
 * database: the link works once (50 parallel uses: one wins), for its user and purpose only, not
 * after it expired; known and unknown addresses get the same answer; the other sessions end.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { scryptHasher } from '../../src/lib/core/passwords/hash.js';
import type { PasswordResetRequest } from '../../src/lib/core/types/provider.js';
import Password, { passwordResetMessage } from '../../src/lib/providers/password.js';
import { dbSetup, openStore, type Store } from './database-fixtures.js';
import { ORIGIN, location, type Setup } from './fixtures.js';

const FAST = scryptHasher({ N: 2 ** 10, r: 8, p: 1 });
const OLD = 'correct horse battery staple';
const NEW = 'a whole new passphrase 🍕';

let store: Store;
let sent: PasswordResetRequest[];
let onSend: (() => void) | undefined;
beforeEach(async () => {
	store = await openStore('memory');
	sent = [];
});
afterEach(() => store.close());

function app(resetMaxAge?: number): Setup {
	return dbSetup(store, {
		providers: [
			Password({
				hasher: FAST,
				resetMaxAge,
				sendPasswordReset: (request) => {
					sent.push(request);
					onSend?.();
				}
			})
		]
	});
}

/** Asks for a link and waits for its message (sent after the answer). */
async function askForLink(s: Setup, email: string): Promise<{ res: Response; link: URL }> {
	const delivered = new Promise<void>((resolve) => (onSend = resolve));
	const res = await s.client().postForm('forgot-password/password', { email });
	await delivered;
	return { res, link: new URL(sent.at(-1)!.url) };
}

async function account(s: Setup, email: string): Promise<string> {
	await s.client().postForm('signup/password', { email, password: OLD });
	return (await store.adapter.getPasswordUser!(email))!.user.id;
}

const reset = (s: Setup, link: URL, password = NEW, overrides: Record<string, string> = {}) =>
	s.client().postForm('reset-password/password', { user: link.searchParams.get('user')!, token: link.searchParams.get('token')!, password, ...overrides });
const signIn = (s: Setup, email: string, password: string) => s.client().signInWithCredentials('password', { email, password, callbackUrl: '/home' });
const signedIn = async (s: Setup, email: string, password: string) => (await signIn(s, email, password)).headers.get('location') === `${ORIGIN}/home`;

describe('asking for a link', () => {
	test('a known address gets a link; known and unknown get the same answer', async () => {
		const s = app();
		await account(s, 'known@example.com');
		const { res: known, link } = await askForLink(s, 'known@example.com');
		const unknown = await s.client().postForm('forgot-password/password', { email: 'nobody@example.com' });
		expect(known.status).toBe(302);
		expect(unknown.status).toBe(known.status);
		expect(unknown.headers.get('location')).toBe(known.headers.get('location'));
		expect(known.headers.get('location')).toBe(`${ORIGIN}/auth/reset-password/password`);
		expect(sent).toHaveLength(1);
		expect(sent[0]).toMatchObject({ identifier: 'known@example.com' });
		expect(link.pathname).toBe('/auth/reset-password/password');
		expect(link.searchParams.get('token')).toMatch(/^[0-9a-f]{64}$/);
		const page = await s.client().get('reset-password/password');
		expect(await page.text()).toContain('If an account uses this address');
	});

	test('the link opens a form (using nothing up), whose POST sets the new password and ends every session', async () => {
		const s = app();
		await account(s, 'alice@example.com');
		const browser = s.client();
		await browser.signInWithCredentials('password', { email: 'alice@example.com', password: OLD });
		expect(await store.sessions()).toHaveLength(1);
		const { link } = await askForLink(s, 'alice@example.com');

		const form = await s.client().get(`reset-password/password${link.search}`);
		expect(form.status).toBe(200);
		expect(form.headers.get('referrer-policy')).toBe('strict-origin');
		expect(await form.text()).toContain('autocomplete="new-password"');

		const done = await reset(s, link);
		expect(done.status).toBe(302);
		expect(done.headers.get('location')).toBe(`${ORIGIN}/auth/signin`);
		expect(await store.sessions()).toEqual([]);
		expect(await browser.session()).toBeNull();
		expect(await signedIn(s, 'alice@example.com', NEW)).toBe(true);
		expect(await signedIn(s, 'alice@example.com', OLD)).toBe(false);
	});

	test('GET forgot-password/<id> is the built-in page; an unusable address shows it again (400)', async () => {
		const s = app();
		const page = await s.client().get('forgot-password/password');
		expect(page.status).toBe(200);
		expect(await page.text()).toContain('action="http://localhost:3000/auth/forgot-password/password"');
		const refused = await s.client().postForm('forgot-password/password', { email: 'not an address' });
		expect(refused.status).toBe(400);
		expect(await refused.text()).toContain('Enter one email address');
		expect(sent).toEqual([]);
	});

	test('an address without a password (another sign-in method) gets no link', async () => {
		const s = app();
		await store.adapter.createUser({ id: crypto.randomUUID(), email: 'oauth@example.com', emailVerified: null });
		await s.client().postForm('forgot-password/password', { email: 'oauth@example.com' });
		expect(sent).toEqual([]);
	});

	test('the per-account budget of email requests applies', async () => {
		const s = dbSetup(store, {
			providers: [Password({ hasher: FAST, sendPasswordReset: () => {} })],
			rateLimit: { rules: { 'email-request': { account: { freeAttempts: 3, delay: 0, maxDelay: 0, limit: 3, window: 600 } } } }
		});
		const statuses = [];
		for (let i = 0; i < 4; i++) statuses.push((await s.client().postForm('forgot-password/password', { email: 'victim@example.com' })).status);
		expect(statuses).toEqual([302, 302, 302, 429]);
	});
});

describe('using a link', () => {
	test('50 uses at once: exactly one sets its password', async () => {
		const s = app();
		await account(s, 'race@example.com');
		const { link } = await askForLink(s, 'race@example.com');
		const passwords = Array.from({ length: 50 }, (_, i) => `racing passphrase number ${i}`);
		const answers = await Promise.all(passwords.map((password) => reset(s, link, password)));
		const winners = answers.flatMap((res, i) => (res.headers.get('location') === `${ORIGIN}/auth/signin` ? [passwords[i]!] : []));
		expect(winners).toHaveLength(1);
		expect(answers.filter((res) => location(res).searchParams.get('error') === 'Verification')).toHaveLength(49);
		expect(await signedIn(s, 'race@example.com', winners[0]!)).toBe(true);
	});

	test('replayed after use: refused, and the password stays', async () => {
		const s = app();
		await account(s, 'replay@example.com');
		const { link } = await askForLink(s, 'replay@example.com');
		await reset(s, link);
		const replay = await reset(s, link, 'an attacker passphrase');
		expect(location(replay).searchParams.get('error')).toBe('Verification');
		expect(await signedIn(s, 'replay@example.com', NEW)).toBe(true);
	});

	test('expired: refused', async () => {
		const s = app(60);
		await account(s, 'late@example.com');
		const { link } = await askForLink(s, 'late@example.com');
		await store.db.execute(`UPDATE "verificationToken" SET "expires" = ${Date.now() - 1000}`);
		expect(location(await reset(s, link)).searchParams.get('error')).toBe('Verification');
		expect(await signedIn(s, 'late@example.com', OLD)).toBe(true);
	});

	test("for another user: a link for one user does not reset another's password", async () => {
		const s = app();
		await account(s, 'mallory@example.com');
		const victim = await account(s, 'victim@example.com');
		const { link } = await askForLink(s, 'mallory@example.com');
		expect(location(await reset(s, link, NEW, { user: victim })).searchParams.get('error')).toBe('Verification');
		expect(await signedIn(s, 'victim@example.com', OLD)).toBe(true);
		expect(await signedIn(s, 'mallory@example.com', OLD)).toBe(true);
	});

	test('for another purpose: a stored token of another kind (a magic link for the same id) is no reset token', async () => {
		const s = app();
		const id = await account(s, 'purpose@example.com');
		const token = 'f'.repeat(64);
		// The same identifier and raw token, hashed as anything but a reset of this user: refused.
		const { createHash } = await import('node:crypto');
		await store.adapter.createVerificationToken({ identifier: `kitauth:password-reset:password:${id}`, token: createHash('sha256').update(token).digest('hex'), expires: new Date(Date.now() + 60_000) });
		const answer = await s.client().postForm('reset-password/password', { user: id, token, password: NEW });
		expect(location(answer).searchParams.get('error')).toBe('Verification');
		expect(await signedIn(s, 'purpose@example.com', OLD)).toBe(true);
	});

	test('a refused new password keeps the link working', async () => {
		const s = app();
		await account(s, 'rules@example.com');
		const { link } = await askForLink(s, 'rules@example.com');
		const refused = await reset(s, link, 'password1234');
		expect(refused.status).toBe(400);
		expect(await refused.text()).toContain('too common');
		expect((await reset(s, link)).headers.get('location')).toBe(`${ORIGIN}/auth/signin`);
	});

	test.each([
		['no token', { token: '' }],
		['a huge token', { token: 'a'.repeat(10_000) }],
		['an unknown user', { user: 'nobody' }]
	])('%s: refused with the Verification page, never a 500', async (_label, overrides) => {
		const s = app();
		await account(s, 'hostile@example.com');
		const { link } = await askForLink(s, 'hostile@example.com');
		const answer = await reset(s, link, NEW, overrides);
		expect(answer.status).toBe(302);
		expect(location(answer).searchParams.get('error')).toBe('Verification');
	});
});

describe('configuration', () => {
	test('without sendPasswordReset the reset routes are 404s', async () => {
		const s = dbSetup(store, { providers: [Password({ hasher: FAST })] });
		expect((await s.client().postForm('forgot-password/password', { email: 'x@example.com' })).status).toBe(404);
		expect((await s.client().get('reset-password/password')).status).toBe(404);
	});

	test("passwordResetMessage: the link, how long it works, nothing of the requester's", () => {
		const message = passwordResetMessage({ url: 'https://app.example.com/auth/reset-password/password?user=u&token=t<b>', expires: new Date(Date.now() + 15 * 60_000) });
		expect(message.subject).toBe('Choose a new password for app.example.com');
		expect(message.text).toContain('token=t<b>');
		expect(message.text).toContain('15 minutes');
		expect(message.html).toContain('token=t&lt;b&gt;');
	});
});
