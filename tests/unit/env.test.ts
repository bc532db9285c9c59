import { createActionURL as authjsCreateActionURL, setEnvDefaults as authjsSetEnvDefaults } from '@auth/core';
import { describe, expect, it, vi } from 'vitest';
import {
	createActionURL,
	envSecrets,
	setEnvDefaults,
	withEnvDefaults,
	type Env
} from '../../src/lib/core/env.js';
import type { AuthConfig, LoggerInstance, WarningCode } from '../../src/lib/core/types/config.js';
import type { OAuthConfig, Provider, ProviderConfig } from '../../src/lib/core/types/provider.js';

function deepFreeze<T>(value: T): T {
	if (value && (typeof value === 'object' || typeof value === 'function') && !Object.isFrozen(value)) {
		Object.freeze(value);
		for (const key of Reflect.ownKeys(value as object)) {
			deepFreeze((value as Record<PropertyKey, unknown>)[key]);
		}
	}
	return value;
}

function oauth(id: string, extra: Partial<OAuthConfig> = {}): OAuthConfig {
	return { id, name: id, type: 'oauth', authorization: 'https://idp.example/authorize', token: 'https://idp.example/token', ...extra };
}

function asOAuth(provider: ProviderConfig | undefined): OAuthConfig {
	if (!provider || (provider.type !== 'oauth' && provider.type !== 'oidc')) throw new Error('expected an OAuth provider');
	return provider;
}

type AuthJsConfig = Parameters<typeof authjsSetEnvDefaults>[1];

function warnSpy(): { logger: Pick<LoggerInstance, 'warn'>; codes: WarningCode[] } {
	const codes: WarningCode[] = [];
	return { logger: { warn: (code) => codes.push(code) }, codes };
}

describe('withEnvDefaults: secrets', () => {
	it('orders AUTH_SECRET_3, _2, _1, AUTH_SECRET (newest first)', () => {
		const env: Env = { AUTH_SECRET: 's0', AUTH_SECRET_1: 's1', AUTH_SECRET_2: 's2', AUTH_SECRET_3: 's3' };
		expect(withEnvDefaults(env, { providers: [] }).secret).toEqual(['s3', 's2', 's1', 's0']);
	});

	it('skips unset or empty numbered secrets', () => {
		const env: Env = { AUTH_SECRET: 's0', AUTH_SECRET_2: 's2', AUTH_SECRET_1: '' };
		expect(withEnvDefaults(env, { providers: [] }).secret).toEqual(['s2', 's0']);
	});

	it('a single AUTH_SECRET gives an array of one, as in Auth.js', () => {
		expect(withEnvDefaults({ AUTH_SECRET: 'only' }, { providers: [] }).secret).toEqual(['only']);
	});

	it('falls back to NEXTAUTH_SECRET only when no AUTH_SECRET* is set', () => {
		expect(withEnvDefaults({ NEXTAUTH_SECRET: 'legacy' }, { providers: [] }).secret).toEqual(['legacy']);
		expect(withEnvDefaults({ NEXTAUTH_SECRET: 'legacy', AUTH_SECRET: 'new' }, { providers: [] }).secret).toEqual(['new']);
		expect(envSecrets({ NEXTAUTH_SECRET: 'legacy', AUTH_SECRET_1: 'r1' })).toEqual(['r1']);
	});

	it('no secret anywhere gives an empty list, as in Auth.js', () => {
		expect(withEnvDefaults({}, { providers: [] }).secret).toEqual([]);
	});

	it('an explicit secret wins over the environment; an empty one does not, as in Auth.js', () => {
		expect(withEnvDefaults({ AUTH_SECRET: 'env' }, { providers: [], secret: 'explicit' }).secret).toBe('explicit');
		expect(withEnvDefaults({ AUTH_SECRET: 'env' }, { providers: [], secret: ['a', 'b'] }).secret).toEqual(['a', 'b']);
		expect(withEnvDefaults({ AUTH_SECRET: 'env' }, { providers: [], secret: '' }).secret).toEqual(['env']);
		expect(withEnvDefaults({ AUTH_SECRET: 'env' }, { providers: [], secret: [] }).secret).toEqual(['env']);
	});
});

describe('withEnvDefaults: basePath', () => {
	it('defaults to /auth', () => {
		expect(withEnvDefaults({}, { providers: [] }).basePath).toBe('/auth');
	});

	it('takes the path of AUTH_URL when basePath is unset (trailing slashes dropped)', () => {
		expect(withEnvDefaults({ AUTH_URL: 'https://app.example/api/auth' }, { providers: [] }).basePath).toBe('/api/auth');
		expect(withEnvDefaults({ AUTH_URL: 'https://app.example/custom/auth/' }, { providers: [] }).basePath).toBe('/custom/auth');
		expect(withEnvDefaults({ NEXTAUTH_URL: 'https://app.example/legacy' }, { providers: [] }).basePath).toBe('/legacy');
	});

	it('a root AUTH_URL or an invalid one gives /auth', () => {
		expect(withEnvDefaults({ AUTH_URL: 'https://app.example' }, { providers: [] }).basePath).toBe('/auth');
		expect(withEnvDefaults({ AUTH_URL: 'https://app.example/' }, { providers: [] }).basePath).toBe('/auth');
		expect(withEnvDefaults({ AUTH_URL: 'not a url' }, { providers: [] }).basePath).toBe('/auth');
		expect(withEnvDefaults({ AUTH_URL: 'ftp://app.example/files' }, { providers: [] }).basePath).toBe('/auth');
	});

	it('an explicit basePath wins and warns (redundant or mismatch) unless suppressed', () => {
		const same = warnSpy();
		expect(withEnvDefaults({ AUTH_URL: 'https://a.example/auth' }, { providers: [], basePath: '/auth' }, same.logger).basePath).toBe(
			'/auth'
		);
		expect(same.codes).toEqual(['env-url-basepath-redundant']);

		const differ = warnSpy();
		expect(withEnvDefaults({ AUTH_URL: 'https://a.example/api/auth' }, { providers: [], basePath: '/auth' }, differ.logger).basePath).toBe(
			'/auth'
		);
		expect(differ.codes).toEqual(['env-url-basepath-mismatch']);

		const quiet = warnSpy();
		withEnvDefaults({ AUTH_URL: 'https://a.example/api/auth' }, { providers: [], basePath: '/auth' }, quiet.logger, true);
		expect(quiet.codes).toEqual([]);
	});
});

describe('withEnvDefaults: trustHost', () => {
	const trust = (env: Env, config: Partial<AuthConfig> = {}): boolean | undefined =>
		withEnvDefaults(env, { providers: [], ...config }).trustHost;

	it.each(['false', 'FALSE', 'False', '0', 'no', 'off', ' false '])('AUTH_TRUST_HOST=%j means false', (value) => {
		expect(trust({ AUTH_TRUST_HOST: value })).toBe(false);
		expect(trust({ AUTH_TRUST_HOST: value, NODE_ENV: 'development' })).toBe(false);
		expect(trust({ AUTH_TRUST_HOST: value, VERCEL: '1' })).toBe(false);
	});

	it.each(['true', '1', 'yes'])('AUTH_TRUST_HOST=%j means true, even in production', (value) => {
		expect(trust({ AUTH_TRUST_HOST: value, NODE_ENV: 'production' })).toBe(true);
	});

	it('production without any hint → false', () => {
		expect(trust({ NODE_ENV: 'production' })).toBe(false);
		expect(trust({ NODE_ENV: 'production', AUTH_TRUST_HOST: '' })).toBe(false);
	});

	it('outside production → true', () => {
		expect(trust({})).toBe(true);
		expect(trust({ NODE_ENV: 'development' })).toBe(true);
		expect(trust({ NODE_ENV: 'test' })).toBe(true);
	});

	it('VERCEL or CF_PAGES → true in production', () => {
		expect(trust({ NODE_ENV: 'production', VERCEL: '1' })).toBe(true);
		expect(trust({ NODE_ENV: 'production', CF_PAGES: '1' })).toBe(true);
	});

	it('AUTH_URL → true in production', () => {
		expect(trust({ NODE_ENV: 'production', AUTH_URL: 'https://app.example' })).toBe(true);
	});

	it('an explicit trustHost wins', () => {
		expect(trust({ AUTH_TRUST_HOST: 'true' }, { trustHost: false })).toBe(false);
		expect(trust({ NODE_ENV: 'production' }, { trustHost: true })).toBe(true);
	});
});

describe('withEnvDefaults: redirect proxy', () => {
	it('reads AUTH_REDIRECT_PROXY_URL; explicit wins; empty is unset', () => {
		expect(withEnvDefaults({ AUTH_REDIRECT_PROXY_URL: 'https://proxy.example/auth' }, { providers: [] }).redirectProxyUrl).toBe(
			'https://proxy.example/auth'
		);
		expect(
			withEnvDefaults({ AUTH_REDIRECT_PROXY_URL: 'https://proxy.example/auth' }, { providers: [], redirectProxyUrl: 'https://mine.example' })
				.redirectProxyUrl
		).toBe('https://mine.example');
		expect(withEnvDefaults({ AUTH_REDIRECT_PROXY_URL: '' }, { providers: [] }).redirectProxyUrl).toBeUndefined();
	});
});

describe('withEnvDefaults: providers from AUTH_<ID>_*', () => {
	it('fills clientId, clientSecret and issuer of an OAuth provider object', () => {
		const env: Env = { AUTH_GITHUB_ID: 'gh-id', AUTH_GITHUB_SECRET: 'gh-secret', AUTH_GITHUB_ISSUER: 'https://gh.example' };
		const provider = asOAuth(withEnvDefaults(env, { providers: [oauth('github')] }).providers[0] as ProviderConfig);
		expect(provider.clientId).toBe('gh-id');
		expect(provider.clientSecret).toBe('gh-secret');
		expect(provider.issuer).toBe('https://gh.example');
	});

	it('upper-cases the id and maps - to _', () => {
		const env: Env = { AUTH_MY_IDP_ID: 'id', AUTH_MY_IDP_SECRET: 'secret' };
		const provider = asOAuth(withEnvDefaults(env, { providers: [oauth('my-idp', { type: 'oidc' })] }).providers[0] as ProviderConfig);
		expect(provider.clientId).toBe('id');
		expect(provider.clientSecret).toBe('secret');
	});

	it('explicit provider options win over the environment', () => {
		const env: Env = { AUTH_GITHUB_ID: 'env-id', AUTH_GITHUB_SECRET: 'env-secret' };
		const provider = asOAuth(
			withEnvDefaults(env, { providers: [oauth('github', { clientId: 'mine' })] }).providers[0] as ProviderConfig
		);
		expect(provider.clientId).toBe('mine');
		expect(provider.clientSecret).toBe('env-secret');
	});

	it('calls a function provider with the values from the environment', () => {
		const calls: (Record<string, unknown> | undefined)[] = [];
		const preset: Provider = (options) => {
			calls.push(options);
			return { ...oauth('acme', { type: 'oidc' }), ...options };
		};
		const env: Env = { AUTH_ACME_ID: 'acme-id', AUTH_ACME_SECRET: 'acme-secret', AUTH_ACME_ISSUER: 'https://acme.example' };
		const provider = asOAuth(withEnvDefaults(env, { providers: [preset] }).providers[0] as ProviderConfig);
		expect(provider.id).toBe('acme');
		expect(provider.clientId).toBe('acme-id');
		expect(provider.clientSecret).toBe('acme-secret');
		expect(provider.issuer).toBe('https://acme.example');
		expect(calls).toContainEqual({ clientId: 'acme-id', clientSecret: 'acme-secret', issuer: 'https://acme.example' });
	});

	it('does not touch credentials providers', () => {
		const credentials: ProviderConfig = { id: 'credentials', name: 'C', type: 'credentials', credentials: {}, authorize: () => null };
		const result = withEnvDefaults({ AUTH_CREDENTIALS_ID: 'x' }, { providers: [credentials] }).providers[0];
		expect(result).toEqual(credentials);
		expect(result && 'clientId' in result).toBe(false);
	});

	it('leaves OAuth fields unset when the environment has nothing', () => {
		const provider = asOAuth(withEnvDefaults({}, { providers: [oauth('github')] }).providers[0] as ProviderConfig);
		expect(provider.clientId).toBeUndefined();
		expect(provider.clientSecret).toBeUndefined();
	});
});

describe('withEnvDefaults does not mutate the user config', () => {
	it('works on a deep-frozen config and returns a new object', () => {
		const preset: Provider = (options) => ({ ...oauth('fn'), ...options });
		const config: AuthConfig = deepFreeze({
			providers: [oauth('github'), preset],
			session: { maxAge: 60 },
			cookies: { sessionToken: { name: 'x' } }
		});
		const env: Env = {
			AUTH_SECRET: 's',
			AUTH_URL: 'https://app.example/api/auth',
			AUTH_GITHUB_ID: 'id',
			AUTH_FN_ID: 'fn-id',
			AUTH_REDIRECT_PROXY_URL: 'https://p.example'
		};
		const result = withEnvDefaults(env, config);
		expect(result).not.toBe(config);
		expect(result.providers).not.toBe(config.providers);
		expect(result.secret).toEqual(['s']);
		expect(config.secret).toBeUndefined();
		expect(config.basePath).toBeUndefined();
		expect(config.trustHost).toBeUndefined();
		expect(asOAuth(config.providers[0] as ProviderConfig).clientId).toBeUndefined();
		expect(asOAuth(result.providers[1] as ProviderConfig).clientId).toBe('fn-id');
	});
});

describe('setEnvDefaults', () => {
	it('mutates its argument by contract', () => {
		const providers = [oauth('github')];
		const config: AuthConfig = { providers };
		const returned: unknown = setEnvDefaults({ AUTH_SECRET: 'sec', AUTH_GITHUB_ID: 'gid', NODE_ENV: 'production' }, config);
		expect(returned).toBeUndefined();
		expect(config.secret).toEqual(['sec']);
		expect(config.basePath).toBe('/auth');
		expect(config.trustHost).toBe(false);
		expect(asOAuth(config.providers[0] as ProviderConfig).clientId).toBe('gid');
	});

	it('keeps explicit values', () => {
		const config: AuthConfig = { providers: [], secret: 'mine', basePath: '/custom', trustHost: true };
		setEnvDefaults({ AUTH_SECRET: 'env', AUTH_URL: 'https://a.example/other' }, config, true);
		expect(config.secret).toBe('mine');
		expect(config.basePath).toBe('/custom');
		expect(config.trustHost).toBe(true);
	});

	it("one AUTH_SECRET becomes an array of one, as @auth/core's setEnvDefaults makes it", () => {
		for (const env of [{ AUTH_SECRET: 'only' }, { AUTH_SECRET: 'new', AUTH_SECRET_1: 'old' }, {}]) {
			const ours: AuthConfig = { providers: [] };
			const theirs: AuthJsConfig = { providers: [] };
			setEnvDefaults(env, ours);
			authjsSetEnvDefaults(env, theirs);
			expect(ours.secret).toEqual(theirs.secret);
		}
	});

	it("warns through the config's logger when AUTH_URL and basePath name the same path, as @auth/core does", () => {
		const env = { AUTH_URL: 'https://a.example/api/auth', AUTH_SECRET: 's' };
		const ours = warnSpy();
		setEnvDefaults(env, { providers: [], basePath: '/api/auth', logger: ours.logger });
		const theirs = warnSpy();
		authjsSetEnvDefaults(env, { providers: [], basePath: '/api/auth', logger: theirs.logger });
		expect(ours.codes).toEqual(['env-url-basepath-redundant']);
		expect(ours.codes).toEqual(theirs.codes);
	});

	it('names a differing path a mismatch, and stays quiet for a root AUTH_URL (where @auth/core says redundant)', () => {
		const differ = warnSpy();
		setEnvDefaults({ AUTH_URL: 'https://a.example/api/auth' }, { providers: [], basePath: '/auth', logger: differ.logger });
		expect(differ.codes).toEqual(['env-url-basepath-mismatch']);
		const root = warnSpy();
		setEnvDefaults({ AUTH_URL: 'https://a.example' }, { providers: [], basePath: '/auth', logger: root.logger });
		expect(root.codes).toEqual([]);
		// The documented difference: Auth.js warns whenever both are set, so @auth/sveltekit always did.
		const authjsRoot = warnSpy();
		authjsSetEnvDefaults({ AUTH_URL: 'https://a.example' }, { providers: [], basePath: '/auth', logger: authjsRoot.logger });
		expect(authjsRoot.codes).toEqual(['env-url-basepath-redundant']);
	});

	it('suppressBasePathWarning silences it, as in @auth/core', () => {
		const env = { AUTH_URL: 'https://a.example/api/auth' };
		const ours = warnSpy();
		setEnvDefaults(env, { providers: [], basePath: '/api/auth', logger: ours.logger }, true);
		const theirs = warnSpy();
		authjsSetEnvDefaults(env, { providers: [], basePath: '/api/auth', logger: theirs.logger }, true);
		expect(ours.codes).toEqual([]);
		expect(theirs.codes).toEqual([]);
	});
});

describe('createActionURL', () => {
	const headers = (init: Record<string, string>): Headers => new Headers(init);

	it('AUTH_URL wins over x-forwarded-host and host', () => {
		const url = createActionURL(
			'session',
			'http:',
			headers({ host: 'internal:3000', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' }),
			{ AUTH_URL: 'https://app.example' },
			{}
		);
		expect(url.href).toBe('https://app.example/auth/session');
	});

	it('uses the path of AUTH_URL as base path when none is configured', () => {
		expect(createActionURL('signin', 'http:', headers({}), { AUTH_URL: 'https://app.example/api/auth' }, {}).href).toBe(
			'https://app.example/api/auth/signin'
		);
		expect(createActionURL('signin', 'http:', headers({}), { AUTH_URL: 'https://app.example/api/auth/' }, {}).href).toBe(
			'https://app.example/api/auth/signin'
		);
	});

	it('a configured basePath wins over the path of AUTH_URL', () => {
		expect(
			createActionURL('signout', 'http:', headers({}), { AUTH_URL: 'https://app.example/api/auth' }, { basePath: '/custom', logger: warnSpy().logger })
				.href
		).toBe('https://app.example/custom/signout');
	});

	it('falls back to NEXTAUTH_URL', () => {
		expect(createActionURL('csrf', 'http:', headers({ host: 'h' }), { NEXTAUTH_URL: 'https://legacy.example' }, {}).href).toBe(
			'https://legacy.example/auth/csrf'
		);
	});

	it('without AUTH_URL uses x-forwarded-host and x-forwarded-proto', () => {
		const url = createActionURL(
			'session',
			'http:',
			headers({ host: 'internal:3000', 'x-forwarded-host': 'public.example', 'x-forwarded-proto': 'https' }),
			{},
			{}
		);
		expect(url.href).toBe('https://public.example/auth/session');
	});

	it('without forwarded headers uses host and the protocol argument (with or without a colon)', () => {
		expect(createActionURL('session', 'http:', headers({ host: 'localhost:5173' }), {}, {}).href).toBe(
			'http://localhost:5173/auth/session'
		);
		expect(createActionURL('session', 'http', headers({ host: 'localhost:5173' }), {}, {}).href).toBe(
			'http://localhost:5173/auth/session'
		);
	});

	it('ignores an AUTH_URL that is not http(s)', () => {
		expect(createActionURL('session', 'https:', headers({ host: 'h.example' }), { AUTH_URL: 'ftp://x.example' }, {}).href).toBe(
			'https://h.example/auth/session'
		);
	});

	it.each([
		['/auth', 'https://h.example/auth/providers'],
		['/auth/', 'https://h.example/auth/providers'],
		['auth', 'https://h.example/auth/providers'],
		['/a/b/c', 'https://h.example/a/b/c/providers'],
		['//a//', 'https://h.example/a/providers'],
		['/', 'https://h.example/providers'],
		['', 'https://h.example/providers']
	])('basePath %j → %s', (basePath, expected) => {
		expect(createActionURL('providers', 'https:', headers({ host: 'h.example' }), {}, { basePath }).href).toBe(expected);
	});

	it.each([
		['https://app.example/api/auth', '/custom'],
		['https://app.example/api/auth', '/api/auth'],
		['https://app.example', '/custom'],
		['https://app.example/api/auth', undefined]
	])("AUTH_URL %s with basePath %s: the same URL and warnings as @auth/core's", (authUrl, basePath) => {
		const ours = warnSpy();
		const theirs = warnSpy();
		const env = { AUTH_URL: authUrl };
		const url = createActionURL('signin', 'https:', headers({}), env, { basePath, logger: ours.logger });
		const expected = authjsCreateActionURL('signin', 'https:', headers({}), env, { basePath, logger: theirs.logger });
		expect(ours.codes).toEqual(theirs.codes);
		expect(url.href).toBe(expected.href);
	});

	it('a basePath that differs from the path of AUTH_URL warns env-url-basepath-mismatch', () => {
		const spy = warnSpy();
		createActionURL('signin', 'https:', headers({}), { AUTH_URL: 'https://app.example/api/auth/' }, { basePath: '/auth', logger: spy.logger });
		expect(spy.codes).toEqual(['env-url-basepath-mismatch']);
	});

	it('does not read process.env', () => {
		vi.stubEnv('AUTH_URL', 'https://from-process.example');
		try {
			expect(createActionURL('session', 'https:', headers({ host: 'h.example' }), {}, {}).href).toBe('https://h.example/auth/session');
		} finally {
			vi.unstubAllEnvs();
		}
	});
});
