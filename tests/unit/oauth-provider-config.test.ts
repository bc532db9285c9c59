/**
 * OAuth/OIDC providers that could only fail after the user signed in at the identity provider
 * are refused when the configuration is resolved (at start-up): a client secret that was never
 * set (`process.env.X` that `vite dev` did not load), and a plain OAuth 2 provider with no way to
 * get the user's profile (no userinfo, nothing to discover it from).
 */
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/lib/core/config.js';
import { createAuthServer, InvalidEndpoints, InvalidProvider } from '../../src/lib/core/index.js';
import type { OAuthConfig, Provider } from '../../src/lib/core/types/provider.js';
import GitHub from '../../src/lib/providers/github.js';

const ENV = { AUTH_SECRET: 'unit-secret-0123456789abcdef0123456789abcdef' };

const corp = (overrides: Partial<OAuthConfig> = {}): OAuthConfig => ({
	id: 'corp-sso',
	name: 'Corp SSO',
	type: 'oidc',
	issuer: 'https://sso.corp.example',
	clientId: 'app',
	...overrides
});

const plain = (overrides: Partial<OAuthConfig> = {}): OAuthConfig => ({
	id: 'legacy',
	name: 'Legacy',
	type: 'oauth',
	authorization: 'https://legacy.example/authorize',
	token: 'https://legacy.example/token',
	clientId: 'app',
	clientSecret: 'app-secret',
	...overrides
});

function refusal(provider: Provider, env: Record<string, string> = ENV): Error {
	try {
		resolveOptions({ providers: [provider] }, { env });
	} catch (error) {
		return error as Error;
	}
	throw new Error('expected the configuration to be refused');
}

describe('a provider without its client secret', () => {
	it('is refused at start-up, naming the provider and AUTH_<ID>_SECRET', () => {
		const error = refusal(corp());
		expect(error).toBeInstanceOf(InvalidProvider);
		expect(error.message).toContain('"corp-sso"');
		expect(error.message).toContain('AUTH_CORP_SSO_SECRET');
		expect(error.message).toContain("token_endpoint_auth_method: 'none'");
		expect(() => createAuthServer({ providers: [corp()] }, { env: ENV })).toThrow(InvalidProvider);
	});

	it.each([
		['an empty string', { clientSecret: '' }],
		['client_secret_post', { client: { token_endpoint_auth_method: 'client_secret_post' as const } }],
		['client_secret_basic', { client: { token_endpoint_auth_method: 'client_secret_basic' as const } }],
		['a plain OAuth 2 provider', { type: 'oauth' as const, authorization: 'https://sso.corp.example/a', token: 'https://sso.corp.example/t', userinfo: 'https://sso.corp.example/u' }]
	])('is refused with %s', (_case, overrides) => {
		expect(refusal(corp(overrides))).toBeInstanceOf(InvalidProvider);
	});

	it('a preset reading AUTH_<ID>_SECRET that is not set is refused (GitHub: AUTH_GITHUB_SECRET)', () => {
		const error = refusal(GitHub, { ...ENV, AUTH_GITHUB_ID: 'gh-app' });
		expect(error.message).toContain('"github"');
		expect(error.message).toContain('AUTH_GITHUB_SECRET');
		const options = resolveOptions({ providers: [GitHub] }, { env: { ...ENV, AUTH_GITHUB_ID: 'gh-app', AUTH_GITHUB_SECRET: 'gh-secret' } });
		expect(options.providers[0]).toMatchObject({ clientSecret: 'gh-secret' });
	});

	it("is accepted as a public client (token_endpoint_auth_method 'none': PKCE alone)", () => {
		const options = resolveOptions({ providers: [corp({ client: { token_endpoint_auth_method: 'none' } })] }, { env: ENV });
		expect(options.providers[0]?.id).toBe('corp-sso');
	});

	it("is accepted with private_key_jwt (a signed assertion instead of a secret)", () => {
		const provider = corp({ client: { token_endpoint_auth_method: 'private_key_jwt' }, token: { clientPrivateKey: { kty: 'EC' } } });
		expect(resolveOptions({ providers: [provider] }, { env: ENV }).providers).toHaveLength(1);
	});
});

describe('a plain OAuth 2 provider with no way to the profile', () => {
	it('is refused at start-up: no userinfo, no issuer to discover it', () => {
		const error = refusal(plain());
		expect(error).toBeInstanceOf(InvalidEndpoints);
		expect(error.message).toContain('"legacy"');
		expect(error.message).toMatch(/missing both `issuer` and `userinfo`/);
	});

	it('is refused with an issuer but both endpoints explicit (nothing is discovered then)', () => {
		expect(refusal(plain({ issuer: 'https://legacy.example' }))).toBeInstanceOf(InvalidEndpoints);
	});

	it.each([
		['a userinfo URL', { userinfo: 'https://legacy.example/me' }],
		['a userinfo { url, params }', { userinfo: { url: 'https://legacy.example/me', params: { fields: 'id,email' } } }],
		['its own userinfo.request', { userinfo: { request: () => ({ id: '1' }) } }],
		['a wellKnown to discover userinfo from', { wellKnown: 'https://legacy.example/.well-known/oauth-authorization-server' }],
		['an issuer and no explicit token endpoint', { issuer: 'https://legacy.example', token: undefined }]
	])('is accepted with %s', (_case, overrides) => {
		expect(resolveOptions({ providers: [plain(overrides)] }, { env: ENV }).providers).toHaveLength(1);
	});

	it('OpenID Connect needs no userinfo (the ID token carries the profile)', () => {
		expect(resolveOptions({ providers: [corp({ clientSecret: 's' })] }, { env: ENV }).providers).toHaveLength(1);
	});
});
