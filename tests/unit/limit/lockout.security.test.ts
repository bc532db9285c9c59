/**
 * The limiter's security properties with the default budgets and an injected clock:
 * - an attacker cannot lock the owner out of a browser they signed in from before (device
 *   cookies), though one address can now reach the account's hard limit for unknown browsers;
 * - distributed guessing against one account is slowed and capped (ASVS 6.3.1: ≤ 100 per hour);
 * - IPv6 rotation inside a /64, and textual aliases of an address, do not buy a fresh budget
 *   (better-auth CVE-2026-45364);
 * - a forged X-Forwarded-For is ignored unless declared, and honoured at the declared depth.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES } from '../../../src/lib/core/limit/defaults.js';
import { delayAfter } from '../../../src/lib/core/limit/policy.js';
import type { AccountRule, LimitDecision } from '../../../src/lib/core/types/limit.js';
import { MINUTE, SECOND, testLimiter, waitUntilAllowed } from './support.js';

const VICTIM = 'victim@example.com';
const ACCOUNT = DEFAULT_RULES.credentials.account as AccountRule;

describe('an attacker on one address, hammering one account', () => {
	it('for 3 hours: the owner always gets in at once from a browser they signed in from before (device cookie)', async () => {
		const { attempt, clock, limiter } = testLimiter();
		const home = await attempt('credentials', '203.0.113.5', VICTIM);
		await limiter.succeeded('credentials', VICTIM, home);
		let device = await limiter.deviceCookie('credentials', VICTIM, home);
		const attacker: LimitDecision[] = [];
		const owner: LimitDecision[] = [];
		const end = clock.time + 3 * 60 * MINUTE;
		let nextVisit = clock.time + 7 * MINUTE;
		while (clock.time < end) {
			attacker.push(await attempt('credentials', '198.51.100.66', VICTIM));
			if (clock.time >= nextVisit) {
				// The owner at home, every 7 minutes: a typo first, then the right password.
				owner.push(await attempt('credentials', '203.0.113.5', VICTIM, undefined, device));
				const decision = await attempt('credentials', '203.0.113.5', VICTIM, undefined, device);
				owner.push(decision);
				await limiter.succeeded('credentials', VICTIM, decision);
				device = await limiter.deviceCookie('credentials', VICTIM, decision);
				nextVisit = clock.time + 7 * MINUTE;
			}
			clock.advance(SECOND);
		}
		expect(owner.length).toBeGreaterThan(40);
		expect(owner.every((decision) => decision.allowed)).toBe(true);
		// The attacker met the account's hard limit (the owner's successes on the known browser did
		// not clear the count for it), and got no more than that per hour.
		const locked = attacker.filter((d) => !d.allowed && d.scope === 'account' && d.retryAfter > ACCOUNT.maxDelay);
		expect(locked.length).toBeGreaterThan(0);
		expect(attacker.filter((d) => d.allowed).length).toBeLessThanOrEqual(3 * ACCOUNT.limit);
	});

	it('with budgets sized for shared addresses one address can reach the hard limit: a browser the owner never used is refused until the window ends', async () => {
		const { attempt, clock } = testLimiter();
		// An attacker who waits out every delay, from one address.
		let allowed = 0;
		for (let i = 0; i < ACCOUNT.limit + 20; i++) {
			const decision = await attempt('credentials', '198.51.100.66', VICTIM);
			if (decision.allowed) allowed++;
			clock.advance((decision.allowed ? delayAfter(ACCOUNT, allowed) : decision.retryAfter > ACCOUNT.maxDelay ? 1 : decision.retryAfter) * SECOND);
		}
		expect(allowed).toBe(ACCOUNT.limit);
		const victim = await attempt('credentials', '203.0.113.5', VICTIM);
		expect(victim).toMatchObject({ allowed: false, scope: 'account' });
		if (!victim.allowed) expect(victim.retryAfter).toBeGreaterThan(ACCOUNT.maxDelay);
	});
});

describe('distributed guessing against one account', () => {
	it('many addresses hammering: a few guesses, then nothing until the window ends', async () => {
		const { attempt, clock } = testLimiter();
		let allowed = 0;
		for (let second = 0; second < 3600; second++) {
			for (let i = 0; i < 10; i++) {
				const address = `10.${(second >> 8) & 255}.${second & 255}.${i}`;
				if ((await attempt('credentials', address, VICTIM)).allowed) allowed++;
			}
			clock.advance(SECOND);
		}
		expect(allowed).toBeGreaterThanOrEqual(ACCOUNT.freeAttempts);
		expect(allowed).toBeLessThan(20);
	});

	it('a patient botnet that waits out every delay: at most the hard limit per hour (ASVS 6.3.1)', async () => {
		const { attempt, clock } = testLimiter();
		const start = clock.time;
		const allowedAt: number[] = [];
		let address = 0;
		while (clock.time < start + 60 * MINUTE) {
			const decision = await attempt('credentials', `10.0.${address >> 8}.${address & 255}`, VICTIM);
			address++;
			if (!decision.allowed) break; // it never probes early, so this is the hard limit
			allowedAt.push(clock.time);
			// It knows the schedule: the delay after this attempt, and not a millisecond less.
			clock.advance(delayAfter(ACCOUNT, allowedAt.length) * SECOND);
		}
		expect(allowedAt).toHaveLength(ACCOUNT.limit);
		// After the free attempts, the gaps double from `delay` and stay at `maxDelay`.
		const gaps = allowedAt.slice(ACCOUNT.freeAttempts - 1).map((t, i, all) => (i === 0 ? 0 : (t - all[i - 1]!) / SECOND)).slice(1);
		expect(gaps.slice(0, 7)).toEqual([1, 2, 4, 8, 16, 30, 30]);
		expect(Math.min(...gaps.slice(5))).toBe(ACCOUNT.maxDelay);
		expect(clock.time - start).toBeLessThan(60 * MINUTE);
		const last = await attempt('credentials', '10.200.0.1', VICTIM);
		expect(last).toMatchObject({ allowed: false, scope: 'account' });
		if (!last.allowed) expect(last.retryAfter).toBeGreaterThan(ACCOUNT.maxDelay);
	});
});

describe('addresses: rotation and aliases', () => {
	const rules = { rules: { 'oauth-start': { address: { limit: 10 } } } };

	it('rotating addresses inside one IPv6 /64 keeps one budget; another /64 has its own', async () => {
		const { attempt } = testLimiter(rules);
		for (let i = 1; i <= 10; i++) {
			expect((await attempt('oauth-start', `2001:db8:aa:bb:${i.toString(16)}::${i}`)).allowed).toBe(true);
		}
		expect(await attempt('oauth-start', '2001:db8:aa:bb:ffff::1')).toMatchObject({ allowed: false, scope: 'address' });
		expect((await attempt('oauth-start', '2001:db8:aa:bc::1')).allowed).toBe(true);
	});

	it('IPv4 and its IPv4-mapped IPv6 spellings are one address', async () => {
		const { attempt } = testLimiter(rules);
		const spellings = ['192.0.2.7', '::ffff:192.0.2.7', '::FFFF:c000:0207', '[::ffff:192.0.2.7]', '192.0.2.7:4431'];
		for (let i = 0; i < 10; i++) expect((await attempt('oauth-start', spellings[i % spellings.length]!)).allowed).toBe(true);
		for (const spelling of spellings) expect((await attempt('oauth-start', spelling)).allowed, spelling).toBe(false);
	});

	it('garbage addresses share one bucket (never a free pass, never a throw)', async () => {
		const { attempt } = testLimiter(rules);
		for (let i = 0; i < 10; i++) expect((await attempt('oauth-start', `garbage-${i}`)).allowed).toBe(true);
		expect((await attempt('oauth-start', 'more garbage')).allowed).toBe(false);
		expect((await attempt('oauth-start', '192.0.2.8')).allowed).toBe(true);
	});
});

describe('forwarded headers', () => {
	const rules = { 'oauth-start': { address: { limit: 3 } } };

	it('a forged X-Forwarded-For is ignored when not declared: the connection address counts', async () => {
		const { attempt } = testLimiter({ rules });
		const results: boolean[] = [];
		for (let i = 0; i < 5; i++) {
			const forged = { 'x-forwarded-for': `198.51.100.${i}`, forwarded: `for=198.51.100.${i}`, 'x-real-ip': `198.51.100.${i}` };
			results.push((await attempt('oauth-start', '203.0.113.1', undefined, forged)).allowed);
		}
		expect(results).toEqual([true, true, true, false, false]);
	});

	it('declared (one proxy): the entry it appended counts; entries the client prepended do not', async () => {
		const { attempt } = testLimiter({ rules, clientAddress: { header: 'X-Forwarded-For' } });
		const proxy = '10.0.0.1';
		const results: boolean[] = [];
		for (let i = 0; i < 5; i++) {
			results.push((await attempt('oauth-start', proxy, undefined, { 'x-forwarded-for': `198.51.100.${i}, 192.0.2.50` })).allowed);
		}
		expect(results).toEqual([true, true, true, false, false]);
		// Another client behind the same proxy has its own budget.
		expect((await attempt('oauth-start', proxy, undefined, { 'x-forwarded-for': '192.0.2.51' })).allowed).toBe(true);
	});

	it('declared with depth 2: the second entry from the right', async () => {
		const { attempt } = testLimiter({ rules, clientAddress: { header: 'x-forwarded-for', depth: 2 } });
		for (let i = 0; i < 3; i++) {
			const value = `198.51.100.${i}, 192.0.2.50, 10.0.0.${i}`;
			expect((await attempt('oauth-start', '10.0.0.9', undefined, { 'x-forwarded-for': value })).allowed).toBe(true);
		}
		expect((await attempt('oauth-start', '10.0.0.9', undefined, { 'x-forwarded-for': '192.0.2.50, 10.0.0.7' })).allowed).toBe(false);
	});

	it('declared Forwarded: for= of the last element', async () => {
		const { attempt } = testLimiter({ rules, clientAddress: { header: 'forwarded' } });
		for (let i = 0; i < 3; i++) {
			const value = `for=198.51.100.${i}, for="[2001:db8:5::${i}]:443";proto=https`;
			expect((await attempt('oauth-start', '10.0.0.9', undefined, { forwarded: value })).allowed).toBe(true);
		}
		expect((await attempt('oauth-start', '10.0.0.9', undefined, { forwarded: 'for="[2001:db8:5::ff]"' })).allowed).toBe(false);
	});
});
