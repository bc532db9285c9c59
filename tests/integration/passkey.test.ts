import { afterEach, describe, expect, test, vi } from 'vitest';
import { ALICE_LOGIN, location, ORIGIN, sessionCookiesSet, signedIn } from './fixtures.js';
import { authenticate, authenticator, callback, count, options, passkeySetup, register, STRATEGIES } from './passkey-fixtures.js';

afterEach(() => {
	vi.useRealTimers();
});

describe.each(STRATEGIES)('passkeys on %s sessions', (strategy) => {
	test('sign up with a passkey, sign out, sign in with it (no username)', async () => {
		const s = await passkeySetup(strategy);
		const browser = s.client();
		const auth = authenticator();

		const { res, body } = await options(browser, { action: 'register', email: 'Pat@Example.com ' });
		expect(res.status).toBe(200);
		expect(res.headers.get('cache-control')).toContain('no-store');
		expect(body.action).toBe('register');
		const creation = body.options as unknown as {
			rp: { id: string; name: string };
			user: { name: string; id: string; displayName: string };
			challenge: string;
			timeout: number;
			attestation: string;
			authenticatorSelection: { residentKey: string; userVerification: string };
		};
		expect(creation.rp).toEqual({ id: 'localhost', name: 'localhost:3000' });
		expect(creation.user.name).toBe('pat@example.com');
		expect(Buffer.from(creation.challenge, 'base64url').byteLength).toBeGreaterThanOrEqual(16);
		expect(creation.timeout).toBe(300_000);
		expect(creation.attestation).toBe('none');
		expect(creation.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
		const challengeCookie = res.headers.getSetCookie().find((c) => c.startsWith('authjs.challenge='));
		expect(challengeCookie).toMatch(/Max-Age=300/);
		expect(challengeCookie).toMatch(/HttpOnly/);

		const signUp = await callback(browser, 'register', auth.create(creation));
		expect(signUp.status).toBe(302);
		expect(location(signUp).href).toBe(`${ORIGIN}/account`);
		expect(sessionCookiesSet(signUp).length).toBeGreaterThan(0);
		expect(await browser.session()).toMatchObject({ user: { email: 'pat@example.com' } });
		expect(await count(s.db, 'user')).toBe(1);
		const { rows: accounts } = await s.db.execute('SELECT provider, type, providerAccountId FROM account');
		expect(accounts).toEqual([expect.objectContaining({ provider: 'passkey', type: 'webauthn' })]);
		const stored = await s.adapter.getAuthenticator(Buffer.from(auth.credentials[0]!.id, 'base64url').toString('base64'));
		expect(stored).toMatchObject({ counter: 0, name: 'Passkey', aaguid: '01020304-0506-0708-0102-030405060708', credentialDeviceType: 'singleDevice' });
		expect(stored?.createdAt).toBeInstanceOf(Date);

		await browser.postForm('signout');
		expect(await browser.session()).toBeNull();

		const { body: auth1 } = await options(browser, { action: 'authenticate' });
		expect(auth1.action).toBe('authenticate');
		expect((auth1.options as unknown as { allowCredentials?: unknown }).allowCredentials).toBeUndefined();
		expect((auth1.options as unknown as { userVerification: string }).userVerification).toBe('required');
		const signIn = await callback(browser, 'authenticate', auth.get(auth1.options));
		expect(signIn.status).toBe(302);
		expect(location(signIn).href).toBe(`${ORIGIN}/account`);
		expect(await browser.session()).toMatchObject({ user: { email: 'pat@example.com' } });
		const used = await s.adapter.getAuthenticator(stored!.credentialID);
		expect(used?.counter).toBe(1);
		expect(used?.lastUsedAt).toBeInstanceOf(Date);
	});

	test('a signed-in user adds a second passkey; both sign in to the same user; the list shows them', async () => {
		const s = await passkeySetup(strategy);
		const browser = s.client();
		const laptop = authenticator();
		const phone = authenticator({ backupEligible: true });
		expect((await register(browser, laptop, { email: 'sam@example.com' })).status).toBe(302);

		const { body } = await options(browser, { action: 'register' });
		const creation = body.options as unknown as { excludeCredentials: { id: string }[]; user: { name: string } };
		expect(creation.user.name).toBe('sam@example.com');
		expect(creation.excludeCredentials.map((c) => c.id)).toEqual([laptop.credentials[0]!.id]);
		const added = await callback(browser, 'register', phone.create(body.options), 'passkey');
		expect(added.status).toBe(302);
		expect(await count(s.db, 'user')).toBe(1);
		expect(await count(s.db, 'authenticator')).toBe(2);

		const list = await (await s.current(browser)).passkeys.list();
		expect(list.map((p) => p.id).sort()).toEqual([laptop.credentials[0]!.id, phone.credentials[0]!.id].sort());
		expect(list.find((p) => p.id === phone.credentials[0]!.id)).toMatchObject({ provider: 'passkey', deviceType: 'multiDevice', backedUp: true });

		for (const device of [laptop, phone]) {
			const other = s.client();
			expect((await authenticate(other, device)).status).toBe(302);
			expect(await other.session()).toMatchObject({ user: { email: 'sam@example.com' } });
		}
	});

	test('a password user adds a passkey and then signs in with it', async () => {
		const s = await passkeySetup(strategy);
		if (strategy === 'jwt') {
			// Credentials users on JWT sessions are not stored, so there is nobody to add a passkey to.
			const browser = await signedIn(s);
			const { res, body } = await options(browser, { action: 'register' });
			expect(res.status).toBe(400);
			expect(body).toEqual({ error: 'Invalid request' });
			return;
		}
		const browser = await signedIn(s);
		const auth = authenticator();
		const added = await register(browser, auth, {});
		expect(added.status).toBe(302);
		const other = s.client();
		expect((await authenticate(other, auth)).status).toBe(302);
		expect(await other.session()).toMatchObject({ user: { email: 'alice@example.com' } });
		expect(ALICE_LOGIN.username).toBe('alice');
	});
});
