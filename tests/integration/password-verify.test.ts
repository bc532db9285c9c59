/**
 * Confirming a new account's address (`Password({ sendSignUpEmail })`) through `Auth()` on a real
 * libSQL database: sign-up answers the same for free and taken addresses and the message says
 * which; the link confirms once (50 parallel uses: one wins), for its user and purpose only, not
 * after it expired; the sign-in policy.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { scryptHasher } from '../../src/lib/core/passwords/hash.js';
import type { SignUpEmailRequest } from '../../src/lib/core/types/provider.js';
import Password, { signUpMessage, type PasswordUserConfig } from '../../src/lib/providers/password.js';
import { dbSetup, openStore, type Store } from './database-fixtures.js';
import { ORIGIN, location, type Setup } from './fixtures.js';

const FAST = scryptHasher({ N: 2 ** 10, r: 8, p: 1 });
const PASSWORD = 'correct horse battery staple';

let store: Store;
let sent: SignUpEmailRequest[];
let onSend: (() => void) | undefined;
beforeEach(async () => {
	store = await openStore('memory');
	sent = [];
});
afterEach(() => store.close());

function app(config: PasswordUserConfig = {}): Setup {
	const sendSignUpEmail = (request: SignUpEmailRequest) => {
		sent.push(request);
		onSend?.();
	};
	return dbSetup(store, { providers: [Password({ hasher: FAST, sendSignUpEmail, ...config })] });
}

/** Signs up and waits for the message (sent after the answer). */
async function signUp(s: Setup, email: string, password = PASSWORD): Promise<{ res: Response; message: SignUpEmailRequest }> {
	const delivered = new Promise<void>((resolve) => (onSend = resolve));
	const res = await s.client().postForm('signup/password', { email, password });
	await delivered;
	return { res, message: sent.at(-1)! };
}

const confirm = (s: Setup, url: string, overrides: Record<string, string> = {}) => {
	const link = new URL(url);
	return s.client().postForm('verify-email/password', { user: link.searchParams.get('user')!, token: link.searchParams.get('token')!, ...overrides });
};
const emailVerified = async (email: string) => (await store.users()).find((user) => user.email === email)?.emailVerified ?? null;
const signIn = (s: Setup, email: string) => s.client().signInWithCredentials('password', { email, password: PASSWORD, callbackUrl: '/home' });

describe('sign-up with messages', () => {
	test('free and taken addresses get the same answer; the message says which', async () => {
		const s = app();
		const { res: fresh, message: first } = await signUp(s, 'ann@example.com');
		const { res: taken, message: second } = await signUp(s, 'ann@example.com', 'another passphrase here');
		expect(fresh.status).toBe(302);
		expect(taken.status).toBe(fresh.status);
		expect(taken.headers.get('location')).toBe(fresh.headers.get('location'));
		expect(fresh.headers.get('location')).toBe(`${ORIGIN}/auth/verify-email/password`);
		expect(first).toMatchObject({ identifier: 'ann@example.com', kind: 'verify-email' });
		expect(second).toMatchObject({ identifier: 'ann@example.com', kind: 'already-registered', url: `${ORIGIN}/auth/signin` });
		expect(await (await s.client().get('verify-email/password')).text()).toContain('If this address can be used');
	});

	test('the link opens a button (using nothing up); its POST confirms the address', async () => {
		const s = app();
		const { message } = await signUp(s, 'bob@example.com');
		const page = await s.client().get(`verify-email/password${new URL(message.url).search}`);
		expect(page.status).toBe(200);
		expect(page.headers.get('referrer-policy')).toBe('strict-origin');
		expect(await emailVerified('bob@example.com')).toBeNull();
		const done = await confirm(s, message.url);
		expect(done.headers.get('location')).toBe(`${ORIGIN}/auth/signin`);
		expect(await emailVerified('bob@example.com')).toEqual(expect.any(Number));
	});

	test('50 uses at once: one confirms, 49 get the Verification page; replayed later: refused', async () => {
		const s = app();
		const { message } = await signUp(s, 'race@example.com');
		const answers = await Promise.all(Array.from({ length: 50 }, () => confirm(s, message.url)));
		expect(answers.filter((res) => res.headers.get('location') === `${ORIGIN}/auth/signin`)).toHaveLength(1);
		expect(answers.filter((res) => location(res).searchParams.get('error') === 'Verification')).toHaveLength(49);
		expect(location(await confirm(s, message.url)).searchParams.get('error')).toBe('Verification');
	});

	test('expired, or for another user: refused, the address stays unconfirmed', async () => {
		const s = app();
		const { message: mine } = await signUp(s, 'mine@example.com');
		const { message: theirs } = await signUp(s, 'theirs@example.com');
		const theirId = new URL(theirs.url).searchParams.get('user')!;
		expect(location(await confirm(s, mine.url, { user: theirId })).searchParams.get('error')).toBe('Verification');
		expect(await emailVerified('theirs@example.com')).toBeNull();
		await store.db.execute(`UPDATE "verificationToken" SET "expires" = ${Date.now() - 1000}`);
		expect(location(await confirm(s, mine.url)).searchParams.get('error')).toBe('Verification');
		expect(await emailVerified('mine@example.com')).toBeNull();
	});

	test('for another purpose: a confirmation token is no reset token, nor a reset token a confirmation', async () => {
		const resets: string[] = [];
		const s = app({ sendPasswordReset: ({ url }) => void resets.push(url) });
		const { message } = await signUp(s, 'purpose@example.com');
		const link = new URL(message.url);
		const asReset = await s.client().postForm('reset-password/password', { user: link.searchParams.get('user')!, token: link.searchParams.get('token')!, password: 'an attacker passphrase' });
		expect(location(asReset).searchParams.get('error')).toBe('Verification');
		await s.client().postForm('forgot-password/password', { email: 'purpose@example.com' });
		await new Promise((resolve) => setImmediate(resolve));
		expect(location(await confirm(s, resets[0]!)).searchParams.get('error')).toBe('Verification');
		expect(await emailVerified('purpose@example.com')).toBeNull();
		expect(location(await confirm(s, message.url)).searchParams.get('error')).toBeNull();
	});
});

describe('the sign-in policy', () => {
	test('by default a new user signs in before confirming', async () => {
		const s = app();
		await signUp(s, 'early@example.com');
		expect((await signIn(s, 'early@example.com')).headers.get('location')).toBe(`${ORIGIN}/home`);
	});

	test('requireVerifiedEmail: refused (email-unverified) until the address is confirmed', async () => {
		const s = app({ requireVerifiedEmail: true });
		const { message } = await signUp(s, 'strict@example.com');
		const refused = await signIn(s, 'strict@example.com');
		expect(location(refused).searchParams.get('code')).toBe('email-unverified');
		await confirm(s, message.url);
		expect((await signIn(s, 'strict@example.com')).headers.get('location')).toBe(`${ORIGIN}/home`);
	});

	test('requireVerifiedEmail without sendSignUpEmail is a configuration error', () => {
		expect(() => Password({ requireVerifiedEmail: true })).toThrow(TypeError);
	});

	test('without sendSignUpEmail the confirmation routes are 404s', async () => {
		const s = dbSetup(store, { providers: [Password({ hasher: FAST })] });
		expect((await s.client().get('verify-email/password')).status).toBe(404);
	});
});

test('signUpMessage says what happened', () => {
	const expires = new Date(Date.now() + 24 * 3600_000);
	expect(signUpMessage({ kind: 'verify-email', url: 'https://app.example.com/auth/verify-email/password?user=u&token=t', expires }).subject).toBe(
		'Confirm your email address for app.example.com'
	);
	const notice = signUpMessage({ kind: 'already-registered', url: 'https://app.example.com/auth/signin', expires });
	expect(notice.text).toContain('already has an account');
});
