/**
 * The configured budgets, resolved over the defaults and checked once (a mistake is a
 * configuration error at start-up, not a surprise under attack), and the delay schedule.
 */
import { InvalidRateLimit } from '../errors.js';
import type { AccountRule, AddressRule, LimitKind, LimitRule, RateLimitConfig } from '../types/limit.js';
import { DEFAULT_RULES, LIMIT_KINDS } from './defaults.js';

/** `false` for a kind that is not limited. */
export type Rules = Readonly<Record<LimitKind, Readonly<LimitRule> | false>>;

export function resolveRules(input: RateLimitConfig['rules'] = {}): Rules {
	if (typeof input !== 'object' || input === null) throw new InvalidRateLimit('rateLimit.rules must be an object');
	for (const kind of Object.keys(input)) {
		if (!LIMIT_KINDS.includes(kind as LimitKind)) {
			throw new InvalidRateLimit(`rateLimit.rules.${kind}: unknown kind (one of ${LIMIT_KINDS.join(', ')})`);
		}
	}
	const rules = {} as Record<LimitKind, Readonly<LimitRule> | false>;
	for (const kind of LIMIT_KINDS) {
		const given = input[kind];
		const base = DEFAULT_RULES[kind];
		if (given === false) {
			rules[kind] = false;
			continue;
		}
		if (given !== undefined && (typeof given !== 'object' || given === null)) {
			throw new InvalidRateLimit(`rateLimit.rules.${kind}: a rule must be an object or false`);
		}
		const address = given?.address === false ? false : merge(base.address, given?.address);
		const account = given?.account === false ? false : merge(base.account, given?.account);
		if (address) checkAddress(kind, address);
		if (account) checkAccount(kind, account);
		rules[kind] = Object.freeze({ address, account });
	}
	return Object.freeze(rules);
}

/**
 * The wait, in seconds, imposed after the attempt that brought the count to `count`: none for the
 * first `freeAttempts - 1`, then `delay`, doubling, capped at `maxDelay`.
 */
export function delayAfter(rule: AccountRule, count: number): number {
	const step = count - rule.freeAttempts;
	if (step < 0 || rule.delay === 0) return 0;
	return Math.min(rule.delay * 2 ** step, rule.maxDelay);
}

function merge<T extends object>(base: T | false, given: Partial<T> | undefined): T | false {
	if (given === undefined) return base;
	if (typeof given !== 'object' || given === null) throw new InvalidRateLimit('a rateLimit rule must be an object or false');
	// A scope without defaults (e.g. an account budget for oauth-start) must be given in full.
	return { ...(base || {}), ...given } as T;
}

function checkAddress(kind: LimitKind, rule: AddressRule): void {
	positiveInteger(`${kind}.address.limit`, rule.limit);
	positive(`${kind}.address.window`, rule.window);
}

function checkAccount(kind: LimitKind, rule: AccountRule): void {
	if (!Number.isInteger(rule.freeAttempts) || rule.freeAttempts < 0) {
		throw new InvalidRateLimit(`rateLimit.rules.${kind}.account.freeAttempts must be a whole number ≥ 0`);
	}
	if (typeof rule.delay !== 'number' || !Number.isFinite(rule.delay) || rule.delay < 0) {
		throw new InvalidRateLimit(`rateLimit.rules.${kind}.account.delay must be a number of seconds ≥ 0`);
	}
	if (rule.delay > 0) positive(`${kind}.account.maxDelay`, rule.maxDelay);
	if (rule.delay > 0 && rule.maxDelay < rule.delay) {
		throw new InvalidRateLimit(`rateLimit.rules.${kind}.account.maxDelay must be at least its delay`);
	}
	positiveInteger(`${kind}.account.limit`, rule.limit);
	positive(`${kind}.account.window`, rule.window);
}

function positiveInteger(name: string, value: unknown): void {
	if (!Number.isInteger(value) || (value as number) < 1) {
		throw new InvalidRateLimit(`rateLimit.rules.${name} must be a whole number ≥ 1`);
	}
}

function positive(name: string, value: unknown): void {
	if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
		throw new InvalidRateLimit(`rateLimit.rules.${name} must be a number of seconds > 0`);
	}
}
