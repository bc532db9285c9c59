/**
 * The limiter through the real core (the server API, credentials and passkey flows, the limiter
 * on with its default budgets, an injected clock) for people who share an address and owners under
 * attack. Found in a fresh app: ten correct sign-ins from one address locked that address out for
 * ten minutes (successes used up the address budget), and wrong passwords from ~11 addresses
 * locked an account for an hour, its owner's right password included.
 *
 * Required: successes use up no budget; the address budget counts failures; a browser that signed
 * in to an account before (the device cookie) is not held by that account's hard limit, or by its
 * address's budget, but by a budget of its own; a passkey sign-in is not held by a hard limit; a
 * device cookie that is not valid for the account is ignored, never an error.
 */
import { describe, expect, test } from 'vitest';
import { DEFAULT_RULES } from '../../src/lib/core/limit/defaults.js';
import type { AccountRule, AddressRule } from '../../src/lib/core/types/limit.js';
import Credentials from '../../src/lib/providers/credentials.js';
import { createAuthServer } from '../../src/lib/core/index.js';
import { setCookies, TestClient } from '../support/client.js';
import { location, sessionCookiesSet } from './fixtures.js';
import { limitedApp } from './limit-app.js';
import { authenticate, authenticator, passkeySetup, register } from './passkey-fixtures.js';

const LIMIT = (DEFAULT_RULES.credentials.address as AddressRule).limit;
const ACCOUNT = DEFAULT_RULES.credentials.account as AccountRule;
const DEVICE = 'authjs.device';
const OFFICE = '203.0.113.10';

/** Anyone may sign in: the password of `name` is `right-<name>`. */
const people = Credentials({
	credentials: { username: { label: 'Username' }, password: { label: 'Password', type: 'password' } },
	authorize: ({ username, password }) =>
		typeof username === 'string' && password === `right-${username}` ? { id: `id-${username}`, name: username, email: `${username}@example.com` } : null
});

function app(origin?: string) {
	return limitedApp({ providers: [people] }, origin);
}

const signIn = (browser: TestClient, name: string) => browser.signInWithCredentials('credentials', { username: name, password: `right-${name}` });
const fail = (browser: TestClient, name: string) => browser.signInWithCredentials('credentials', { username: name, password: 'wrong' });

/** A signed-in answer: a redirect with a session cookie. */
function expectSignedIn(res: Response, what: string): void {
	expect(res.status, what).toBe(302);
	expect(location(res).searchParams.get('error'), what).toBeNull();
	expect(sessionCookiesSet(res), what).toHaveLength(1);
}

/** Wrong passwords for `name` from a new address each, waiting out the delays, until the hard limit holds. */
async function hardLock(a: ReturnType<typeof app>, name: string): Promise<void> {
	for (let i = 0; i < 500; i++) {
		const res = await fail(a.client(`198.51.${i >> 8}.${i & 255}`), name);
		const wait = Number(res.headers.get('retry-after') ?? 0);
		if (res.status === 429 && wait > ACCOUNT.maxDelay) return;
		a.later(wait);
	}
	throw new Error('never locked');
}

describe('many people behind one address', () => {
	test('200 correct sign-ins from one address in a few minutes all go through', async () => {
		const a = app();
		for (let i = 0; i < 200; i++) {
			expectSignedIn(await signIn(a.client(OFFICE), `person${i % 50}`), `sign-in ${i + 1}`);
			a.later(1);
		}
	});

	test('20 colleagues each sign in while an attacker fails from the same address; once it spends the budget their known browsers still get in, new ones do not', async () => {
		const a = app();
		const attacker = a.client(OFFICE);
		const colleagues = Array.from({ length: 20 }, (_, i) => ({ name: `colleague${i}`, browser: a.client(OFFICE) }));
		let failures = 0;
		for (const { name, browser } of colleagues) {
			for (let i = 0; i < 4; i++, failures++) expect((await fail(attacker, `target${failures}`)).status).toBe(302);
			expectSignedIn(await signIn(browser, name), name);
		}
		while (failures < LIMIT) expect((await fail(attacker, `target${failures++}`)).status).toBe(302);
		expect((await fail(attacker, 'one-more')).status).toBe(429);
		expect((await signIn(a.client(OFFICE), 'newcomer')).status).toBe(429);
		for (const { name, browser } of colleagues) expectSignedIn(await signIn(browser, name), `${name}, again`);
	});
});

describe('an account under attack from many addresses', () => {
	test('hard-locked: its owner signs in from a browser they used before, and is refused from a new one', async () => {
		const a = app();
		const laptop = a.client('192.0.2.20');
		expectSignedIn(await signIn(laptop, 'owner'), 'first sign-in');
		expect(laptop.cookie(DEVICE)).toBeTruthy();
		await hardLock(a, 'owner');
		expectSignedIn(await signIn(laptop, 'owner'), 'the known browser');
		const phone = await signIn(a.client('192.0.2.21'), 'owner');
		expect(phone.status).toBe(429);
		expect(Number(phone.headers.get('retry-after'))).toBeGreaterThan(ACCOUNT.maxDelay);
		expect(sessionCookiesSet(phone)).toEqual([]);
	});

	test('a stolen device cookie is held by its own budget, and leaves the account’s alone', async () => {
		const a = app();
		const laptop = a.client('192.0.2.20');
		expectSignedIn(await signIn(laptop, 'owner'), 'first sign-in');
		const thief = a.client('198.51.100.200');
		thief.jar.set(DEVICE, laptop.jar.get(DEVICE)!);
		const statuses: number[] = [];
		for (let i = 0; i <= ACCOUNT.freeAttempts; i++) statuses.push((await fail(thief, 'owner')).status);
		expect(statuses).toEqual([...Array(ACCOUNT.freeAttempts).fill(302), 429]);
		// Its failures were not the account's: a browser without the cookie may still try.
		expect((await fail(a.client('198.51.100.201'), 'owner')).status).toBe(302);
	});

	test('a forged, tampered, expired, malformed or other account’s device cookie gives no way past the lock, and is no error', async () => {
		const a = app();
		const laptop = a.client('192.0.2.20');
		expectSignedIn(await signIn(laptop, 'owner'), 'owner');
		const genuine = laptop.cookie(DEVICE)!;
		const others = a.client('192.0.2.30');
		expectSignedIn(await signIn(others, 'someone-else'), 'someone else');
		await hardLock(a, 'owner');
		const [nonce, issued, mac] = genuine.split('.') as [string, string, string];
		// Always a different value: a random MAC or nonce may already end in what a fixed suffix writes.
		const tamper = (text: string) => `${text[0] === 'A' ? 'B' : 'A'}${text.slice(1)}`;
		const forged = [
			others.cookie(DEVICE)!,
			`${nonce}.${issued}.${tamper(mac)}`,
			`${tamper(nonce)}.${issued}.${mac}`,
			`${nonce}.${Number(issued) - 366 * 86400}.${mac}`,
			'garbage',
			'~'.repeat(300),
			'%E0%A4%A',
			'x'.repeat(4000)
		];
		for (const value of forged) {
			const browser = a.client('192.0.2.40');
			browser.setCookie(DEVICE, value);
			const res = await signIn(browser, 'owner');
			expect(res.status, value.slice(0, 30)).toBe(429);
			// An account nobody attacked: the same cookie is simply not looked at.
			const fresh = a.client('192.0.2.41');
			fresh.setCookie(DEVICE, value);
			expectSignedIn(await signIn(fresh, 'bystander'), value.slice(0, 30));
		}
		expectSignedIn(await signIn(laptop, 'owner'), 'the genuine cookie still works');
	});

	test('a passkey sign-in is not held by the hard limit the account’s passwords are under', async () => {
		let now = Date.UTC(2026, 10, 24, 12);
		const s = await passkeySetup('database', { rateLimit: { now: () => now } });
		const server = createAuthServer(s.config, { env: {} });
		const browser = (address: string) => new TestClient((request) => server.handle(request, { clientAddress: address }), { origin: s.client().origin });
		const key = authenticator();
		expect((await register(browser('192.0.2.50'), key, { email: 'pat@example.com' })).status).toBe(302);
		// The password provider counts `username`: lock it for Pat's address.
		for (let i = 0; i < 500; i++) {
			const res = await browser(`198.51.${i >> 8}.${i & 255}`).signInWithCredentials('credentials', { username: 'pat@example.com', password: 'wrong' });
			const wait = Number(res.headers.get('retry-after') ?? 0);
			if (res.status === 429 && wait > ACCOUNT.maxDelay) break;
			now += wait * 1000;
		}
		const locked = await browser('192.0.2.51').signInWithCredentials('credentials', { username: 'pat@example.com', password: 'wrong' });
		expect(locked.status).toBe(429);
		const res = await authenticate(browser('192.0.2.51'), key);
		expect(res.status, s.errors.map((e) => e.message).join('; ')).toBe(302);
		expect(location(res).searchParams.get('error')).toBeNull();
		expect(sessionCookiesSet(res)).toHaveLength(1);
	});
});

describe('the device cookie', () => {
	test('set by a successful sign-in only: HttpOnly, SameSite=Lax, Path=/, a year; __Host- on https; neither the name nor its hash in it', async () => {
		for (const origin of ['http://localhost:3000', 'https://app.example']) {
			const a = app(origin);
			const browser = a.client();
			expect(setCookies(await fail(browser, 'alice')).some((cookie) => cookie.name.endsWith(DEVICE))).toBe(false);
			const res = await signIn(browser, 'alice');
			const [cookie, ...more] = setCookies(res).filter((c) => c.name.endsWith(DEVICE));
			expect(more).toEqual([]);
			expect(cookie!.name).toBe(origin.startsWith('https:') ? `__Host-${DEVICE}` : DEVICE);
			expect(cookie!.attributes).toMatchObject({ httponly: true, samesite: 'Lax', path: '/', 'max-age': '31536000' });
			expect(cookie!.attributes.domain).toBeUndefined();
			expect(Boolean(cookie!.attributes.secure)).toBe(origin.startsWith('https:'));
			expect(decodeURIComponent(cookie!.value)).toMatch(/^[\w-]{22}\.\d+\.[\w-]{43}$/);
			expect(cookie!.value).not.toMatch(/alice/i);
		}
	});

	test('not set with the limiter off', async () => {
		const a = limitedApp({ providers: [people], rateLimit: false });
		const res = await signIn(a.client(), 'alice');
		expectSignedIn(res, 'alice');
		expect(setCookies(res).map((c) => c.name)).not.toContain(DEVICE);
	});

	test('reaches the server API’s sign-in (the SvelteKit form action’s path) with the session cookie', async () => {
		const a = app();
		const request = new Request('http://localhost:3000/login', { method: 'POST' });
		const fields = { username: 'alice', password: 'right-alice' };
		const outcome = await a.server.signIn({ url: new URL(request.url), request, clientAddress: OFFICE }, 'credentials', { fields });
		const names = outcome.cookies.map((cookie) => cookie.name);
		expect(names).toContain('authjs.session-token');
		expect(names).toContain(DEVICE);
		const device = outcome.cookies.find((cookie) => cookie.name === DEVICE)!;
		expect(device.options).toMatchObject({ httpOnly: true, sameSite: 'lax', path: '/', maxAge: 31_536_000 });
		// Presented back (the browser's next form post), it is the known browser's.
		await hardLock(a, 'alice');
		const again = new Request('http://localhost:3000/login', { method: 'POST', headers: { cookie: `${DEVICE}=${encodeURIComponent(device.value)}` } });
		const known = await a.server.signIn({ url: new URL(again.url), request: again, clientAddress: OFFICE }, 'credentials', { fields });
		expect(known.cookies.map((cookie) => cookie.name)).toContain('authjs.session-token');
	});
});
