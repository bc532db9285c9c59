import { describe, expect, it } from 'vitest';
import { createRuntime, resolveOptions } from '../../src/lib/core/config.js';
import { lazyAuthServer } from '../../src/lib/core/index.js';
import {
	AuthError,
	ExperimentalFeatureNotEnabled,
	InvalidEndpoints,
	InvalidProvider,
	MissingAdapter,
	MissingAuthorize,
	MissingSecret,
	UnsupportedStrategy
} from '../../src/lib/core/errors.js';
import { raw, skipCSRFCheck } from '../../src/lib/core/markers.js';
import { decode, encode } from '../../src/lib/core/session/jwt.js';
import Credentials from '../../src/lib/providers/credentials.js';
import type { Adapter } from '../../src/lib/core/types/adapter.js';
import type { AuthConfig, LoggerInstance, SessionOptions, WarningCode } from '../../src/lib/core/types/config.js';
import type { Provider, ProviderConfig } from '../../src/lib/core/types/provider.js';

const SECRET = 'a'.repeat(16) + 'b'.repeat(16) + 'c';
const ENV = { AUTH_SECRET: SECRET };

function deepFreeze<T>(value: T): T {
	if (value && (typeof value === 'object' || typeof value === 'function') && !Object.isFrozen(value)) {
		Object.freeze(value);
		for (const key of Reflect.ownKeys(value as object)) deepFreeze((value as Record<PropertyKey, unknown>)[key]);
	}
	return value;
}

function recorder(): { logger: Partial<LoggerInstance>; warnings: WarningCode[] } {
	const warnings: WarningCode[] = [];
	return { logger: { warn: (code) => warnings.push(code), error: () => {}, debug: () => {} }, warnings };
}

function credentials(id = 'credentials'): ProviderConfig {
	return Credentials({ id, authorize: () => null });
}

function throwsAuthError(fn: () => unknown): AuthError {
	try {
		fn();
	} catch (error) {
		if (error instanceof AuthError) return error;
		throw new Error(`expected an AuthError, got ${String(error)}`);
	}
	throw new Error('expected a throw');
}

const sessionAdapter = (): Adapter => ({
	createSession: (session) => session,
	getSessionAndUser: () => null,
	updateSession: () => null,
	deleteSession: () => undefined
});

describe('resolveOptions: the secret', () => {
	it('throws MissingSecret when there is none, telling how to make one', () => {
		const error = throwsAuthError(() => resolveOptions({ providers: [] }, { env: {} }));
		expect(error).toBeInstanceOf(MissingSecret);
		expect(error.type).toBe('MissingSecret');
		expect(error.message).toContain('AUTH_SECRET');
		expect(error.message).toMatch(/openssl rand|randomBytes/);
	});

	it('says it is required in production', () => {
		const error = throwsAuthError(() => resolveOptions({ providers: [] }, { env: { NODE_ENV: 'production' } }));
		expect(error).toBeInstanceOf(MissingSecret);
		expect(error.message).toContain('production');
	});

	it('an empty secret or a list of empty secrets counts as missing', () => {
		expect(() => resolveOptions({ providers: [], secret: '' }, { env: {} })).toThrow(MissingSecret);
		expect(() => resolveOptions({ providers: [], secret: ['', ''] }, { env: {} })).toThrow(MissingSecret);
		expect(() => resolveOptions({ providers: [] }, { env: { AUTH_SECRET: '' } })).toThrow(MissingSecret);
	});

	it('takes the secret from the given env, not process.env', () => {
		const options = resolveOptions({ providers: [] }, { env: { AUTH_SECRET_1: 'n'.repeat(40), AUTH_SECRET: 'o'.repeat(40) } });
		expect(options.secrets).toEqual(['n'.repeat(40), 'o'.repeat(40)]);
		expect(options.csrfSecret).toBe(`${'n'.repeat(40)},${'o'.repeat(40)}`);
		expect(options.keyring.secrets).toEqual(options.secrets);
	});

	it('warns short-secret through a custom logger for a secret under 32 characters', () => {
		const { logger, warnings } = recorder();
		resolveOptions({ providers: [], secret: 'short', logger }, { env: {} });
		expect(warnings).toContain('short-secret');
	});

	it('warns short-secret when any rotated secret is short', () => {
		const { logger, warnings } = recorder();
		resolveOptions({ providers: [], secret: [SECRET, 'old'], logger }, { env: {} });
		expect(warnings).toContain('short-secret');
	});

	it('does not warn for a 32-character secret', () => {
		const { logger, warnings } = recorder();
		resolveOptions({ providers: [], secret: 'x'.repeat(32), logger }, { env: {} });
		expect(warnings).not.toContain('short-secret');
	});
});

describe('resolveOptions: defaults', () => {
	it('jwt strategy without an adapter, 30-day maxAge, 1-day updateAge', () => {
		const options = resolveOptions({ providers: [] }, { env: ENV });
		expect(options.session.strategy).toBe('jwt');
		expect(options.session.maxAge).toBe(2592000);
		expect(options.session.updateAge).toBe(86400);
		expect(options.jwt.maxAge).toBe(2592000);
		expect(options.basePath).toBe('/auth');
		expect(options.builtinJwt).toBe(true);
		expect(options.jwt.encode).toBe(encode);
		expect(options.jwt.decode).toBe(decode);
		expect(options.skipCSRFCheck).toBe(false);
		expect(options.raw).toBe(false);
		expect(options.enableWebAuthn).toBe(false);
		expect(options.theme).toEqual({ colorScheme: 'auto', logo: '', brandColor: '', buttonText: '' });
	});

	it('database strategy with an adapter', () => {
		expect(resolveOptions({ providers: [], adapter: sessionAdapter() }, { env: ENV }).session.strategy).toBe('database');
	});

	it('session tokens are random and long', () => {
		const { session } = resolveOptions({ providers: [] }, { env: ENV });
		const a = session.generateSessionToken();
		expect(a).not.toBe(session.generateSessionToken());
		expect(a.length).toBeGreaterThanOrEqual(43);
	});

	it('explicit session options win; undefined ones do not erase defaults; jwt.maxAge follows session.maxAge', () => {
		const options = resolveOptions({ providers: [], session: { maxAge: 3600, updateAge: undefined } }, { env: ENV });
		expect(options.session.maxAge).toBe(3600);
		expect(options.session.updateAge).toBe(86400);
		expect(options.jwt.maxAge).toBe(3600);
	});

	it('custom jwt encode/decode turn the built-in path off', () => {
		const options = resolveOptions({ providers: [], jwt: { encode: () => 'x' } }, { env: ENV });
		expect(options.builtinJwt).toBe(false);
	});

	it('recognises the raw and skipCSRFCheck markers: kitauth’s by identity, Auth.js’s by theirs', async () => {
		expect(resolveOptions({ providers: [], raw, skipCSRFCheck }, { env: ENV })).toMatchObject({ raw: true, skipCSRFCheck: true });
		const lookAlike = Symbol('kitauth.skip-csrf-check');
		expect(resolveOptions({ providers: [], skipCSRFCheck: lookAlike }, { env: ENV }).skipCSRFCheck).toBe(false);
		// @auth/core's own symbols, as an app switching over passes them.
		const authjs = await import('@auth/core');
		const theirs = resolveOptions({ providers: [], raw: authjs.raw, skipCSRFCheck: authjs.skipCSRFCheck }, { env: ENV });
		expect(theirs).toMatchObject({ raw: true, skipCSRFCheck: true });
		expect(resolveOptions({ providers: [], skipCSRFCheck: Symbol('other') }, { env: ENV }).skipCSRFCheck).toBe(false);
	});

	it('normalizes the base path', () => {
		expect(resolveOptions({ providers: [], basePath: '/custom/' }, { env: ENV }).basePath).toBe('/custom');
		expect(resolveOptions({ providers: [], basePath: '/' }, { env: ENV }).basePath).toBe('');
		expect(resolveOptions({ providers: [] }, { env: { ...ENV, AUTH_URL: 'https://a.example/api/auth' } }).basePath).toBe('/api/auth');
	});

	it('trustHost and siteUrl come from the given env', () => {
		expect(resolveOptions({ providers: [] }, { env: { ...ENV, NODE_ENV: 'production' } }).trustHost).toBe(false);
		const withUrl = resolveOptions({ providers: [] }, { env: { ...ENV, NODE_ENV: 'production', AUTH_URL: 'https://a.example' } });
		expect(withUrl.trustHost).toBe(true);
		expect(withUrl.siteUrl?.origin).toBe('https://a.example');
	});
});

describe('resolveOptions: frozen, cached, and the user config untouched', () => {
	it('the result and its parts are frozen', () => {
		const options = resolveOptions({ providers: [credentials()], callbacks: {}, pages: { signIn: '/login' } }, { env: ENV });
		expect(Object.isFrozen(options)).toBe(true);
		for (const part of [options.session, options.jwt, options.callbacks, options.pages, options.theme, options.providers, options.env]) {
			expect(Object.isFrozen(part)).toBe(true);
		}
		expect(Object.isFrozen(options.providers[0])).toBe(true);
	});

	it('a lazy server is built once per config object', async () => {
		const servers = lazyAuthServer((config: AuthConfig) => config, { env: ENV });
		const config: AuthConfig = { providers: [] };
		const first = await servers(config);
		expect(await servers(config)).toBe(first);
		expect(await servers({ providers: [] })).not.toBe(first);
	});

	it('shares keyrings through the runtime', () => {
		const runtime = createRuntime();
		const a = resolveOptions({ providers: [] }, { env: ENV, runtime });
		const b = resolveOptions({ providers: [] }, { env: ENV, runtime });
		expect(a).not.toBe(b);
		expect(a.keyring).toBe(b.keyring);
		expect(a.runtime).toBe(runtime);
		expect(resolveOptions({ providers: [] }, { env: ENV }).keyring).not.toBe(a.keyring);
	});

	it('leaves a deep-frozen user config untouched', () => {
		const preset: Provider = (options) => ({ ...credentials('fn'), ...options });
		const config: AuthConfig = deepFreeze({
			providers: [credentials(), preset],
			session: { maxAge: 600 },
			callbacks: { redirect: ({ baseUrl }: { url: string; baseUrl: string }) => baseUrl },
			pages: { signIn: '/login' },
			cookies: { sessionToken: { name: 'sid' } },
			theme: { brandColor: '#123456' }
		});
		const before = JSON.stringify(config);
		const options = resolveOptions(config, { env: { ...ENV, AUTH_URL: 'https://a.example/x' } });
		expect(JSON.stringify(config)).toBe(before);
		expect(config.secret).toBeUndefined();
		expect(config.basePath).toBeUndefined();
		expect(options.providers.map((p) => p.id)).toEqual(['credentials', 'fn']);
		expect(options.session.maxAge).toBe(600);
		expect(options.theme.brandColor).toBe('#123456');
	});
});

describe('resolveOptions: configuration errors', () => {
	it.each(['auth', 'https://a.example/auth', '/a b', '/auth?x=1', '/auth#x', '', '/a\\b'])('basePath %j → InvalidEndpoints', (basePath) => {
		expect(() => resolveOptions({ providers: [], basePath }, { env: ENV })).toThrow(InvalidEndpoints);
	});

	it.each([
		['absolute URL', { signIn: 'https://evil.example/login' }],
		['protocol-relative', { error: '//evil.example' }],
		['relative without slash', { signOut: 'logout' }],
		['javascript:', { verifyRequest: 'javascript:alert(1)' }]
	])('pages with a %s → InvalidEndpoints', (_name, pages) => {
		expect(() => resolveOptions({ providers: [], pages }, { env: ENV })).toThrow(InvalidEndpoints);
	});

	it('accepts site paths for pages', () => {
		expect(resolveOptions({ providers: [], pages: { signIn: '/login', error: '/oops' } }, { env: ENV }).pages).toEqual({
			signIn: '/login',
			error: '/oops'
		});
	});

	it('duplicate provider ids → InvalidProvider', () => {
		expect(() => resolveOptions({ providers: [credentials('dup'), credentials('dup')] }, { env: ENV })).toThrow(InvalidProvider);
	});

	it.each(['', 'has space', 'a/b', '../x', '-lead', 'x'.repeat(65)])('provider id %j → InvalidProvider', (id) => {
		expect(() => resolveOptions({ providers: [credentials(id)] }, { env: ENV })).toThrow(InvalidProvider);
	});

	it('credentials without authorize → MissingAuthorize', () => {
		const broken = { id: 'credentials', name: 'C', type: 'credentials', credentials: {} };
		expect(() => resolveOptions({ providers: [broken as unknown as ProviderConfig] }, { env: ENV })).toThrow(MissingAuthorize);
	});

	it('database strategy without an adapter → MissingAdapter', () => {
		expect(() => resolveOptions({ providers: [], session: { strategy: 'database' } }, { env: ENV })).toThrow(MissingAdapter);
	});

	it('an unknown strategy → UnsupportedStrategy', () => {
		const session = { strategy: 'cookie' } as unknown as Partial<SessionOptions>;
		expect(() => resolveOptions({ providers: [], session }, { env: ENV })).toThrow(UnsupportedStrategy);
	});

	it('an OAuth provider without issuer or endpoints → InvalidEndpoints', () => {
		expect(() => resolveOptions({ providers: [{ id: 'idp', name: 'IdP', type: 'oauth', clientId: 'cid' }] }, { env: ENV })).toThrow(InvalidEndpoints);
	});

	it('an OAuth provider without a client id → InvalidProvider naming AUTH_<ID>_ID', () => {
		expect(() => resolveOptions({ providers: [{ id: 'my-idp', name: 'IdP', type: 'oidc', issuer: 'https://idp.example' }] }, { env: ENV })).toThrow(
			/AUTH_MY_IDP_ID/
		);
	});

	it('an OAuth provider gets its issuer from AUTH_<ID>_ISSUER', () => {
		const options = resolveOptions(
			{ providers: [{ id: 'idp', name: 'IdP', type: 'oidc' }] },
			{ env: { ...ENV, AUTH_IDP_ISSUER: 'https://idp.example', AUTH_IDP_ID: 'cid', AUTH_IDP_SECRET: 'csecret' } }
		);
		expect(options.providers[0]).toMatchObject({ issuer: 'https://idp.example', clientId: 'cid', clientSecret: 'csecret' });
	});

	it('a webauthn provider without experimental.enableWebAuthn → ExperimentalFeatureNotEnabled', () => {
		const webauthn = { id: 'passkey', name: 'Passkey', type: 'webauthn' } as unknown as ProviderConfig;
		expect(() => resolveOptions({ providers: [webauthn] }, { env: ENV })).toThrow(ExperimentalFeatureNotEnabled);
	});

	it('a failed resolve is not cached', () => {
		const config: AuthConfig = { providers: [] };
		expect(() => resolveOptions(config, { env: {} })).toThrow(MissingSecret);
		expect(resolveOptions(config, { env: ENV }).secrets).toEqual([SECRET]);
	});
});
