/**
 * The rate limiter (kitauth; Auth.js has none): budgets per client address and per account for
 * each kind of attempt, counters in a `LimitStore`. Framework-free: the integration hands in the
 * connection's address and the request headers. See `limiter.ts` for the decision, `defaults.ts`
 * for the budgets and the reasoning behind them.
 */
export { addressBucket } from './address.js';
export { adapterStore } from './adapter-store.js';
export { clientAddress } from './client-address.js';
export { DEFAULT_RULES, LIMIT_KINDS } from './defaults.js';
export { normalizeIdentifier } from './identifier.js';
export {
	createLimiter,
	createLimiterShared,
	disabledLimiter,
	STORE_DOWN_RETRY_AFTER,
	type LimiterOptions,
	type LimiterShared
} from './limiter.js';
export { MemoryStore, type MemoryStoreOptions } from './memory.js';
export { createOnce, type Once, type OnceOptions, type OncePurpose } from './once.js';
export { delayAfter, resolveRules, type Rules } from './policy.js';
export { resolveLimiter, type ResolveLimiterInput } from './resolve.js';
