/**
 * Any Auth.js preset works in kitauth: every module in `@auth/core/providers/` (0.41.3, a
 * test-only dependency) is imported, called with dummy credentials, handed to kitauth's `Auth()`
 * as it is, and must start a sign-in: POST `/auth/signin/<id>` (with the CSRF token) answers a
 * redirect to that preset's authorization URL carrying `state`, PKCE (S256) unless the preset
 * drops it, `client_id`, `redirect_uri` and the preset's own parameters.
 *
 * Presets whose endpoints come from discovery get an issuer on a real loopback host
 * (`discovery-host.ts`) that publishes a document for exactly that issuer, so discovery really
 * happens (and oauth4webapi checks the issuer). Presets of other types (email, credentials,
 * passkeys…) are skipped, judged by the `type` of what the preset returns.
 */
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { Auth } from '../../src/lib/core/index.js';
import type { AuthConfig, Provider } from '../../src/lib/core/types.js';
import { TestClient } from '../support/client.js';
import { startDiscoveryHost } from '../support/discovery-host.js';

const ORIGIN = 'http://localhost:3000';
const SECRET = 'authjs-presets-secret-0123456789abcdef0123456789';
const CLIENT_SECRET = 'dummy-client-secret';

/** What an Auth.js preset function returns, as far as this test reads it. */
interface AuthJsPreset {
	id: string;
	type: string;
	issuer?: string;
	authorization?: string | { url?: string; params?: Record<string, unknown> };
	checks?: string[];
	options?: Record<string, unknown>;
}
type PresetFunction = (options: Record<string, unknown>) => AuthJsPreset;

/**
 * Options a few presets need, besides credentials and an issuer, to be constructed at all: the
 * email presets refuse to start without a server; NetSuite's endpoints are on the account's host,
 * and its profile comes from a RESTlet of the app's own (its `userinfo`: without one, Auth.js and
 * kitauth refuse it at start-up).
 */
const TO_CONSTRUCT: Record<string, Record<string, unknown>> = {
	email: { server: 'smtp://127.0.0.1:2525' },
	nodemailer: { server: 'smtp://127.0.0.1:2525' },
	netsuite: { accountID: 'acme-1234', userinfo: 'https://acme-1234.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=1&deploy=1' }
};

const host = await startDiscoveryHost();
afterAll(() => host.close());

const directory = dirname(createRequire(import.meta.url).resolve('@auth/core/providers/github'));
const modules = readdirSync(directory)
	.filter((file) => file.endsWith('.js'))
	.sort();

interface Case {
	file: string;
	preset: AuthJsPreset;
	call: PresetFunction;
	options: Record<string, unknown>;
}

const cases: Case[] = [];
const skipped: { file: string; type: string }[] = [];
const notPresets: string[] = [];
for (const file of modules) {
	const stem = file.slice(0, -'.js'.length);
	const module = (await import(pathToFileURL(join(directory, file)).href)) as { default?: unknown };
	if (typeof module.default !== 'function') {
		notPresets.push(file);
		continue;
	}
	const call = module.default as PresetFunction;
	const credentials = { clientId: `client-${stem}`, clientSecret: CLIENT_SECRET, ...TO_CONSTRUCT[stem] };
	const probe = call(credentials);
	if (probe.type !== 'oauth' && probe.type !== 'oidc') {
		skipped.push({ file, type: probe.type });
		continue;
	}
	// An issuer where one is needed: for discovery (every OIDC preset: their real issuers are not
	// reachable from a test), or because the endpoints are built from it (Mastodon, BoxyHQ…).
	const options = needsIssuer(probe) ? { ...credentials, issuer: `${host.origin}/${stem}` } : credentials;
	cases.push({ file, call, options, preset: call(options) });
}

function explicitAuthorizationUrl(preset: AuthJsPreset): string | undefined {
	return typeof preset.authorization === 'string' ? preset.authorization : preset.authorization?.url;
}

function needsIssuer(preset: AuthJsPreset): boolean {
	if (preset.type === 'oidc') return true;
	const url = explicitAuthorizationUrl(preset);
	if (!url || url.includes('undefined')) return true;
	return !URL.canParse(url);
}

function authorizationParams(preset: AuthJsPreset): Record<string, unknown> {
	return typeof preset.authorization === 'object' ? (preset.authorization.params ?? {}) : {};
}

describe('the presets of @auth/core', () => {
	test('are enumerated from the installed package: all of them are tried', () => {
		expect(cases.length + skipped.length).toBeGreaterThanOrEqual(90);
		expect(cases.length).toBeGreaterThanOrEqual(80);
		// Skipped only for what they are, not by name.
		for (const { type } of skipped) expect(['email', 'credentials', 'webauthn']).toContain(type);
		expect(notPresets.every((file) => ['index.js', 'oauth.js', 'provider-types.js'].includes(file))).toBe(true);
	});
});

describe.each(cases)('Auth.js preset $file', ({ file, call, options, preset }) => {
	test('starts a sign-in in kitauth: redirect to its authorization URL with state, PKCE, client_id, redirect_uri', async () => {
		const errors: Error[] = [];
		const config: AuthConfig = {
			secret: SECRET,
			trustHost: true,
			// The preset function itself, as an app passes it: kitauth calls it with env options.
			providers: [((overrides?: Record<string, unknown>) => call({ ...options, ...overrides })) as Provider],
			logger: { error: (error) => void errors.push(error), warn: () => {}, debug: () => {} }
		};
		const browser = new TestClient((request) => Auth(request, config), { origin: ORIGIN });
		const res = await browser.postForm(`signin/${preset.id}`);
		const location = res.headers.get('location') ?? '';
		expect(res.status, `${file}: ${location} ${errors.map((e) => `${e.message} ← ${String(e.cause)}`).join('; ')}`).toBe(302);

		const url = new URL(location);
		const explicit = explicitAuthorizationUrl(preset);
		const issuer = typeof options.issuer === 'string' ? options.issuer : undefined;
		const expected = new URL(explicit ?? `${issuer}/authorize`);
		expect(url.origin + url.pathname).toBe(expected.origin + expected.pathname);
		if (!explicit) {
			// Discovered, from that very issuer.
			expect(host.requests).toContain(`${new URL(`${issuer}`).pathname}/.well-known/openid-configuration`);
		}

		const query = url.searchParams;
		expect(query.get('state')).toMatch(/^[\w-]{20,}$/);
		expect(query.get('client_id')).toBe(options.clientId);
		expect(query.get('redirect_uri')).toBe(`${ORIGIN}/auth/callback/${preset.id}`);
		const pkce = !preset.checks || preset.checks.includes('pkce');
		if (pkce) {
			expect(query.get('code_challenge')).toMatch(/^[\w-]{43}$/);
			expect(query.get('code_challenge_method')).toBe('S256');
		} else {
			expect(query.has('code_challenge')).toBe(false);
		}
		// The preset's own parameters, in its URL or its params, reach the provider unchanged.
		const params = authorizationParams(preset);
		for (const [key, value] of expected.searchParams) if (!(key in params)) expect(query.get(key)).toBe(value);
		for (const [key, value] of Object.entries(params)) {
			if (value === undefined || value === null) continue;
			expect(query.get(key)).toBe(typeof value === 'string' ? value : JSON.stringify(value));
		}
		expect(errors).toEqual([]);
	});
});
