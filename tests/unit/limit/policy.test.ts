/**
 * The budgets: the defaults' reasoning (defaults.ts) in numbers, the delay schedule grows and caps,
 * and configured rules are merged over the defaults and checked.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES, FAILURE_COUNTED, LIMIT_KINDS } from '../../../src/lib/core/limit/defaults.js';
import { delayAfter, resolveRules } from '../../../src/lib/core/limit/policy.js';
import { InvalidRateLimit } from '../../../src/lib/core/errors.js';
import type { AccountRule } from '../../../src/lib/core/types/limit.js';

describe('the default budgets', () => {
	it('kinds whose address budget counts every request keep the anti-lockout rule: one address cannot push an account to its hard limit', () => {
		let checked = 0;
		for (const kind of LIMIT_KINDS) {
			const { address, account } = DEFAULT_RULES[kind];
			if (!address || !account || FAILURE_COUNTED.has(kind)) continue;
			// Fixed windows need not line up with the account's: one more address window than fits.
			const windows = Math.ceil(account.window / address.window) + 1;
			expect(address.limit * windows, kind).toBeLessThan(account.limit);
			checked++;
		}
		expect(checked).toBe(1); // email-request: 5 × (4 + 1) = 25 < 30
	});

	it('failure-counted kinds: an address budget sized for a shared address (≥ 500 failures an hour), so one address can reach the hard limit; passkeys have none, device cookies keep known browsers out of it', () => {
		expect(LIMIT_KINDS.filter((kind) => FAILURE_COUNTED.has(kind))).toEqual(['credentials', 'email-code', 'webauthn-callback', 'two-factor']);
		for (const kind of FAILURE_COUNTED) {
			const { address, account } = DEFAULT_RULES[kind];
			if (!address) throw new Error(`${kind} has no address budget`);
			expect(address.limit * (3600 / address.window), kind).toBeGreaterThanOrEqual(500);
			if (!account) continue;
			// The old rule no longer holds (defaults.ts says what protects the owner now).
			expect(address.limit * (Math.ceil(account.window / address.window) + 1), kind).toBeGreaterThan(account.limit);
		}
		expect(DEFAULT_RULES['webauthn-callback'].account).toBe(false);
	});

	it('guessing is capped at 100 per hour per account (ASVS 6.3.1)', () => {
		for (const kind of ['credentials', 'email-code'] as const) {
			const account = DEFAULT_RULES[kind].account as AccountRule;
			expect(account.limit * (3600 / account.window)).toBeLessThanOrEqual(100);
		}
	});

	it('every kind has a rule, and they are frozen', () => {
		const rules = resolveRules();
		expect(Object.keys(rules).sort()).toEqual([...LIMIT_KINDS].sort());
		expect(Object.isFrozen(rules)).toBe(true);
		expect(Object.isFrozen(rules.credentials)).toBe(true);
	});
});

describe('delayAfter', () => {
	const rule: AccountRule = { freeAttempts: 3, delay: 2, maxDelay: 60, limit: 100, window: 3600 };

	it('none before the free attempts are used, then doubling from delay, capped at maxDelay', () => {
		const delays = Array.from({ length: 12 }, (_, i) => delayAfter(rule, i + 1));
		expect(delays).toEqual([0, 0, 2, 4, 8, 16, 32, 60, 60, 60, 60, 60]);
		expect(delayAfter(rule, 10_000)).toBe(60);
		expect(delayAfter(rule, Number.MAX_SAFE_INTEGER)).toBe(60);
	});

	it('delay 0 turns the delays off', () => {
		expect(delayAfter({ ...rule, delay: 0 }, 50)).toBe(0);
	});
});

describe('resolveRules', () => {
	it('merges given fields over the defaults, per scope', () => {
		const rules = resolveRules({ credentials: { address: { limit: 50 }, account: { maxDelay: 120 } } });
		expect(rules.credentials).toEqual({
			address: { limit: 50, window: 600 },
			account: { freeAttempts: 5, delay: 1, maxDelay: 120, limit: 100, window: 3600 }
		});
		expect(rules['email-request']).toEqual(DEFAULT_RULES['email-request']);
	});

	it('false turns a kind or a scope off', () => {
		const rules = resolveRules({ 'oauth-start': false, credentials: { account: false } });
		expect(rules['oauth-start']).toBe(false);
		expect(rules.credentials).toEqual({ address: DEFAULT_RULES.credentials.address, account: false });
	});

	it('an account budget for a kind without one must be given in full', () => {
		const full = { freeAttempts: 1, delay: 1, maxDelay: 2, limit: 10, window: 60 };
		expect(resolveRules({ 'oauth-start': { account: full } })['oauth-start']).toMatchObject({ account: full });
		expect(() => resolveRules({ 'oauth-start': { account: { limit: 10 } } })).toThrow(InvalidRateLimit);
	});

	it('mistakes are configuration errors that name the field', () => {
		const bad: [unknown, RegExp][] = [
			[{ credential: false }, /unknown kind/],
			[{ credentials: { address: { limit: 0 } } }, /credentials\.address\.limit/],
			[{ credentials: { address: { limit: 1.5 } } }, /credentials\.address\.limit/],
			[{ credentials: { address: { window: -1 } } }, /credentials\.address\.window/],
			[{ credentials: { address: { window: Infinity } } }, /credentials\.address\.window/],
			[{ credentials: { account: { freeAttempts: -1 } } }, /freeAttempts/],
			[{ credentials: { account: { delay: 10, maxDelay: 5 } } }, /maxDelay/],
			[{ credentials: { account: { delay: '1' } } }, /delay/],
			[{ credentials: { account: { limit: NaN } } }, /account\.limit/],
			[{ credentials: 'strict' }, /rule must be/],
			['all', /must be an object/]
		];
		for (const [input, message] of bad) {
			expect(() => resolveRules(input as never), JSON.stringify(input)).toThrow(message);
			expect(() => resolveRules(input as never)).toThrow(InvalidRateLimit);
		}
	});
});
