/**
 * `AuthConfig.rateLimit` + the environment → the limiter of one configuration (`options.limiter`).
 *
 * On or off, in this order: `AUTH_RATE_LIMIT=off` (for load tests) turns it off whatever the config
 * says; `rateLimit: false` or `{ enabled: false }` off; `rateLimit: true`, or an object without
 * `enabled`, on; `AUTH_RATE_LIMIT=on` on; otherwise on exactly when `NODE_ENV` is `production`.
 */
import { type Env, isProduction } from '../env.js';
import { InvalidRateLimit } from '../errors.js';
import type { Adapter } from '../types/adapter.js';
import type { EventCallbacks, LoggerInstance } from '../types/config.js';
import type { ClientAddressOptions, LimitStore, Limiter, RateLimitConfig } from '../types/limit.js';
import { adapterStore } from './adapter-store.js';
import { deviceCookies } from './device.js';
import { keyedHasher } from './hash.js';
import { createLimiter, createLimiterShared, disabledLimiter, type LimiterShared } from './limiter.js';
import { resolveRules } from './policy.js';

export interface ResolveLimiterInput {
	config: RateLimitConfig | boolean | undefined;
	env: Env;
	/** The (wrapped) adapter: its counter methods are the default store. */
	adapter: Adapter | undefined;
	/**
	 * The configuration's secrets, newest first: the newest keys the identifier hash and signs
	 * device cookies; the older ones still verify device cookies.
	 */
	secrets: readonly string[];
	logger: LoggerInstance;
	events: Readonly<Partial<EventCallbacks>>;
	shared?: LimiterShared;
}

export function resolveLimiter(input: ResolveLimiterInput): Limiter {
	const { config, env, logger } = input;
	if (config !== undefined && typeof config !== 'boolean' && (typeof config !== 'object' || config === null)) {
		throw new InvalidRateLimit('rateLimit must be true, false or an object');
	}
	const settings: RateLimitConfig = typeof config === 'object' ? config : {};
	// Checked even when off: a mistake shows in development, not first in production.
	const rules = resolveRules(settings.rules);
	const clientAddress = checkClientAddress(settings.clientAddress);
	const ipv6Prefix = checkNumber('ipv6Prefix', settings.ipv6Prefix ?? 64, (n) => Number.isInteger(n) && n >= 0 && n <= 128);
	const timeout = checkNumber('timeout', settings.timeout ?? 1000, (n) => Number.isFinite(n) && n > 0);
	const now = checkClock(settings.now);
	const configured = checkStore(settings.store);
	if (settings.failOpen !== undefined && typeof settings.failOpen !== 'boolean') {
		throw new InvalidRateLimit('rateLimit.failOpen must be a boolean');
	}
	if (settings.enabled !== undefined && typeof settings.enabled !== 'boolean') {
		throw new InvalidRateLimit('rateLimit.enabled must be a boolean');
	}
	if (!enabled(config, settings, env)) return disabledLimiter;

	const shared = input.shared ?? createLimiterShared();
	const store = configured ?? checkAdapterStore(input.adapter) ?? shared.memory;
	if (store === shared.memory && isProduction(env) && !shared.memoryWarned) {
		shared.memoryWarned = true;
		logger.warn('rate-limit-memory-store');
	}
	const rateLimited = input.events.rateLimited;
	return createLimiter({
		store,
		rules,
		failOpen: settings.failOpen ?? true,
		clientAddress,
		ipv6Prefix,
		timeout,
		now,
		hash: keyedHasher(input.secrets[0]!),
		devices: deviceCookies(input.secrets),
		logger,
		// Fire and forget: events are wrapped (a failing handler is logged), and a flood of refusals
		// must not wait on audit handlers.
		onLimited: rateLimited ? (message) => void rateLimited(message) : undefined,
		shared
	});
}

function enabled(config: RateLimitConfig | boolean | undefined, settings: RateLimitConfig, env: Env): boolean {
	const flag = envFlag(env.AUTH_RATE_LIMIT);
	if (flag === false || config === false) return false;
	if (settings.enabled !== undefined) return settings.enabled;
	if (config !== undefined) return true;
	return flag ?? isProduction(env);
}

function envFlag(value: string | undefined): boolean | undefined {
	const text = value?.trim().toLowerCase();
	if (text === 'off' || text === 'false' || text === '0' || text === 'no') return false;
	if (text === 'on' || text === 'true' || text === '1' || text === 'yes') return true;
	return undefined;
}

function checkStore(store: LimitStore | undefined): LimitStore | undefined {
	if (store === undefined) return undefined;
	const methods = ['hit', 'release', 'reset', 'sweep'] as const;
	if (typeof store !== 'object' || store === null || methods.some((m) => typeof store[m] !== 'function')) {
		// `release` came with refunds (0.x): a store written before them must add it.
		throw new InvalidRateLimit('rateLimit.store must have hit(), release(), reset() and sweep() methods');
	}
	return store;
}

/** The adapter's counters, when it has them; with `hitRateLimit` it must refund too. */
function checkAdapterStore(adapter: Adapter | undefined): LimitStore | undefined {
	const store = adapterStore(adapter);
	if (store && typeof adapter?.releaseRateLimit !== 'function') {
		throw new InvalidRateLimit('The adapter has hitRateLimit but no releaseRateLimit, which the rate limiter needs: add it, or set rateLimit.store');
	}
	return store;
}

function checkClientAddress(option: ClientAddressOptions | undefined): Readonly<Required<ClientAddressOptions>> | undefined {
	if (option === undefined) return undefined;
	const header = typeof option === 'object' && option !== null ? option.header : undefined;
	if (typeof header !== 'string' || !/^[!#$%&'*+\-.^_`|~0-9a-z]+$/i.test(header)) {
		throw new InvalidRateLimit('rateLimit.clientAddress.header must be a header name, e.g. "x-forwarded-for"');
	}
	const depth = checkNumber('clientAddress.depth', option.depth ?? 1, (n) => Number.isInteger(n) && n >= 1);
	return Object.freeze({ header: header.toLowerCase(), depth });
}

function checkNumber(name: string, value: unknown, valid: (n: number) => boolean): number {
	if (typeof value !== 'number' || !valid(value)) throw new InvalidRateLimit(`rateLimit.${name} is out of range`);
	return value;
}

function checkClock(now: (() => number) | undefined): () => number {
	if (now === undefined) return Date.now;
	if (typeof now !== 'function') throw new InvalidRateLimit('rateLimit.now must be a function');
	return now;
}
