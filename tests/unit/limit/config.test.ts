/**
 * `AuthConfig.rateLimit` through `resolveOptions`: on and off (production default, config,
 * AUTH_RATE_LIMIT), the default store (adapter, else memory with a warning in production),
 * configuration errors, and state that outlives lazy configurations.
 */
import { createClient } from '@libsql/client';
import { afterEach, describe, expect, it } from 'vitest';
import { LibSQLAdapter, migrate } from '../../../src/lib/adapters/libsql/index.js';
import { createRuntime, resolveOptions } from '../../../src/lib/core/config.js';
import { AuthError, InvalidRateLimit } from '../../../src/lib/core/errors.js';
import { disabledLimiter } from '../../../src/lib/core/limit/limiter.js';
import type { AuthConfig, LoggerInstance, WarningCode } from '../../../src/lib/core/types/config.js';
import type { RateLimitConfig } from '../../../src/lib/core/types/limit.js';
import { RecordingStore } from './support.js';

const SECRET = 'config-test-secret-0123456789abcdefgh';
const BASE = { AUTH_SECRET: SECRET };
const attempt = { address: '192.0.2.1', headers: new Headers() };

function recorder(): { logger: Partial<LoggerInstance>; warnings: WarningCode[] } {
	const warnings: WarningCode[] = [];
	return { logger: { warn: (code) => warnings.push(code), error: () => {}, debug: () => {} }, warnings };
}

function enabled(rateLimit: AuthConfig['rateLimit'], env: Record<string, string>): boolean {
	const { logger } = recorder();
	return resolveOptions({ providers: [], rateLimit, logger }, { env: { ...BASE, ...env } }).limiter.enabled;
}

const closers: (() => void)[] = [];
afterEach(() => closers.splice(0).forEach((close) => close()));

describe('on or off', () => {
	it('omitted: on in production only', () => {
		expect(enabled(undefined, { NODE_ENV: 'production' })).toBe(true);
		expect(enabled(undefined, { NODE_ENV: 'development' })).toBe(false);
		expect(enabled(undefined, {})).toBe(false);
	});

	it('true or an object: on, also in development; false or enabled: false: off, also in production', () => {
		expect(enabled(true, {})).toBe(true);
		expect(enabled({ rules: {} }, {})).toBe(true);
		expect(enabled(false, { NODE_ENV: 'production' })).toBe(false);
		expect(enabled({ enabled: false }, { NODE_ENV: 'production' })).toBe(false);
	});

	it('AUTH_RATE_LIMIT=off wins over everything (load tests); =on turns the default on', () => {
		for (const off of ['off', 'OFF', 'false', '0', 'no']) {
			expect(enabled(undefined, { NODE_ENV: 'production', AUTH_RATE_LIMIT: off }), off).toBe(false);
			expect(enabled(true, { AUTH_RATE_LIMIT: off }), off).toBe(false);
			expect(enabled({ enabled: true }, { AUTH_RATE_LIMIT: off }), off).toBe(false);
		}
		expect(enabled(undefined, { AUTH_RATE_LIMIT: 'on' })).toBe(true);
		expect(enabled(false, { AUTH_RATE_LIMIT: 'on' })).toBe(false);
		expect(enabled(undefined, { AUTH_RATE_LIMIT: 'sometimes' })).toBe(false);
	});

	it('off: the limiter allows everything without a store', async () => {
		const store = new RecordingStore();
		const options = resolveOptions({ providers: [], rateLimit: { enabled: false, store } }, { env: BASE });
		expect(options.limiter).toBe(disabledLimiter);
		for (let i = 0; i < 100; i++) expect(await options.limiter.check('oauth-start', attempt)).toMatchObject({ allowed: true });
		expect(store.hits).toHaveLength(0);
	});
});

describe('the store', () => {
	it('a configured store is used', async () => {
		const store = new RecordingStore();
		const { limiter } = resolveOptions({ providers: [], rateLimit: { store } }, { env: BASE });
		await limiter.check('oauth-start', attempt);
		expect(store.hits.map((hit) => hit.key)).toEqual(['oauth-start:a:192.0.2.1']);
	});

	it("by default, the adapter's counters (kitauth's libSQL adapter has them), and no warning", async () => {
		const client = createClient({ url: ':memory:' });
		closers.push(() => client.close());
		await migrate(client);
		const { logger, warnings } = recorder();
		const config: AuthConfig = { providers: [], adapter: LibSQLAdapter(client), logger };
		const { limiter } = resolveOptions(config, { env: { ...BASE, NODE_ENV: 'production' } });
		for (let i = 0; i < 3; i++) await limiter.check('credentials', { ...attempt, identifier: 'a@example.com' });
		const rows = await client.execute('SELECT key, count FROM rateLimit ORDER BY key');
		expect(rows.rows.map((row) => [String(row['key']).split(':').slice(0, 2).join(':'), Number(row['count'])])).toEqual([
			['credentials:a', 3],
			['credentials:i', 3]
		]);
		expect(warnings).not.toContain('rate-limit-memory-store');
	});

	it('without one: memory, with a warning in production, once per instance across lazy configs', async () => {
		const runtime = createRuntime(); // one per long-lived instance (lazyAuthServer makes it)
		const { logger, warnings } = recorder();
		const env = { ...BASE, NODE_ENV: 'production' };
		const rules: RateLimitConfig['rules'] = { 'oauth-start': { address: { limit: 2 } } };
		// A lazy config: a new object per request, resolved per request.
		const perRequest = () => resolveOptions({ providers: [], logger, rateLimit: { rules } }, { env, runtime });
		const decisions = [];
		for (let i = 0; i < 3; i++) decisions.push((await perRequest().limiter.check('oauth-start', attempt)).allowed);
		expect(decisions).toEqual([true, true, false]);
		expect(warnings.filter((code) => code === 'rate-limit-memory-store')).toHaveLength(1);
	});

	it('an adapter with hitRateLimit but no releaseRateLimit (written before refunds) is refused at start-up; with the limiter off it still keeps one-time records', async () => {
		const client = createClient({ url: ':memory:' });
		closers.push(() => client.close());
		await migrate(client);
		const { releaseRateLimit: _release, ...older } = LibSQLAdapter(client);
		const config = (rateLimit: AuthConfig['rateLimit']): AuthConfig => ({ providers: [], adapter: older, session: { strategy: 'jwt' }, rateLimit });
		expect(() => resolveOptions(config(true), { env: BASE })).toThrow(/hitRateLimit but no releaseRateLimit/);
		expect(() => resolveOptions(config(true), { env: BASE })).toThrow(InvalidRateLimit);
		const { once } = resolveOptions(config(false), { env: BASE });
		expect(await once.claim('oauth-state', 'state-1', 60_000)).toBe(true);
		expect(await once.claim('oauth-state', 'state-1', 60_000)).toBe(false);
	});

	it('an adapter without the counter methods (Auth.js adapters) means memory', async () => {
		const { logger, warnings } = recorder();
		const adapter = { getUser: () => null };
		const config: AuthConfig = { providers: [], adapter, session: { strategy: 'jwt' }, logger };
		resolveOptions(config, { env: { ...BASE, NODE_ENV: 'production' } });
		expect(warnings).toContain('rate-limit-memory-store');
	});
});

describe('configuration errors', () => {
	const bad: [string, unknown][] = [
		['a string', 'yes'],
		['a store without sweep', { store: { hit: () => {}, release: () => {}, reset: () => {} } }],
		['a store without release (written before refunds)', { store: { hit: () => {}, reset: () => {}, sweep: () => {} } }],
		['failOpen not a boolean', { failOpen: 'false' }],
		['enabled not a boolean', { enabled: 1 }],
		['ipv6Prefix out of range', { ipv6Prefix: 129 }],
		['timeout zero', { timeout: 0 }],
		['clientAddress without a header', { clientAddress: {} }],
		['clientAddress with a bad header name', { clientAddress: { header: 'x forwarded for' } }],
		['clientAddress depth 0', { clientAddress: { header: 'x-forwarded-for', depth: 0 } }],
		['now not a function', { now: 5 }],
		['a bad rule', { rules: { credentials: { address: { limit: -1 } } } }]
	];

	it('are InvalidRateLimit, found at start-up, even where the limiter would be off', () => {
		for (const [name, rateLimit] of bad) {
			for (const env of [BASE, { ...BASE, NODE_ENV: 'production' }]) {
				let thrown: unknown;
				try {
					resolveOptions({ providers: [], rateLimit: rateLimit as RateLimitConfig }, { env });
				} catch (error) {
					thrown = error;
				}
				expect(thrown, name).toBeInstanceOf(InvalidRateLimit);
				expect((thrown as AuthError).type).toBe('InvalidRateLimit');
			}
		}
	});
});

describe('the options object', () => {
	it('holds a frozen limiter and leaves the config untouched', () => {
		const rateLimit = Object.freeze({ rules: Object.freeze({ credentials: Object.freeze({ address: Object.freeze({ limit: 5 }) }) }) });
		const options = resolveOptions({ providers: [], rateLimit }, { env: BASE });
		expect(Object.isFrozen(options.limiter)).toBe(true);
		expect(options.limiter.enabled).toBe(true);
		expect(rateLimit).toEqual({ rules: { credentials: { address: { limit: 5 } } } });
	});

	it('the rateLimited event reaches the configured handler', async () => {
		const messages: unknown[] = [];
		const { limiter } = resolveOptions(
			{
				providers: [],
				rateLimit: { rules: { 'oauth-start': { address: { limit: 1 } } } },
				events: { rateLimited: (message) => void messages.push(message) }
			},
			{ env: BASE }
		);
		await limiter.check('oauth-start', attempt);
		await limiter.check('oauth-start', attempt);
		await Promise.resolve();
		expect(messages).toEqual([{ kind: 'oauth-start', scope: 'address', retryAfter: 600, tag: expect.any(String) }]);
	});
});
