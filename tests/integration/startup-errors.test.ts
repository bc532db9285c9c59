/**
 * Configuration mistakes through the core's server API: a configuration object is resolved when
 * its server is made (`createAuthServer`, `lazyAuthServer(config)`), so its mistakes stop the
 * start-up; a configuration function's at the first request, logged once (every later request
 * fails alike, and is not logged again); and `Auth()` with a broken config object logs it once.
 */
import { describe, expect, test, vi } from 'vitest';
import {
	Auth,
	type AuthConfig,
	createAuthServer,
	InvalidEndpoints,
	InvalidProvider,
	isConfigurationFailure,
	lazyAuthServer,
	MissingAdapter,
	MissingSecret
} from '../../src/lib/core/index.js';
import Nodemailer from '../../src/lib/providers/nodemailer.js';
import { ORIGIN, passwordProvider, SECRET, setup } from './fixtures.js';

const PRODUCTION = { NODE_ENV: 'production' };
const oidc = { id: 'corp', name: 'Corp', type: 'oidc' as const, issuer: 'https://sso.corp.example', clientId: 'app' };
const plainOAuth = { ...oidc, id: 'legacy', type: 'oauth' as const, issuer: undefined, authorization: 'https://l.example/a', token: 'https://l.example/t', clientSecret: 's' };

/** A logger that records (the user's own, as the configuration gives it). */
function recording() {
	const errors: Error[] = [];
	return { errors, logger: { error: (error: Error) => void errors.push(error), warn: () => {}, debug: () => {} } };
}

describe('a configuration object: refused when its server is made', () => {
	const cases: [string, AuthConfig, new (...args: never[]) => Error, RegExp][] = [
		['no secret', { providers: [passwordProvider()] }, MissingSecret, /AUTH_SECRET.*openssl rand -base64 33/s],
		['a provider without its client secret', { secret: SECRET, providers: [oidc] }, InvalidProvider, /"corp".*AUTH_CORP_SECRET/],
		['a plain OAuth 2 provider with no userinfo', { secret: SECRET, providers: [plainOAuth] }, InvalidEndpoints, /"legacy".*userinfo/],
		['an email provider without an adapter', { secret: SECRET, providers: [Nodemailer({ server: 'smtp://127.0.0.1:1' })] }, MissingAdapter, /adapter/]
	];
	test.each(cases)('%s', (_case, config, type, message) => {
		expect(() => createAuthServer(config, { env: PRODUCTION })).toThrow(type);
		expect(() => lazyAuthServer(config, { env: PRODUCTION })).toThrow(type);
		expect(() => lazyAuthServer(config, { env: PRODUCTION })).toThrow(message);
	});
});

describe('a configuration function: at the first request, logged once', () => {
	test('every request fails alike with the same error; it is logged once, and no other way', async () => {
		const { errors, logger } = recording();
		let calls = 0;
		const servers = lazyAuthServer((_request: Request): AuthConfig => {
			calls++;
			return { providers: [passwordProvider()], logger };
		}, { env: PRODUCTION });
		const failures: unknown[] = [];
		for (let i = 0; i < 5; i++) failures.push(await servers(new Request(`${ORIGIN}/page-${i}`)).catch((error: unknown) => error));
		expect(calls).toBe(5);
		for (const failure of failures) {
			expect(failure).toBeInstanceOf(MissingSecret);
			expect(isConfigurationFailure(failure)).toBe(true);
		}
		expect(errors).toHaveLength(1);
		expect(errors[0]).toBeInstanceOf(MissingSecret);
		expect(errors[0]?.message).toMatch(/AUTH_SECRET/);
	});

	test('a config object that failed once is not resolved again', async () => {
		const { errors, logger } = recording();
		const broken: AuthConfig = { secret: SECRET, providers: [oidc], logger };
		const servers = lazyAuthServer(() => broken, { env: PRODUCTION });
		const first = await servers(undefined).catch((error: unknown) => error);
		expect(await servers(undefined).catch((error: unknown) => error)).toBe(first);
		expect(first).toBeInstanceOf(InvalidProvider);
		expect(errors).toHaveLength(1);
	});

	test("each distinct mistake is logged once; other tenants' configs keep working", async () => {
		const { errors, logger } = recording();
		const tenants: Record<string, AuthConfig> = {
			ok: { secret: SECRET, trustHost: true, providers: [passwordProvider()], logger },
			secretless: { secret: SECRET, providers: [oidc], logger },
			profileless: { secret: SECRET, providers: [plainOAuth], logger }
		};
		const servers = lazyAuthServer((tenant: string) => ({ ...tenants[tenant]! }), { env: PRODUCTION });
		for (let round = 0; round < 3; round++) {
			await expect(servers('secretless')).rejects.toBeInstanceOf(InvalidProvider);
			await expect(servers('profileless')).rejects.toBeInstanceOf(InvalidEndpoints);
			const res = await (await servers('ok')).handle(new Request(`${ORIGIN}/auth/session`));
			expect(res.status).toBe(200);
		}
		expect(errors.map((e) => e.name)).toEqual(['InvalidProvider', 'InvalidEndpoints']);
	});

	test("the function's own failure is its own: not a configuration failure, not logged by kitauth", async () => {
		const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
		const down = new Error('the tenant database is down');
		const servers = lazyAuthServer((): AuthConfig => {
			throw down;
		});
		try {
			const failure = await servers(undefined).catch((error: unknown) => error);
			expect(failure).toBe(down);
			expect(isConfigurationFailure(failure)).toBe(false);
			expect(printed).not.toHaveBeenCalled();
		} finally {
			printed.mockRestore();
		}
	});
});

test('Auth() with a broken config object: 500 every time, logged once', async () => {
	const { errors, logger } = recording();
	const config: AuthConfig = { secret: SECRET, trustHost: true, providers: [oidc], logger };
	for (let i = 0; i < 4; i++) {
		const res = await Auth(new Request(`${ORIGIN}/auth/session`), config);
		expect(res.status).toBe(500);
		expect(await res.json()).toEqual({ message: 'Server error' });
	}
	expect(errors.map((e) => e.name)).toEqual(['InvalidProvider']);
	// A working config object beside it is unaffected.
	expect((await setup().client().get('session')).status).toBe(200);
});
