/**
 * Confirming a new account's address by the one-time code of its confirmation message, through
 * `Auth()` on a real libSQL database: the code in the message, typed on "check your email" in the
 * browser that signed up (its sealed cookie), marks the address verified as the link does; wrong
 * codes are counted (5 per code, however replayed or raced), a used, expired or foreign code is
 * refused, and hostile bodies get the page again, never a 500.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { scryptHasher } from '../../src/lib/core/passwords/hash.js';
import type { SignUpEmailRequest } from '../../src/lib/core/types/provider.js';
import Email from '../../src/lib/providers/email.js';
import Password, { signUpMessage, type PasswordUserConfig } from '../../src/lib/providers/password.js';
import type { TestClient } from '../support/client.js';
import { dbSetup, openStore, type Store } from './database-fixtures.js';
import { hiddenFields } from './email-fixtures.js';
import { ORIGIN, location, type Setup } from './fixtures.js';

const FAST = scryptHasher({ N: 2 ** 10, r: 8, p: 1 });
const PASSWORD = 'correct horse battery staple';
const CODE_COOKIE = 'authjs.email-verification';
const PAGE = `${ORIGIN}/auth/verify-email/password`;

let store: Store;
let sent: SignUpEmailRequest[];
let verified: string[];
beforeEach(async () => {
	store = await openStore('memory');
	sent = [];
	verified = [];
});
afterEach(() => store.close());

function app(config: PasswordUserConfig = {}, more: Parameters<typeof dbSetup>[1] = {}): Setup {
	return dbSetup(store, {
		providers: [Password({ hasher: FAST, sendSignUpEmail: (request) => void sent.push(request), ...config })],
		events: { updateUser: ({ user }) => void verified.push(user.email ?? '') },
		...more
	});
}

/** Signs up in `client` and waits for the message (sent after the answer). */
async function signUp(client: TestClient, email: string): Promise<{ res: Response; message: SignUpEmailRequest | undefined }> {
	const before = sent.length;
	const res = await client.postForm('signup/password', { email, password: PASSWORD });
	await new Promise((resolve) => setImmediate(resolve));
	return { res, message: sent.length > before ? sent.at(-1) : undefined };
}

/** Types `code` on "check your email": reads the page's code form, posts it. */
async function enterCode(client: TestClient, code: string): Promise<Response> {
	const page = await client.get('verify-email/password');
	const fields = hiddenFields(await page.text());
	return client.post('verify-email/password', { form: { csrfToken: fields.csrfToken ?? (await client.csrfToken()), code } });
}

/** Where "check your email" sent the browser back, and why (`codeError`), or null when confirmed. */
function codeError(res: Response): string | null {
	expect(res.status).toBe(302);
	const url = location(res);
	if (url.href === `${ORIGIN}/auth/signin`) return null;
	expect(url.pathname).toBe('/auth/verify-email/password');
	return url.searchParams.get('codeError');
}

const emailVerified = async (email: string) => (await store.users()).find((user) => user.email === email)?.emailVerified ?? null;
const wrongCode = (code: string) => String((Number(code) + 1) % 100_000_000).padStart(8, '0');

describe('the confirmation code', () => {
	test('the message carries a code; typed in the browser that signed up it verifies the address and uses the link up', async () => {
		const s = app();
		const client = s.client();
		const { res, message } = await signUp(client, 'ann@example.com');
		expect(res.headers.get('location')).toBe(PAGE);
		expect(message?.code).toMatch(/^\d{8}$/);
		const code = message!.code!;
		const mail = signUpMessage({ kind: 'verify-email', url: message!.url, code, expires: message!.expires });
		expect(mail.text).toContain(`${code.slice(0, 4)} ${code.slice(4)}`);
		expect(mail.html).toContain(`<strong>${code.slice(0, 4)} ${code.slice(4)}</strong>`);

		const page = await (await client.get('verify-email/password')).text();
		expect(page).toMatch(/<input[^>]*name="code"/);
		// Another browser sees the plain page: no code field.
		expect(await (await s.client().get('verify-email/password')).text()).not.toMatch(/name="code"/);

		expect(codeError(await enterCode(client, `${code.slice(0, 4)} ${code.slice(4)}`))).toBeNull();
		expect(await emailVerified('ann@example.com')).toEqual(expect.any(Number));
		expect(verified).toEqual(['ann@example.com']);
		expect(client.cookie(CODE_COOKIE)).toBeUndefined();
		// Link and code are one secret: the link is used up too.
		const link = new URL(message!.url);
		const confirm = await s.client().postForm('verify-email/password', { user: link.searchParams.get('user')!, token: link.searchParams.get('token')! });
		expect(location(confirm).searchParams.get('error')).toBe('Verification');
	});

	test('a known and an unknown address: the same answer, a pending code either way', async () => {
		const s = app();
		await signUp(s.client(), 'taken@example.com');
		const fresh = s.client();
		const taken = s.client();
		const first = await signUp(fresh, 'free@example.com');
		const second = await signUp(taken, 'taken@example.com');
		expect(second.res.headers.get('location')).toBe(first.res.headers.get('location'));
		expect(fresh.cookie(CODE_COOKIE)).toBeDefined();
		expect(taken.cookie(CODE_COOKIE)).toBeDefined();
		expect(second.message).toMatchObject({ kind: 'already-registered' });
		expect(second.message?.code).toBeUndefined();
		const pages = await Promise.all([fresh, taken].map(async (client) => (await (await client.get('verify-email/password')).text()).replace(/value="[^"]*"/g, '')));
		expect(pages[1]).toBe(pages[0]);
		// A wrong code for the taken address is counted as any other.
		expect(codeError(await enterCode(taken, '12345678'))).toBe('wrong');
		expect(await (await taken.get('verify-email/password', { query: { codeError: 'wrong' } })).text()).toContain('4 attempts left');
	});

	test('wrong codes are counted; the sixth guess is refused even when right, and the page offers a new message', async () => {
		const s = app();
		const client = s.client();
		const { message } = await signUp(client, 'guess@example.com');
		const code = message!.code!;
		for (let left = 4; left >= 1; left--) {
			expect(codeError(await enterCode(client, wrongCode(code)))).toBe('wrong');
			const page = await (await client.get('verify-email/password', { query: { codeError: 'wrong' } })).text();
			expect(page).toContain(left === 1 ? '1 attempt left' : `${left} attempts left`);
		}
		expect(codeError(await enterCode(client, wrongCode(code)))).toBe('spent');
		expect(client.cookie(CODE_COOKIE)).toBeUndefined();
		const spent = await (await client.get('verify-email/password', { query: { codeError: 'spent' } })).text();
		expect(spent).toContain('can no longer be used');
		expect(spent).toMatch(/<form[^>]*action="[^"]*\/auth\/resend-verification\/password"/);
		expect(codeError(await enterCode(client, code))).toBe('spent');
		expect(await emailVerified('guess@example.com')).toBeNull();
	});

	test('a replayed cookie does not refill the budget: the store keeps it', async () => {
		const s = app();
		const client = s.client();
		const { message } = await signUp(client, 'replay@example.com');
		const first = client.cookie(CODE_COOKIE)!;
		for (let i = 0; i < 5; i++) {
			client.setCookie(CODE_COOKIE, first);
			await enterCode(client, wrongCode(message!.code!));
		}
		client.setCookie(CODE_COOKIE, first);
		expect(codeError(await enterCode(client, message!.code!))).toBe('spent');
		expect(await emailVerified('replay@example.com')).toBeNull();
	});

	test('replayed after it confirmed: refused', async () => {
		const s = app();
		const client = s.client();
		const { message } = await signUp(client, 'again@example.com');
		const cookie = client.cookie(CODE_COOKIE)!;
		expect(codeError(await enterCode(client, message!.code!))).toBeNull();
		client.setCookie(CODE_COOKIE, cookie);
		expect(codeError(await enterCode(client, message!.code!))).toBe('spent');
		expect(verified).toEqual(['again@example.com']);
	});

	test("another account's code, or its cookie in another browser: refused", async () => {
		const s = app();
		const mine = s.client();
		const theirs = s.client();
		const { message: myMessage } = await signUp(mine, 'mine@example.com');
		const { message: theirMessage } = await signUp(theirs, 'theirs@example.com');
		expect(codeError(await enterCode(mine, theirMessage!.code!))).toBe('wrong');
		// Their cookie in a third browser confirms their address only, never mine, with my code.
		const third = s.client();
		third.setCookie(CODE_COOKIE, theirs.cookie(CODE_COOKIE)!);
		expect(codeError(await enterCode(third, myMessage!.code!))).toBe('wrong');
		expect(await emailVerified('mine@example.com')).toBeNull();
		expect(await emailVerified('theirs@example.com')).toBeNull();
	});

	test("another purpose: an email sign-in's pending code and its right code confirm nothing", async () => {
		const mails: { identifier: string; code?: string }[] = [];
		const s = app({}, {
			providers: [
				Password({ hasher: FAST, sendSignUpEmail: (request) => void sent.push(request) }),
				Email({ id: 'email', code: true, sendVerificationRequest: ({ identifier, code }) => void mails.push({ identifier, code }) })
			]
		});
		const signer = s.client();
		await signUp(signer, 'both@example.com');
		const client = s.client();
		await client.postForm('signin/email', { email: 'both@example.com' });
		const { code } = mails.at(-1)!;
		expect(code).toMatch(/^\d{8}$/);
		expect(client.cookie(CODE_COOKIE)).toBeDefined();
		expect(await (await client.get('verify-email/password')).text()).not.toMatch(/name="code"/);
		expect(codeError(await client.postForm('verify-email/password', { code: code! }))).toBe('spent');
		// And a link's token (a reset's has the same shape) typed as a code is no code at all.
		expect(codeError(await signer.postForm('verify-email/password', { code: 'a'.repeat(64) }))).toBe('wrong');
		expect(await emailVerified('both@example.com')).toBeNull();
	});

	test('50 right codes at once: one confirms, one verification event', async () => {
		const s = app();
		const client = s.client();
		const { message } = await signUp(client, 'race@example.com');
		const csrfToken = await client.csrfToken();
		const answers = await Promise.all(Array.from({ length: 50 }, () => client.post('verify-email/password', { form: { csrfToken, code: message!.code! } })));
		expect(answers.every((res) => res.status === 302 || res.status === 429)).toBe(true);
		expect(answers.filter((res) => res.headers.get('location') === `${ORIGIN}/auth/signin`)).toHaveLength(1);
		expect(verified).toEqual(['race@example.com']);
	});

	test('expired: refused, the address stays unconfirmed', async () => {
		const s = app();
		const client = s.client();
		const { message } = await signUp(client, 'late@example.com');
		await store.db.execute(`UPDATE "verificationToken" SET "expires" = ${Date.now() - 1000}`);
		expect(codeError(await enterCode(client, message!.code!))).toBe('spent');
		expect(await emailVerified('late@example.com')).toBeNull();
	});

	test('resend: a new code (the old one gone with the cookie), the same answer for every address', async () => {
		const s = app();
		const client = s.client();
		const { message } = await signUp(client, 'resend@example.com');
		const res = await client.postForm('resend-verification/password', { email: 'resend@example.com' });
		expect(res.headers.get('location')).toBe(PAGE);
		await new Promise((resolve) => setImmediate(resolve));
		const fresh = sent.at(-1)!;
		expect(fresh.code).toMatch(/^\d{8}$/);
		expect(fresh.code).not.toBe(message!.code);
		const nobody = s.client();
		const unknown = await nobody.postForm('resend-verification/password', { email: 'nobody@example.com' });
		expect(unknown.headers.get('location')).toBe(PAGE);
		expect(nobody.cookie(CODE_COOKIE)).toBeDefined();
		expect(codeError(await enterCode(client, fresh.code!))).toBeNull();
		expect(await emailVerified('resend@example.com')).toEqual(expect.any(Number));
	});

	test('hostile bodies: the page again or a 4xx, never a 500', async () => {
		const s = app();
		const client = s.client();
		await signUp(client, 'hostile@example.com');
		const csrfToken = await client.csrfToken();
		for (const code of ['', 'abcdefgh', '1234', '1'.repeat(10_000), '１２３４５６７８', '12345678\u0000']) {
			const res = await client.post('verify-email/password', { form: { csrfToken, code } });
			expect(res.status, JSON.stringify(code.slice(0, 20))).toBe(302);
			expect(codeError(res)).toBe('wrong');
		}
		const missing = await client.post('verify-email/password', { form: { csrfToken } });
		expect(missing.status).toBeLessThan(500);
		expect(location(missing).searchParams.get('error')).toBe('Verification');
		const noCsrf = await client.post('verify-email/password', { form: { code: '12345678' } });
		expect(noCsrf.status).toBeGreaterThanOrEqual(300);
		expect(noCsrf.status).toBeLessThan(500);
		expect(await emailVerified('hostile@example.com')).toBeNull();
	});
});

describe('a confirmation message that cannot be sent', () => {
	test('is logged without its link or its code', async () => {
		let failed: SignUpEmailRequest | undefined;
		const s = app({
			sendSignUpEmail: (request) => {
				failed = request;
				throw new Error(`SMTP 554 refused the message for ${request.url} (code ${request.code})`);
			}
		});
		await signUp(s.client(), 'cai@example.com');
		await new Promise((resolve) => setImmediate(resolve));
		expect(failed?.code).toMatch(/^\d{8}$/);
		expect(s.errors.map((error) => error.message)).toEqual(['Sending a sign-up message failed: SMTP 554 refused the message for [redacted] (code [redacted])']);
	});
});
