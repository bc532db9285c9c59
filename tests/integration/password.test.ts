/**
 * The `Password()` provider through `Auth()` on a real libSQL database: sign-up, sign-in, the same
 * answers for known and unknown addresses, the password rules, the hash upgrade at sign-in and the
 * limiter's credentials budget.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { MissingAdapterMethods } from '../../src/lib/core/errors.js';
import { decodeScrypt, scryptHasher } from '../../src/lib/core/passwords/hash.js';
import type { PasswordHasher } from '../../src/lib/core/types/password.js';
import Password, { type PasswordUserConfig } from '../../src/lib/providers/password.js';
import { dbSetup, openStore, type Store } from './database-fixtures.js';
import { ORIGIN, location, setup, type Setup } from './fixtures.js';

const FAST = scryptHasher({ N: 2 ** 10, r: 8, p: 1 });
const PASSWORD = 'correct horse battery staple';
const SIGNIN_PAGE = `${ORIGIN}/auth/signin`;

let store: Store;
beforeEach(async () => {
	store = await openStore('memory');
});
afterEach(() => store.close());

function app(config: PasswordUserConfig = {}, overrides: Parameters<typeof dbSetup>[1] = {}): Setup {
	return dbSetup(store, { providers: [Password({ hasher: FAST, ...config })], ...overrides });
}

const signUp = (s: Setup, email: string, password: string, extra: Record<string, string> = {}) =>
	s.client().postForm('signup/password', { email, password, ...extra });
const signIn = (s: Setup, email: string, password: string) => s.client().signInWithCredentials('password', { email, password, callbackUrl: '/home' });

async function storedHash(email: string): Promise<string | undefined> {
	return (await store.adapter.getPasswordUser?.(email))?.passwordHash;
}

describe('sign-up', () => {
	test('creates the user with a scrypt hash and sends them to the sign-in page; then they sign in (database session)', async () => {
		const s = app();
		const res = await signUp(s, ' New@Example.com ', PASSWORD, { name: 'Newt', callbackUrl: '/home' });
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(`${SIGNIN_PAGE}?callbackUrl=${encodeURIComponent(`${ORIGIN}/home`)}`);
		expect(await store.users()).toMatchObject([{ email: 'new@example.com', name: 'Newt', emailVerified: null }]);
		expect(await storedHash('new@example.com')).toMatch(/^\$scrypt-sha256\$ln=10,r=8,p=1\$/);

		const client = s.client();
		const signedIn = await client.signInWithCredentials('password', { email: 'new@example.com', password: PASSWORD, callbackUrl: '/home' });
		expect(signedIn.headers.get('location')).toBe(`${ORIGIN}/home`);
		expect(await client.session()).toMatchObject({ user: { email: 'new@example.com', name: 'Newt' } });
		expect(await store.sessions()).toHaveLength(1);
	});

	test('with JWT sessions too', async () => {
		const s = app({}, { session: { strategy: 'jwt' } });
		await signUp(s, 'jwt@example.com', PASSWORD);
		const client = s.client();
		await client.signInWithCredentials('password', { email: 'jwt@example.com', password: PASSWORD });
		expect(await client.session()).toMatchObject({ user: { email: 'jwt@example.com' } });
	});

	test('an address already registered gets the same answer, and its account is left as it was', async () => {
		const s = app();
		const fresh = await signUp(s, 'owner@example.com', PASSWORD);
		const again = await signUp(s, 'owner@example.com', 'attacker chosen password');
		expect(again.status).toBe(fresh.status);
		expect(again.headers.get('location')).toBe(fresh.headers.get('location'));
		expect(await again.text()).toBe(await fresh.text());
		expect(await store.users()).toHaveLength(1);
		expect((await signIn(s, 'owner@example.com', 'attacker chosen password')).headers.get('location')).toContain('error=CredentialsSignin');
		expect((await signIn(s, 'owner@example.com', PASSWORD)).headers.get('location')).toBe(`${ORIGIN}/home`);
	});

	test('GET signup/<id> is the built-in page: a form posting email and a new password with the CSRF token', async () => {
		const res = await app().client().get('signup/password', { query: { callbackUrl: '/home' } });
		expect(res.status).toBe(200);
		const html = await res.text();
		expect(html).toContain('action="http://localhost:3000/auth/signup/password"');
		expect(html).toContain('autocomplete="new-password"');
		expect(html).toMatch(/name="csrfToken" value="[0-9a-f]{64}"/);
		expect(html).toContain('name="callbackUrl" value="http://localhost:3000/home"');
	});

	test('the built-in sign-in page links to it, and to "forgot your password?" where resets are offered', async () => {
		const plain = await (await app().client().get('signin')).text();
		expect(plain).toContain('<a href="http://localhost:3000/auth/signup/password">Create an account</a>');
		expect(plain).not.toContain('forgot-password');
		const withReset = await (await app({ sendPasswordReset: () => {} }).client().get('signin')).text();
		expect(withReset).toContain('<a href="http://localhost:3000/auth/forgot-password/password">Forgot your password?</a>');
		const others = await (await setup().client().get('signin')).text();
		expect(others).not.toContain('Create an account');
	});

	test.each([
		['too short', 'x7#kq2p', 'This password is too short.'],
		['too long', 'x'.repeat(129), 'This password is too long.'],
		['common', 'password1234', 'This password is too common'],
		['missing', '', 'This password is too short.']
	])('a password %s is refused with its reason on the sign-up page (400), and nothing is stored', async (_label, password, message) => {
		const res = await signUp(app(), 'rules@example.com', password);
		expect(res.status).toBe(400);
		const html = await res.text();
		expect(html).toContain(message);
		expect(html).toContain('value="rules@example.com"');
		expect(html).not.toContain(password || 'never');
		expect(await store.users()).toEqual([]);
	});

	test('a raised minimum length applies', async () => {
		const res = await signUp(app({ minLength: 30 }), 'long@example.com', PASSWORD);
		expect(await res.text()).toContain('This password is too short.');
	});

	test.each([['not an address'], ['two@at@example.com'], ['a@example.com, b@example.com'], ['']])('an unusable address (%s) is refused', async (email) => {
		const res = await signUp(app(), email, PASSWORD);
		expect(res.status).toBe(400);
		expect(await res.text()).toContain('Enter one email address');
		expect(await store.users()).toEqual([]);
	});

	test('needs the CSRF token, and a password provider (any other is a 404)', async () => {
		const s = app();
		const client = s.client();
		const noToken = await client.post('signup/password', { form: { email: 'x@example.com', password: PASSWORD } });
		expect(noToken.status).toBeGreaterThanOrEqual(300);
		expect(await store.users()).toEqual([]);
		const other = dbSetup(store, { providers: [Password({ hasher: FAST }), { id: 'plain', name: 'Plain', type: 'credentials', credentials: {}, authorize: () => null }] });
		expect((await other.client().postForm('signup/plain', { email: 'x@example.com', password: PASSWORD })).status).toBe(404);
		expect((await other.client().postForm('signup/nothing', { email: 'x@example.com', password: PASSWORD })).status).toBe(404);
	});
});

describe('sign-in', () => {
	test('a wrong password and an unknown address get the same answer', async () => {
		const s = app();
		await signUp(s, 'known@example.com', PASSWORD);
		const wrong = await signIn(s, 'known@example.com', 'not the password');
		const unknown = await signIn(s, 'nobody@example.com', PASSWORD);
		expect(wrong.status).toBe(302);
		expect(unknown.status).toBe(wrong.status);
		expect(unknown.headers.get('location')).toBe(wrong.headers.get('location'));
		expect(location(wrong).searchParams.get('error')).toBe('CredentialsSignin');
		expect(await store.sessions()).toEqual([]);
	});

	test('an unknown address costs a hash too (the decoy), as a known one does', async () => {
		const verified: string[] = [];
		const counting: PasswordHasher = {
			hash: (password) => FAST.hash(password),
			verify: async (password, hash) => {
				verified.push(hash);
				return FAST.verify(password, hash);
			},
			needsRehash: (hash) => FAST.needsRehash(hash)
		};
		const s = app({ hasher: counting });
		await signIn(s, 'nobody@example.com', PASSWORD);
		await signIn(s, 'not an address', PASSWORD);
		expect(verified).toHaveLength(2);
		expect(verified.every((hash) => decodeScrypt(hash) !== undefined)).toBe(true);
	});

	test('the address is matched as sign-up stored it (case and spacing), the password exactly (NFKC aside)', async () => {
		const s = app();
		await signUp(s, 'case@example.com', 'Zoe\u0308 is my name');
		expect((await signIn(s, ' CASE@Example.com', 'Zoë is my name')).headers.get('location')).toBe(`${ORIGIN}/home`);
		expect((await signIn(s, 'case@example.com', 'zoë is my name')).headers.get('location')).toContain('error=CredentialsSignin');
		expect((await signIn(s, 'case@example.com', 'Zoë is my name ')).headers.get('location')).toContain('error=CredentialsSignin');
	});

	test('a hash made with older parameters is replaced at the next sign-in, and still opens', async () => {
		await signUp(app(), 'old@example.com', PASSWORD);
		const before = await storedHash('old@example.com');
		expect(decodeScrypt(before!)?.params.N).toBe(2 ** 10);
		const stronger = app({ hasher: scryptHasher({ N: 2 ** 11, r: 8, p: 1 }) });
		expect((await signIn(stronger, 'old@example.com', PASSWORD)).headers.get('location')).toBe(`${ORIGIN}/home`);
		const after = await storedHash('old@example.com');
		expect(decodeScrypt(after!)?.params.N).toBe(2 ** 11);
		expect((await signIn(stronger, 'old@example.com', PASSWORD)).headers.get('location')).toBe(`${ORIGIN}/home`);
		expect(await storedHash('old@example.com')).toBe(after);
	});

	test('a wrong password does not rehash', async () => {
		await signUp(app(), 'keep@example.com', PASSWORD);
		const before = await storedHash('keep@example.com');
		await signIn(app({ hasher: scryptHasher({ N: 2 ** 11, r: 8, p: 1 }) }), 'keep@example.com', 'wrong password!');
		expect(await storedHash('keep@example.com')).toBe(before);
	});

	test("the limiter's credentials budget applies per account", async () => {
		const s = app({}, { rateLimit: { rules: { credentials: { account: { freeAttempts: 2, delay: 0, maxDelay: 0, limit: 3, window: 600 } } } } });
		await signUp(s, 'target@example.com', PASSWORD);
		const answers = [];
		for (let i = 0; i < 4; i++) answers.push((await signIn(s, 'target@example.com', `wrong password ${i}`)).status);
		expect(answers.slice(0, 3)).toEqual([302, 302, 302]);
		expect(answers[3]).toBe(429);
	});
});

describe('configuration', () => {
	test('an adapter without the password methods is refused at start-up', async () => {
		const { getPasswordUser: _get, ...adapter } = store.adapter;
		const s = setup({ adapter, providers: [Password({ hasher: FAST })] });
		await s.client().get('providers');
		expect(s.errors.some((error) => error instanceof MissingAdapterMethods)).toBe(true);
	});

	test.each([[{ minLength: 6 }], [{ maxLength: 64 }]])('rules below ASVS are refused (%o)', (rules) => {
		expect(() => Password(rules)).toThrow(TypeError);
	});
});
