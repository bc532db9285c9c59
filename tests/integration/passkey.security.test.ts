/**
 * WebAuthn negative tests (shared/research/security-checklist.md §6): each hostile ceremony is
 * refused with no session and no 5xx, on database and JWT sessions, against the real flow and a
 * real store, with genuine responses from the software authenticator bent one way at a time.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createAuthServer } from '../../src/lib/core/index.js';
import Passkey from '../../src/lib/providers/passkey.js';
import WebAuthn from '../../src/lib/providers/webauthn.js';
import { expectNoSessionGranted, location, passwordProvider } from './fixtures.js';
import {
	authenticate,
	authenticator,
	callback,
	CHALLENGE_COOKIE,
	count,
	options,
	type PasskeySetup,
	passkeySetup,
	register,
	STRATEGIES
} from './passkey-fixtures.js';
import type { SoftAuthenticator } from '../support/webauthn-authenticator.js';
import type { TestClient } from '../support/client.js';

afterEach(() => {
	vi.useRealTimers();
});

/** A refused ceremony: a redirect to the sign-in page with WebAuthnVerificationError, no session. */
async function expectRefused(res: Response, s: PasskeySetup, code?: string): Promise<void> {
	await expectNoSessionGranted(res.clone());
	expect(res.status).toBe(302);
	const url = location(res);
	expect(url.pathname).toBe('/auth/signin');
	expect(url.searchParams.get('error')).toBe('WebAuthnVerificationError');
	expect(url.searchParams.get('code')).toBe(code ?? null);
	expect(s.errors.length).toBeGreaterThan(0);
}

/** A user with one passkey, signed out again; returns the browser and the authenticator. */
async function userWithPasskey(s: PasskeySetup, email = 'pat@example.com'): Promise<{ browser: TestClient; auth: SoftAuthenticator }> {
	const browser = s.client();
	const auth = authenticator();
	expect((await register(browser, auth, { email })).status).toBe(302);
	await browser.postForm('signout');
	s.errors.length = 0;
	return { browser, auth };
}

describe.each(STRATEGIES)('hostile passkey ceremonies on %s sessions', (strategy) => {
	test('challenge replay: the same assertion and cookie a second time are refused', async () => {
		const s = await passkeySetup(strategy);
		const { browser, auth } = await userWithPasskey(s);
		const { body } = await options(browser, { action: 'authenticate' });
		const cookie = browser.jar.get(CHALLENGE_COOKIE)!;
		// A counter of 0 both times (as synced passkeys send): only the single-use challenge stops it.
		const assertion = auth.get(body.options, { counter: 0 });
		expect((await callback(browser, 'authenticate', assertion)).status).toBe(302);
		expect(await browser.session()).not.toBeNull();

		const attacker = s.client();
		attacker.jar.set(CHALLENGE_COOKIE, cookie);
		await expectRefused(await callback(attacker, 'authenticate', assertion), s);
		expect(await attacker.session()).toBeNull();
	});

	test('an assertion signed over a challenge never issued is refused', async () => {
		const s = await passkeySetup(strategy);
		const { browser, auth } = await userWithPasskey(s);
		const { body } = await options(browser, { action: 'authenticate' });
		const forged = auth.get(body.options, { challenge: Buffer.alloc(32, 7).toString('base64url') });
		await expectRefused(await callback(browser, 'authenticate', forged), s);
	});

	test('a registration challenge cannot be used to authenticate, nor the reverse', async () => {
		const s = await passkeySetup(strategy);
		const { browser, auth } = await userWithPasskey(s);
		const { body: reg } = await options(browser, { action: 'register', email: 'new@example.com' });
		const assertion = auth.get({ challenge: (reg.options as unknown as { challenge: string }).challenge, rpId: 'localhost' });
		await expectRefused(await callback(browser, 'authenticate', assertion), s);

		const { body: login } = await options(browser, { action: 'authenticate' });
		const fresh = authenticator();
		const creation = fresh.create({
			challenge: (login.options as unknown as { challenge: string }).challenge,
			rp: { id: 'localhost', name: 'x' },
			user: { id: 'dXNlcg', name: 'new@example.com', displayName: 'new' },
			pubKeyCredParams: [{ alg: -7, type: 'public-key' }]
		});
		await expectRefused(await callback(browser, 'register', creation), s);
		expect(await count(s.db, 'user')).toBe(1);
	});

	test("a challenge issued for another provider is refused (the cookie is provider-bound)", async () => {
		const s = await passkeySetup(strategy, {
			providers: [passwordProvider(), Passkey, WebAuthn({ id: 'security-key', name: 'Security key' })]
		});
		const { browser, auth } = await userWithPasskey(s);
		const { body } = await options(browser, { action: 'authenticate' }, 'security-key');
		await expectRefused(await callback(browser, 'authenticate', auth.get(body.options), 'passkey'), s);
	});

	test('a passkey of another WebAuthn provider is unknown to this one', async () => {
		const s = await passkeySetup(strategy, {
			providers: [passwordProvider(), Passkey, WebAuthn({ id: 'security-key', name: 'Security key' })]
		});
		const { browser, auth } = await userWithPasskey(s);
		const { body } = await options(browser, { action: 'authenticate' }, 'security-key');
		await expectRefused(await callback(browser, 'authenticate', auth.get(body.options), 'security-key'), s, 'unknown-credential');
	});

	test('wrong origin, wrong RP ID, a cross-origin frame, a wrong client data type: refused', async () => {
		const s = await passkeySetup(strategy);
		const { browser, auth } = await userWithPasskey(s);
		for (const tweaks of [
			{ origin: 'http://evil.example:3000' },
			{ origin: 'https://localhost:3000' },
			{ rpId: 'evil.example' },
			{ crossOrigin: true },
			{ type: 'webauthn.create' }
		]) {
			s.errors.length = 0;
			await expectRefused(await authenticate(browser, auth, tweaks), s);
		}
		// And at registration.
		for (const tweaks of [{ origin: 'http://evil.example:3000' }, { rpId: 'evil.example' }, { crossOrigin: true }]) {
			s.errors.length = 0;
			await expectRefused(await register(s.client(), authenticator(), { email: 'eve@example.com' }, tweaks), s);
		}
		expect(await count(s.db, 'user')).toBe(1);
	});

	test('user verification missing, or user presence missing: refused', async () => {
		const s = await passkeySetup(strategy);
		const { browser, auth } = await userWithPasskey(s);
		await expectRefused(await authenticate(browser, auth, { uv: false }), s);
		s.errors.length = 0;
		await expectRefused(await authenticate(browser, auth, { up: false, uv: false }), s);
		s.errors.length = 0;
		await expectRefused(await register(s.client(), authenticator(), { email: 'nouv@example.com' }, { uv: false }), s);
		expect(await count(s.db, 'authenticator')).toBe(1);
	});

	test('counter regression: refused, logged and reported by an event; the stored counter stays', async () => {
		const s = await passkeySetup(strategy);
		const { browser, auth } = await userWithPasskey(s);
		expect((await authenticate(browser, auth, { counter: 5 })).status).toBe(302);
		await browser.postForm('signout');
		s.errors.length = 0;
		for (const counter of [5, 4, 0]) {
			await expectRefused(await authenticate(browser, auth, { counter, bump: false }), s);
		}
		expect(s.errors.some((e) => /counter regression/.test(e.message))).toBe(true);
		expect(s.regressions).toHaveLength(3);
		expect(s.regressions[0]).toMatchObject({ provider: 'passkey', storedCounter: 5, receivedCounter: 5 });
		const stored = await s.adapter.getAuthenticator(Buffer.from(auth.credentials[0]!.id, 'base64url').toString('base64'));
		expect(stored?.counter).toBe(5);
		// A forged assertion (right counter, wrong key) is not reported as a clone.
		const thief = authenticator();
		thief.create({ challenge: 'AA', rp: { id: 'localhost', name: 'x' }, user: { id: 'AA', name: 'x', displayName: 'x' }, pubKeyCredParams: [] }, { credentialId: auth.credentials[0]!.id });
		s.errors.length = 0;
		await expectRefused(await authenticate(browser, thief, { counter: 1, bump: false }), s);
		expect(s.regressions).toHaveLength(3);
		// And a higher counter signs in.
		expect((await authenticate(browser, auth, { counter: 6 })).status).toBe(302);
	});

	test('two sign-ins reporting the same counter at once: at most one succeeds', async () => {
		const s = await passkeySetup(strategy);
		const { auth } = await userWithPasskey(s);
		expect((await authenticate(s.client(), auth, { counter: 3 })).status).toBe(302);
		const [a, b] = [s.client(), s.client()];
		const [oa, ob] = [await options(a, { action: 'authenticate' }), await options(b, { action: 'authenticate' })];
		const responses = await Promise.all([
			callback(a, 'authenticate', auth.get(oa.body.options, { counter: 4, bump: false })),
			callback(b, 'authenticate', auth.get(ob.body.options, { counter: 4, bump: false }))
		]);
		const signedIn = responses.filter((res) => location(res).pathname === '/account');
		expect(signedIn).toHaveLength(1);
		for (const res of responses) expect(res.status).toBe(302);
	});

	test('a backup-eligibility flip (another authenticator presenting the key) is refused', async () => {
		const s = await passkeySetup(strategy);
		const { browser, auth } = await userWithPasskey(s);
		await expectRefused(await authenticate(browser, auth, { backupEligible: true }), s);
	});

	test('a credential id already owned by another user cannot be registered again', async () => {
		const s = await passkeySetup(strategy);
		const { auth } = await userWithPasskey(s, 'victim@example.com');
		const victimCredential = auth.credentials[0]!.id;
		const attacker = authenticator();
		// The attacker's own key under the victim's credential id, as a new user…
		await expectRefused(await register(s.client(), attacker, { email: 'attacker@example.com' }, { credentialId: victimCredential }), s);
		// …and added to an account of the attacker's own.
		const mallory = s.client();
		expect((await register(mallory, authenticator(), { email: 'mallory@example.com' })).status).toBe(302);
		s.errors.length = 0;
		await expectRefused(await register(mallory, attacker, {}, { credentialId: victimCredential }), s);
		const stored = await s.adapter.getAuthenticator(Buffer.from(victimCredential, 'base64url').toString('base64'));
		const { rows } = await s.db.execute({ sql: 'SELECT email FROM user WHERE id = ?', args: [stored!.userId] });
		expect(rows[0]!.email).toBe('victim@example.com');
		// The victim still signs in with it; the attacker's key does not.
		expect(location(await authenticate(s.client(), auth)).pathname).toBe('/account');
		s.errors.length = 0;
		await expectRefused(await authenticate(s.client(), attacker), s);
	});

	test('a key algorithm the relying party did not offer is refused (ES384)', async () => {
		const s = await passkeySetup(strategy);
		await expectRefused(await register(s.client(), authenticator({ alg: -35 }), { email: 'alg@example.com' }), s);
		expect(await count(s.db, 'user')).toBe(0);
		// Ed25519 is offered (EdDSA, ES256 and RS256 by default).
		expect(location(await register(s.client(), authenticator({ alg: -8 }), { email: 'ed@example.com' })).pathname).toBe('/account');
	});

	test('an unknown credential is refused with code=unknown-credential (the browser may forget it)', async () => {
		const s = await passkeySetup(strategy);
		const stranger = authenticator();
		stranger.create({ challenge: 'AA', rp: { id: 'localhost', name: 'x' }, user: { id: 'AA', name: 'x', displayName: 'x' }, pubKeyCredParams: [] });
		await expectRefused(await authenticate(s.client(), stranger), s, 'unknown-credential');
	});

	test('an expired challenge (after 5 minutes) is refused', async () => {
		const s = await passkeySetup(strategy);
		const { browser, auth } = await userWithPasskey(s);
		vi.useFakeTimers({ toFake: ['Date'] });
		const { body } = await options(browser, { action: 'authenticate' });
		vi.setSystemTime(Date.now() + 5 * 60_000 + 20_000);
		await expectRefused(await callback(browser, 'authenticate', auth.get(body.options)), s);
	});

	test('no challenge cookie, or a garbage one: refused', async () => {
		const s = await passkeySetup(strategy);
		const { browser, auth } = await userWithPasskey(s);
		const { body } = await options(browser, { action: 'authenticate' });
		const assertion = auth.get(body.options);
		browser.jar.delete(CHALLENGE_COOKIE);
		await expectRefused(await callback(browser, 'authenticate', assertion), s);
		browser.setCookie(CHALLENGE_COOKIE, 'eyJhbGciOiJkaXIifQ..garbage..x');
		s.errors.length = 0;
		await expectRefused(await callback(browser, 'authenticate', assertion), s);
	});

	test('garbage bodies: no session, no 5xx', async () => {
		const s = await passkeySetup(strategy);
		const { browser, auth } = await userWithPasskey(s);
		const good = async () => auth.get((await options(browser, { action: 'authenticate' })).body.options);
		const bodies: Record<string, string>[] = [
			{},
			{ action: 'authenticate' },
			{ action: 'authenticate', data: 'not json' },
			{ action: 'authenticate', data: '[]' },
			{ action: 'authenticate', data: 'null' },
			{ action: 'authenticate', data: '{}' },
			{ action: 'authenticate', data: JSON.stringify({ ...(await good()), response: 'x' }) },
			{ action: 'authenticate', data: JSON.stringify({ ...(await good()), id: 'a b', rawId: 'a b' }) },
			{ action: 'authenticate', data: JSON.stringify({ ...(await good()), type: 'password' }) },
			{ action: 'authenticate', data: JSON.stringify({ ...(await good()), response: { clientDataJSON: 5 } }) },
			{ action: 'authenticate', data: JSON.stringify({ ...(await good()), clientExtensionResults: 'x' }) },
			{ action: 'authenticate', data: JSON.stringify({ ...(await good()), response: { ...(await good()).response, clientDataJSON: 'bm90IGpzb24' } }) },
			{ action: 'authenticate', data: JSON.stringify({ ...(await good()), response: { ...(await good()).response, authenticatorData: 'AAAA' } }) },
			{ action: 'register', data: JSON.stringify(await good()) },
			{ action: 'register', data: JSON.stringify({ id: 'AA', rawId: 'AA', type: 'public-key', response: { clientDataJSON: 'e30', attestationObject: 'oA' } }) },
			{ action: 'steal', data: JSON.stringify(await good()) },
			{ action: 'authenticate', data: 'x'.repeat(60_000) }
		];
		for (const body of bodies) {
			await options(browser, { action: 'authenticate' });
			const res = await browser.postForm('callback/passkey', body);
			await expectNoSessionGranted(res);
			expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(302);
			expect(location(res).searchParams.get('error')).toBe('WebAuthnVerificationError');
		}
		// JSON bodies with odd shapes, and a body over the size limit.
		for (const json of [{ action: 'authenticate', data: { nested: [[[]]] } }, { action: ['authenticate'] }, { data: null }]) {
			const token = await browser.csrfToken();
			await expectNoSessionGranted(await browser.post('callback/passkey', { json: { ...json, csrfToken: token } }));
		}
		await expectNoSessionGranted(await browser.post('callback/passkey', { form: { action: 'authenticate', data: 'x'.repeat(70_000) } }));
		// Without the CSRF token, or from another site: refused before anything is read.
		const { body } = await options(browser, { action: 'authenticate' });
		const missing = await browser.post('callback/passkey', { form: { action: 'authenticate', data: JSON.stringify(auth.get(body.options)) } });
		await expectNoSessionGranted(missing);
		expect(location(missing).searchParams.get('error')).toBe('MissingCSRF');
		const token = await browser.csrfToken();
		const crossSite = await browser.post('callback/passkey', {
			form: { action: 'authenticate', csrfToken: token, data: JSON.stringify(auth.get(body.options)) },
			headers: { origin: 'https://evil.example' }
		});
		await expectNoSessionGranted(crossSite);
		expect(crossSite.status).toBe(403);
		// The GET method is not a callback of this provider.
		await expectNoSessionGranted(await browser.get('callback/passkey', { query: { action: 'authenticate' } }));
	});

	test('options: a bad action, or a register the rules do not allow, is a 400 with a JSON error', async () => {
		const s = await passkeySetup(strategy);
		const { browser } = await userWithPasskey(s, 'known@example.com');
		const cases: [Record<string, string>, string][] = [
			[{ action: 'delete' }, 'Invalid action'],
			// Signed out, registering an email someone already has.
			[{ action: 'register', email: 'known@example.com' }, 'Invalid request'],
			[{ action: 'register', email: 'KNOWN@example.com' }, 'Invalid request'],
			// Signed out, registering without an email (or with one that is not one).
			[{ action: 'register' }, 'Invalid request'],
			[{ action: 'register', email: 'a@b.com,c@d.com' }, 'Invalid request'],
			[{ action: 'register', email: 'victim\uFF20corp.com\uFF0Cattacker@evil.com' }, 'Invalid request']
		];
		for (const [query, error] of cases) {
			const { res, body } = await options(browser, query);
			expect(res.status, JSON.stringify(query)).toBe(400);
			expect(body).toEqual({ error });
			expect(res.headers.getSetCookie().some((c) => c.startsWith(`${CHALLENGE_COOKIE}=`))).toBe(false);
		}
		// No action: a known email authenticates (with its passkeys), an unknown one registers.
		expect((await options(browser, { email: 'known@example.com' })).body.action).toBe('authenticate');
		expect((await options(browser, { email: 'new@example.com' })).body.action).toBe('register');
		expect((await options(browser, {})).body.action).toBe('authenticate');
		// Signed in, no action: refused.
		const signedIn = s.client();
		expect((await register(signedIn, authenticator(), { email: 'me@example.com' })).status).toBe(302);
		expect((await options(signedIn, {})).res.status).toBe(400);
		// Unknown provider, or a provider without ceremonies.
		expect((await options(browser, {}, 'nope')).res.status).toBe(404);
		expect((await browser.get('webauthn-options/credentials')).status).toBe(400);
	});

	test('re-authenticating as another user while signed in is refused (AccountNotLinked)', async () => {
		const s = await passkeySetup(strategy);
		const { auth: victims } = await userWithPasskey(s, 'victim@example.com');
		const attacker = s.client();
		expect((await register(attacker, authenticator(), { email: 'attacker@example.com' })).status).toBe(302);
		// A signed-in user's options allow only their own passkeys; a hostile client ignores that.
		const res = await authenticate(attacker, victims, { credential: victims.credentials[0]! });
		expect(location(res).searchParams.get('error')).toBe('AccountNotLinked');
		expect(await attacker.session()).toMatchObject({ user: { email: 'attacker@example.com' } });
	});

	test('a registration finished after the session changed is refused', async () => {
		const s = await passkeySetup(strategy);
		const browser = s.client();
		expect((await register(browser, authenticator(), { email: 'first@example.com' })).status).toBe(302);
		const { body } = await options(browser, { action: 'register' });
		await browser.postForm('signout');
		s.errors.length = 0;
		await expectRefused(await callback(browser, 'register', authenticator().create(body.options)), s);
		expect(await count(s.db, 'authenticator')).toBe(1);
	});
});

describe('configuration', () => {
	test('a WebAuthn provider without experimental.enableWebAuthn, or without an adapter, is a configuration error', async () => {
		const s = await passkeySetup('database');
		expect(() => createAuthServer({ ...s.config, experimental: {} })).toThrow(/enableWebAuthn/);
		expect(() => createAuthServer({ ...s.config, adapter: undefined, session: { strategy: 'jwt' } })).toThrow(/adapter/);
		const { useVerificationToken: _, ...noTokens } = s.adapter;
		expect(() => createAuthServer({ ...s.config, adapter: noTokens })).toThrow(/useVerificationToken/);
		expect(() => createAuthServer({ ...s.config, providers: [Passkey({ relayingParty: { origin: 'example.com' } })] })).toThrow(/not an origin/);
		expect(() => createAuthServer({ ...s.config, providers: [Passkey({ relatedOrigins: ['https://a.example/path'] })] })).toThrow(/not an origin/);
		expect(() => createAuthServer({ ...s.config, providers: [Passkey({ relayingParty: { id: 'https://example.com' } })] })).toThrow(/domain/);
		// Enabling it warns once that it is experimental.
		expect(s.warnings).toContain('experimental-webauthn');
	});
});
