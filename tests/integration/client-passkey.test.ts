/**
 * `kitauth/client` with a passkey provider, against the real `Auth()` and store: `window`,
 * `fetch`, `navigator.credentials` and `PublicKeyCredential` are stand-ins, the last two backed by
 * the software authenticator (genuine responses), so `@simplewebauthn/browser` runs its real code.
 * (In Chromium: tests/e2e/passkeys.passkey.e2e.ts.)
 */
import { afterEach, expect, test, vi } from 'vitest';
import { addPasskey, signIn } from '../../src/lib/client/index.js';
import { SoftAuthenticator } from '../support/webauthn-authenticator.js';
import type { TestClient } from '../support/client.js';
import { ORIGIN } from './fixtures.js';
import { passkeySetup } from './passkey-fixtures.js';

const b64url = (buffer: ArrayBuffer | ArrayBufferView) =>
	Buffer.from(buffer instanceof ArrayBuffer ? new Uint8Array(buffer) : new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)).toString('base64url');
const buffer = (value: string) => Uint8Array.from(Buffer.from(value, 'base64url')).buffer;

interface FakeBrowser {
	requests: string[];
	signals: unknown[];
	location: { href: string; hostname: string };
}

/** A browser stand-in on `client` at `page` whose WebAuthn API is `auth` (or refuses, with `cancel`). */
function browserAt(client: TestClient, auth: SoftAuthenticator, options: { cancel?: boolean } = {}): FakeBrowser {
	const location = { href: `${ORIGIN}/signin`, hostname: 'localhost', reload() {} };
	const requests: string[] = [];
	const signals: unknown[] = [];
	vi.stubGlobal('window', { location });
	vi.stubGlobal('fetch', (input: string | URL, init: RequestInit = {}) => {
		const url = new URL(String(input), location.href);
		requests.push(`${init.method ?? 'GET'} ${url.pathname}`);
		return client.request(url.href, { method: init.method ?? 'GET', headers: Object.fromEntries(new Headers(init.headers)), body: init.body ?? undefined });
	});
	const credential = (json: ReturnType<SoftAuthenticator['create']> | ReturnType<SoftAuthenticator['get']>) => ({
		id: json.id,
		rawId: buffer(json.rawId),
		type: 'public-key',
		authenticatorAttachment: 'platform',
		getClientExtensionResults: () => ({}),
		response: Object.fromEntries(
			Object.entries(json.response).map(([key, value]) => [key, key === 'transports' ? value : buffer(value as string)])
		)
	});
	const refuse = () => Promise.reject(Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' }));
	vi.stubGlobal('navigator', {
		credentials: {
			create: ({ publicKey }: { publicKey: { challenge: ArrayBuffer; rp: { id: string; name: string }; user: { id: ArrayBuffer; name: string; displayName: string } } }) =>
				options.cancel
					? refuse()
					: Promise.resolve(
							credential(
								auth.create({
									challenge: b64url(publicKey.challenge),
									rp: publicKey.rp,
									user: { ...publicKey.user, id: b64url(publicKey.user.id) }
								})
							)
						),
			get: ({ publicKey }: { publicKey: { challenge: ArrayBuffer; rpId: string } }) =>
				options.cancel ? refuse() : Promise.resolve(credential(auth.get({ challenge: b64url(publicKey.challenge), rpId: publicKey.rpId })))
		}
	});
	class PublicKeyCredential {
		static isConditionalMediationAvailable = async () => false;
		static signalUnknownCredential = async (signal: unknown) => void signals.push(signal);
	}
	vi.stubGlobal('PublicKeyCredential', PublicKeyCredential);
	return { requests, signals, location };
}

afterEach(() => {
	vi.unstubAllGlobals();
});

test('signIn("passkey") signs up and signs in through a moved basePath, and follows the redirect', async () => {
	const s = await passkeySetup('database', { basePath: '/api/auth' });
	const client = s.client();
	client.jar.clear();
	const auth = new SoftAuthenticator(ORIGIN);
	const browser = browserAt(client, auth);
	const up = await signIn('passkey', { email: 'pat@example.com', basePath: '/api/auth', redirectTo: '/account' });
	expect(up).toEqual({ ok: true, url: `${ORIGIN}/account`, error: null, code: null });
	expect(browser.location.href).toBe(`${ORIGIN}/account`);
	expect(browser.requests).toEqual([
		'GET /api/auth/providers',
		'GET /api/auth/csrf',
		'GET /api/auth/webauthn-options/passkey',
		'POST /api/auth/callback/passkey'
	]);
	expect((await (await client.get('/api/auth/session')).json()) as unknown).toMatchObject({ user: { email: 'pat@example.com' } });

	// Signed out, a discoverable-credential sign-in with the same passkey.
	const fresh = s.client();
	const again = browserAt(fresh, auth);
	const result = await signIn('passkey', { basePath: '/api/auth', redirect: false });
	expect(result.ok).toBe(true);
	expect(again.location.href).toBe(`${ORIGIN}/signin`);
	expect((await (await fresh.get('/api/auth/session')).json()) as unknown).toMatchObject({ user: { email: 'pat@example.com' } });

	// addPasskey registers a second one for the signed-in user.
	const second = new SoftAuthenticator(ORIGIN);
	browserAt(fresh, second);
	expect((await addPasskey('passkey', { basePath: '/api/auth', redirect: false })).ok).toBe(true);
	expect((await s.db.execute('SELECT count(*) AS n FROM authenticator')).rows[0]!.n).toBe(2);
});

test('an unknown passkey: the result says so and the browser is told to forget it (Signal API)', async () => {
	const s = await passkeySetup('jwt');
	const stranger = new SoftAuthenticator(ORIGIN);
	stranger.create({ challenge: 'AA', rp: { id: 'localhost', name: 'x' }, user: { id: 'AA', name: 'x', displayName: 'x' } });
	const browser = browserAt(s.client(), stranger);
	const result = await signIn('passkey', { redirect: false });
	expect(result).toMatchObject({ ok: false, error: 'WebAuthnVerificationError', code: 'unknown-credential' });
	expect(browser.signals).toEqual([{ rpId: 'localhost', credentialId: stranger.credentials[0]!.id }]);
});

test('a cancelled ceremony: nothing posted, no navigation, the result says why', async () => {
	const s = await passkeySetup('jwt');
	const browser = browserAt(s.client(), new SoftAuthenticator(ORIGIN), { cancel: true });
	const result = await signIn('passkey', { email: 'pat@example.com' });
	expect(result).toMatchObject({ ok: false, error: 'WebAuthnCeremony' });
	expect(result.code).toMatch(/NotAllowedError|ERROR_/);
	expect(browser.location.href).toBe(`${ORIGIN}/signin`);
	expect(browser.requests.filter((r) => r.startsWith('POST'))).toEqual([]);
});
