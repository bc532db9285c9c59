/**
 * The limiter wired into the flows, through the real core: credentials callbacks and OAuth starts
 * are counted per client address and per account; refusals answer 429 with `Retry-After` (the
 * built-in sign-in page saying so, JSON for API clients) and grant no session; the clock is
 * injected, so limits are hit and recovered without sleeping.
 */
import { describe, expect, test } from 'vitest';
import { createAuthServer } from '../../src/lib/core/index.js';
import { signInMessage } from '../../src/lib/shared/messages.js';
import { DEFAULT_RULES } from '../../src/lib/core/limit/defaults.js';
import type { AddressRule, LimitStore } from '../../src/lib/core/types/limit.js';
import { TestClient } from '../support/client.js';
import { ALICE_LOGIN, ORIGIN, passwordProvider, SECRET, sessionCookiesSet } from './fixtures.js';
import { limitedApp } from './limit-app.js';

const WRONG = { username: 'alice', password: 'not-it' };

const app = limitedApp;
/** The default address budget of credentials: failures per 10 minutes. */
const LIMIT = (DEFAULT_RULES.credentials.address as AddressRule).limit;

describe('credentials: per client address', () => {
	test('one failure over the budget in 10 minutes from one address is refused (429, Retry-After, the page says so); the window passing lets it through', async () => {
		const { client, later, events } = app();
		const browser = client();
		for (let attempt = 1; attempt <= LIMIT; attempt++) {
			const res = await browser.signInWithCredentials('credentials', { ...WRONG, username: `user${attempt}` });
			expect(res.status, `attempt ${attempt}`).toBe(302);
		}
		const refused = await browser.signInWithCredentials('credentials', { ...ALICE_LOGIN });
		expect(refused.status).toBe(429);
		expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
		expect(sessionCookiesSet(refused)).toEqual([]);
		const html = await refused.text();
		expect(html).toContain('Too many attempts');
		expect(events).toEqual([expect.objectContaining({ kind: 'credentials', scope: 'address' })]);
		// Another address is not affected.
		expect((await client('198.51.100.9').signInWithCredentials('credentials', { ...ALICE_LOGIN })).status).toBe(302);

		later(10 * 60 + 1);
		const recovered = await browser.signInWithCredentials('credentials', { ...ALICE_LOGIN });
		expect(recovered.status).toBe(302);
		expect(sessionCookiesSet(recovered)).toHaveLength(1);
	});

	test('IPv6 addresses rotated inside one /64 share one budget; another /64 has its own', async () => {
		const { client } = app();
		for (let attempt = 1; attempt <= LIMIT; attempt++) {
			const res = await client(`2001:db8:1:2::${attempt.toString(16)}`).signInWithCredentials('credentials', { ...WRONG, username: `u${attempt}` });
			expect(res.status).toBe(302);
		}
		expect((await client('2001:db8:1:2:ffff::1').signInWithCredentials('credentials', { ...ALICE_LOGIN })).status).toBe(429);
		expect((await client('2001:db8:1:3::1').signInWithCredentials('credentials', { ...ALICE_LOGIN })).status).toBe(302);
	});

	test('a forged X-Forwarded-For is ignored unless the app declares the header; declared, it names the client', async () => {
		const plain = app();
		for (let attempt = 1; attempt <= LIMIT; attempt++) {
			const forged = plain.client('203.0.113.7', { 'x-forwarded-for': `192.0.2.${attempt}` });
			expect((await forged.signInWithCredentials('credentials', { ...WRONG, username: `u${attempt}` })).status).toBe(302);
		}
		const forged = plain.client('203.0.113.7', { 'x-forwarded-for': '192.0.2.200' });
		expect((await forged.signInWithCredentials('credentials', { ...ALICE_LOGIN })).status).toBe(429);

		const proxied = app({ rateLimit: { clientAddress: { header: 'x-forwarded-for' } } });
		for (let attempt = 1; attempt <= LIMIT; attempt++) {
			// Behind the app's own proxy: every request arrives from the proxy, each client named by the header.
			const viaProxy = proxied.client('10.0.0.1', { 'x-forwarded-for': `192.0.2.${attempt}` });
			expect((await viaProxy.signInWithCredentials('credentials', { ...WRONG, username: `u${attempt}` })).status).toBe(302);
		}
		const another = proxied.client('10.0.0.1', { 'x-forwarded-for': '192.0.2.200' });
		expect((await another.signInWithCredentials('credentials', { ...ALICE_LOGIN })).status).toBe(302);
	});
});

describe('credentials: per account', () => {
	test('guesses at one account from many addresses are slowed after the free attempts; the owner signing in clears the count', async () => {
		const { client, later } = app();
		for (let attempt = 1; attempt <= 5; attempt++) {
			expect((await client(`198.51.100.${attempt}`).signInWithCredentials('credentials', WRONG)).status).toBe(302);
		}
		const slowed = await client('198.51.100.50').signInWithCredentials('credentials', WRONG);
		expect(slowed.status).toBe(429);
		const wait = Number(slowed.headers.get('retry-after'));
		expect(wait).toBeGreaterThanOrEqual(1);

		later(wait);
		// After the delay the account may be tried again — by its owner, whose success starts over.
		expect((await client('198.51.100.60').signInWithCredentials('credentials', { ...ALICE_LOGIN })).status).toBe(302);
		for (let attempt = 1; attempt <= 5; attempt++) {
			expect((await client(`198.51.100.${70 + attempt}`).signInWithCredentials('credentials', WRONG)).status).toBe(302);
		}
	});
});

describe('answers to API clients', () => {
	test('X-Auth-Return-Redirect: 429 JSON {url} pointing at the sign-in page with error=RateLimited', async () => {
		const { client } = app();
		const browser = client();
		for (let attempt = 1; attempt <= LIMIT; attempt++) await browser.signInWithCredentials('credentials', { ...WRONG, username: `u${attempt}` });
		const refused = await browser.signInWithCredentials('credentials', { ...ALICE_LOGIN }, { headers: { 'X-Auth-Return-Redirect': '1' } });
		expect(refused.status).toBe(429);
		expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
		expect(await refused.json()).toEqual({ url: `${ORIGIN}/auth/signin?error=RateLimited` });
	});

	test('with pages.signIn: 429 with a link to it', async () => {
		const { client } = app({ pages: { signIn: '/login' } });
		const browser = client();
		for (let attempt = 1; attempt <= LIMIT; attempt++) await browser.signInWithCredentials('credentials', { ...WRONG, username: `u${attempt}` });
		const refused = await browser.signInWithCredentials('credentials', { ...ALICE_LOGIN });
		expect(refused.status).toBe(429);
		expect(await refused.text()).toContain(`href="${ORIGIN}/login?error=RateLimited"`);
	});
});

/** A limiter store whose every call fails, as a Redis or database that cannot be reached. */
const unreachable = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
const down: LimitStore = { hit: unreachable, release: unreachable, reset: unreachable, sweep: unreachable };

describe('a store that is down, failing closed (failOpen: false)', () => {

	test('503 with Retry-After (never 429, never a session): the page says the service is busy, API clients get JSON; logged once, no rateLimited event', async () => {
		const errors: Error[] = [];
		const { client, events } = app({ rateLimit: { store: down, failOpen: false }, logger: { error: (error) => void errors.push(error), warn: () => {}, debug: () => {} } });
		const page = await client().signInWithCredentials('credentials', { ...ALICE_LOGIN });
		expect(page.status).toBe(503);
		expect(page.headers.get('retry-after')).toBe('10');
		expect(sessionCookiesSet(page)).toEqual([]);
		expect(await page.text()).toContain(signInMessage('Unavailable'));

		// `kitauth/client` reads the status (it throws on any answer that is not ok).
		const api = await client().signInWithCredentials('credentials', { ...ALICE_LOGIN }, { headers: { 'X-Auth-Return-Redirect': '1' } });
		expect(api.status).toBe(503);
		expect(api.headers.get('retry-after')).toBe('10');

		// One line per refused attempt, the store's failure (the limiter's), without the address.
		expect(errors.map((error) => error.name)).toEqual(['RateLimitStoreError', 'RateLimitStoreError']);
		expect(errors.map((error) => error.message).join(' ')).not.toMatch(/203\.0\.113\.7|alice/);
		expect(events).toEqual([]);
	});
});

describe('switches', () => {
	test('rateLimit: false, or AUTH_RATE_LIMIT=off, turns the limits off', async () => {
		for (const server of [
			createAuthServer({ secret: SECRET, trustHost: true, providers: [passwordProvider()], rateLimit: false }, { env: {} }),
			createAuthServer({ secret: SECRET, trustHost: true, providers: [passwordProvider()], rateLimit: true }, { env: { AUTH_RATE_LIMIT: 'off' } })
		]) {
			const browser = new TestClient((request) => server.handle(request, { clientAddress: '203.0.113.7' }), { origin: ORIGIN });
			for (let attempt = 1; attempt <= 15; attempt++) {
				expect((await browser.signInWithCredentials('credentials', { ...WRONG, username: `u${attempt}` })).status).toBe(302);
			}
		}
	});

	test('in production the limits are on by default', async () => {
		const server = createAuthServer({ secret: SECRET, trustHost: true, providers: [passwordProvider()] }, { env: { NODE_ENV: 'production' } });
		const browser = new TestClient((request) => server.handle(request, { clientAddress: '203.0.113.7' }), { origin: ORIGIN });
		const statuses: number[] = [];
		for (let attempt = 1; attempt <= LIMIT + 1; attempt++) {
			statuses.push((await browser.signInWithCredentials('credentials', { ...WRONG, username: `u${attempt}` })).status);
		}
		expect(statuses.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(302));
		expect(statuses[LIMIT]).toBe(429);
	});
});

describe('OAuth sign-in starts', () => {
	test('per address: the 31st start in 10 minutes is refused before anything is sent to the provider', async () => {
		const provider = {
			id: 'example',
			name: 'Example',
			type: 'oauth' as const,
			authorization: 'https://idp.example/authorize',
			token: 'https://idp.example/token',
			userinfo: 'https://idp.example/userinfo',
			clientId: 'client',
			clientSecret: 'secret'
		};
		const { client } = app({ providers: [provider] });
		const browser = client();
		for (let attempt = 1; attempt <= 30; attempt++) {
			const res = await browser.postForm('signin/example', {});
			expect(res.headers.get('location'), `start ${attempt}`).toMatch(/^https:\/\/idp\.example\/authorize\?/);
		}
		const refused = await browser.postForm('signin/example', {});
		expect(refused.status).toBe(429);
		expect(refused.headers.get('location')).toBeNull();
		expect(refused.headers.getSetCookie().some((cookie) => cookie.startsWith('authjs.state='))).toBe(false);
	});
});

describe('passkeys', () => {
	test('per address: the 31st options request in a minute is refused (429 JSON, Retry-After), and callbacks are counted too', async () => {
		const { passkeySetup } = await import('./passkey-fixtures.js');
		const s = await passkeySetup('database', { rateLimit: { rules: { 'webauthn-callback': { address: { limit: 3, window: 600 } } } } });
		const server = createAuthServer(s.config, { env: {} });
		const browser = new TestClient((request) => server.handle(request, { clientAddress: '203.0.113.7' }), { origin: ORIGIN });
		for (let attempt = 1; attempt <= 30; attempt++) {
			expect((await browser.get('webauthn-options/passkey')).status, `options ${attempt}`).toBe(200);
		}
		const refused = await browser.get('webauthn-options/passkey');
		expect(refused.status).toBe(429);
		expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
		expect(refused.headers.getSetCookie().some((cookie) => cookie.startsWith('authjs.challenge='))).toBe(false);

		// Garbage callbacks are refused as they are, until the address's callback budget runs out.
		const statuses: number[] = [];
		for (let attempt = 1; attempt <= 4; attempt++) {
			statuses.push((await browser.postForm('callback/passkey', { action: 'authenticate', data: '{}' })).status);
		}
		expect(statuses.slice(0, 3).every((status) => status === 302)).toBe(true);
		expect(statuses[3]).toBe(429);
	});

	test('a store that is down, failing closed: the JSON options answer 503 with Retry-After and a message, never 429', async () => {
		const { passkeySetup } = await import('./passkey-fixtures.js');
		const s = await passkeySetup('database', { rateLimit: { store: down, failOpen: false } });
		const server = createAuthServer({ ...s.config, logger: { error: () => {}, warn: () => {}, debug: () => {} } }, { env: {} });
		const browser = new TestClient((request) => server.handle(request, { clientAddress: '203.0.113.7' }), { origin: ORIGIN });
		const refused = await browser.get('webauthn-options/passkey');
		expect(refused.status).toBe(503);
		expect(refused.headers.get('retry-after')).toBe('10');
		expect(await refused.json()).toEqual({ message: 'Sign-in is unavailable for a moment. Try again later.' });
		expect(refused.headers.getSetCookie().some((cookie) => cookie.startsWith('authjs.challenge='))).toBe(false);
	});
});
