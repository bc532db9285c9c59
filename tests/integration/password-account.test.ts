/**
 * The signed-in user's password account through `Auth()` on a real libSQL database: changing the
 * password (the current one checked and counted as a sign-in, the other sessions ended, this one
 * kept) and deleting the account (a recent sign-in or the current password; every row of the
 * user gone, the cookie cleared, `events.deleteUser`).
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { scryptHasher } from '../../src/lib/core/passwords/hash.js';
import type { AuthConfig, CredentialsChangedMessage } from '../../src/lib/core/types/config.js';
import type { AccountEmailRequest } from '../../src/lib/core/types/provider.js';
import Password, { type PasswordUserConfig } from '../../src/lib/providers/password.js';
import type { TestClient } from '../support/client.js';
import { dbSetup, openStore, type Store } from './database-fixtures.js';
import { ORIGIN, SESSION_COOKIE, sessionCookiesCleared, type Setup } from './fixtures.js';

const FAST = scryptHasher({ N: 2 ** 10, r: 8, p: 1 });
const OLD = 'correct horse battery staple';
const NEW = 'a whole new passphrase 🍕';
const EMAIL = 'alice@example.com';

let store: Store;
let mails: AccountEmailRequest[];
let changes: CredentialsChangedMessage[];
let deleted: string[];
beforeEach(async () => {
	store = await openStore('memory');
	mails = [];
	changes = [];
	deleted = [];
});
afterEach(() => store.close());

function app(password: PasswordUserConfig = {}, overrides: Partial<AuthConfig> = {}): Setup {
	return dbSetup(store, {
		providers: [Password({ hasher: FAST, sendAccountEmail: (mail) => void mails.push(mail), ...password })],
		events: { credentialsChanged: (message) => void changes.push(message), deleteUser: ({ user }) => void deleted.push(user.id!) },
		...overrides
	});
}

async function signedIn(s: Setup, password = OLD): Promise<TestClient> {
	const browser = s.client();
	const res = await browser.signInWithCredentials('password', { email: EMAIL, password, callbackUrl: '/home' });
	expect(res.headers.get('location')).toBe(`${ORIGIN}/home`);
	return browser;
}

async function account(s: Setup): Promise<string> {
	await s.client().postForm('signup/password', { email: EMAIL, password: OLD });
	return (await store.adapter.getPasswordUser!(EMAIL))!.user.id;
}

const canSignIn = async (s: Setup, password: string) =>
	(await s.client().signInWithCredentials('password', { email: EMAIL, password, callbackUrl: '/home' })).headers.get('location') === `${ORIGIN}/home`;
/** Makes every session's sign-in an hour old (database sessions: the row's `createdAt`). */
const signInLongAgo = () => store.db.execute({ sql: 'UPDATE "session" SET "createdAt" = ?', args: [Date.now() - 3_600_000] });
const changePassword = (browser: TestClient, fields: Record<string, string>) => browser.postForm('change-password/password', fields);
const deleteAccount = (browser: TestClient, fields: Record<string, string> = {}) => browser.postForm('delete-account/password', fields);

describe('changing the password', () => {
	test('with the current password: stored, the other sessions ended, this one kept, the event and a notice sent', async () => {
		const s = app();
		const userId = await account(s);
		const here = await signedIn(s);
		const elsewhere = await signedIn(s);
		const res = await changePassword(here, { currentPassword: OLD, newPassword: NEW });
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({ changed: true });
		expect(await here.session()).toMatchObject({ user: { email: EMAIL } });
		expect(await elsewhere.session()).toBeNull();
		expect(await store.sessions()).toHaveLength(1);
		expect(changes).toEqual([expect.objectContaining({ userId, change: 'password', ended: 'others' })]);
		expect(await canSignIn(s, NEW)).toBe(true);
		expect(await canSignIn(s, OLD)).toBe(false);
		await new Promise((resolve) => setTimeout(resolve, 0));
		expect(mails).toEqual([expect.objectContaining({ kind: 'password-changed', identifier: EMAIL, url: `${ORIGIN}/auth/signin` })]);
	});

	test('JWT sessions: the other one stops opening, this one is re-issued and stays signed in', async () => {
		const s = app({}, { session: { strategy: 'jwt' } });
		await account(s);
		const here = await signedIn(s);
		const elsewhere = await signedIn(s);
		await new Promise((resolve) => setTimeout(resolve, 1100)); // token times are in seconds
		const res = await changePassword(here, { currentPassword: OLD, newPassword: NEW });
		expect(res.status).toBe(200);
		expect(res.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=`))).toBe(true);
		expect(await here.session()).toMatchObject({ user: { email: EMAIL } });
		expect(await elsewhere.session()).toBeNull();
	});

	test('a wrong current password is refused (403), changes nothing, and counts against the sign-in budget', async () => {
		const budget = { freeAttempts: 2, delay: 0, maxDelay: 0, limit: 2, window: 600 };
		const s = app({}, { rateLimit: { rules: { credentials: { account: budget } } } });
		await account(s);
		const browser = await signedIn(s);
		const wrong = await changePassword(browser, { currentPassword: 'not the password at all', newPassword: NEW });
		expect(wrong.status).toBe(403);
		expect(await wrong.json()).toEqual({ failed: true, fieldErrors: { currentPassword: ['The current password is wrong.'] }, formErrors: [] });
		await changePassword(browser, { currentPassword: 'another wrong guess', newPassword: NEW });
		expect((await changePassword(browser, { currentPassword: OLD, newPassword: NEW })).status).toBe(429);
		// The same budget as this browser's sign-ins (its device's, since it signed in here before).
		const signIn = await browser.signInWithCredentials('password', { email: EMAIL, password: OLD });
		expect(signIn.status).toBe(429);
		expect(changes).toEqual([]);
	});

	test('the new password is checked by the same rules (400), before the current one is', async () => {
		const s = app();
		await account(s);
		const browser = await signedIn(s);
		const res = await changePassword(browser, { currentPassword: 'wrong but never checked', newPassword: 'password1234' });
		expect(res.status).toBe(400);
		expect(await res.json()).toMatchObject({ fieldErrors: { newPassword: ['This password is too common: choose another.'] } });
		expect(await canSignIn(s, OLD)).toBe(true);
	});

	test('a recent sign-in stands in for the current password only where the app allows it', async () => {
		const strict = app();
		await account(strict);
		const refused = await changePassword(await signedIn(strict), { newPassword: NEW });
		expect(refused.status).toBe(403);
		expect(await refused.json()).toEqual({ failed: true, fieldErrors: { currentPassword: ['Enter your current password.'] }, formErrors: [] });

		const lenient = app({ recentSignIn: 300 });
		const browser = await signedIn(lenient);
		await signInLongAgo();
		const stale = await changePassword(browser, { newPassword: NEW });
		expect(stale.status).toBe(403);
		expect(await stale.json()).toMatchObject({ reauthenticate: true });
		const fresh = await signedIn(lenient);
		expect((await changePassword(fresh, { newPassword: NEW })).status).toBe(200);
		expect(await canSignIn(lenient, NEW)).toBe(true);
	});

	test('signed out: 401', async () => {
		const s = app();
		await account(s);
		const res = await changePassword(s.client(), { currentPassword: OLD, newPassword: NEW });
		expect(res.status).toBe(401);
		expect(await res.json()).toEqual({ failed: true, fieldErrors: {}, formErrors: ['Sign in first.'] });
	});

	test.each([
		['no fields', {}, 400],
		['a huge new password', { currentPassword: OLD, newPassword: 'x'.repeat(60_000) }, 400],
		['a huge current password', { currentPassword: 'x'.repeat(60_000), newPassword: NEW }, 403],
		['fields of the wrong kind', { currentPassword: '', newPassword: '' }, 400]
	])('hostile input (%s): a 4xx, nothing changed', async (_label, fields, status) => {
		const s = app();
		await account(s);
		const res = await changePassword(await signedIn(s), fields);
		expect(res.status).toBe(status);
		expect(await canSignIn(s, OLD)).toBe(true);
	});

	test('without the CSRF token, or from another site: 403, nothing changed', async () => {
		const s = app();
		await account(s);
		const browser = await signedIn(s);
		const form = { currentPassword: OLD, newPassword: NEW };
		const noToken = await browser.post('change-password/password', { form, headers: { origin: 'null' } });
		const foreign = await browser.post('change-password/password', { form: { ...form, csrfToken: await browser.csrfToken() }, headers: { origin: 'https://evil.example' } });
		expect([noToken.status, foreign.status]).toEqual([403, 403]);
		expect((await browser.post('change-password/nope', { form: { ...form, csrfToken: await browser.csrfToken() } })).status).toBe(404);
		expect(await canSignIn(s, OLD)).toBe(true);
	});
});

describe('deleting the account', () => {
	const count = async (table: string, column: string, value: string) =>
		Number((await store.db.execute({ sql: `SELECT count(*) AS n FROM "${table}" WHERE "${column}" = ?`, args: [value] })).rows[0]!['n']);

	test('after a recent sign-in: every row of the user gone, the cookie cleared, events.deleteUser', async () => {
		const s = app();
		const userId = await account(s);
		await store.adapter.linkAccount({ userId, type: 'oauth', provider: 'github', providerAccountId: '42' });
		await s.client().postForm('forgot-password/password', { email: EMAIL }); // no reset configured: 404, nothing stored
		await store.adapter.createVerificationToken({ identifier: `kitauth:password-reset:password:${userId}`, token: 'hash', expires: new Date(Date.now() + 60_000) });
		await store.adapter.createVerificationToken({ identifier: EMAIL, token: 'magic', expires: new Date(Date.now() + 60_000) });
		const elsewhere = await signedIn(s);
		const browser = await signedIn(s);
		const res = await deleteAccount(browser);
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({ deleted: true });
		expect(sessionCookiesCleared(res)).not.toEqual([]);
		expect(deleted).toEqual([userId]);
		expect(await browser.session()).toBeNull();
		expect(await elsewhere.session()).toBeNull();
		for (const [table, column] of [['user', 'id'], ['session', 'userId'], ['account', 'userId'], ['password', 'userId']] as const) {
			expect(await count(table, column, userId)).toBe(0);
		}
		expect(Number((await store.db.execute('SELECT count(*) AS n FROM "verificationToken"')).rows[0]!['n'])).toBe(0);
		expect(await canSignIn(s, OLD)).toBe(false);
	});

	test('without a recent sign-in: refused (403, reauthenticate) unless the current password is given', async () => {
		const s = app();
		await account(s);
		const browser = await signedIn(s);
		await signInLongAgo();
		const refused = await deleteAccount(browser);
		expect(refused.status).toBe(403);
		expect(await refused.json()).toMatchObject({ failed: true, reauthenticate: true });
		expect((await deleteAccount(browser, { currentPassword: 'a wrong password here' })).status).toBe(403);
		expect(await store.users()).toHaveLength(1);
		expect(deleted).toEqual([]);
		expect((await deleteAccount(browser, { currentPassword: OLD })).status).toBe(200);
		expect(await store.users()).toEqual([]);
	});

	test('JWT sessions: the other browsers stop opening too', async () => {
		const s = app({}, { session: { strategy: 'jwt' } });
		await account(s);
		const elsewhere = await signedIn(s);
		const browser = await signedIn(s);
		const res = await deleteAccount(browser);
		expect(res.status).toBe(200);
		expect(sessionCookiesCleared(res)).not.toEqual([]);
		expect(await elsewhere.session()).toBeNull();
	});

	test('signed out: 401, nothing deleted', async () => {
		const s = app();
		await account(s);
		expect((await deleteAccount(s.client(), { currentPassword: OLD })).status).toBe(401);
		expect(await store.users()).toHaveLength(1);
	});
});

test('recentSignIn is false or whole seconds from 1 to 3600', () => {
	for (const recentSignIn of [0, 1.5, 3601, -5, Number.NaN]) expect(() => Password({ recentSignIn })).toThrow(TypeError);
	expect(Password({ recentSignIn: 3600 }).password?.recentSignIn).toBe(3600);
	expect(Password().password?.recentSignIn).toBe(false);
});
