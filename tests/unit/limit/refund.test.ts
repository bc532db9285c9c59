/**
 * Successes use up no budget: for credentials, email codes and passkey callbacks the address
 * budget counts failures only. Each attempt is still counted before it is made (concurrent attempts
 * cannot overrun the budget), and a success takes its hit back, in the window it was counted in,
 * once, where it was counted. The kinds that count every request are never refunded.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES } from '../../../src/lib/core/limit/defaults.js';
import type { AddressRule, LimitDecision, LimitKind } from '../../../src/lib/core/types/limit.js';
import { MINUTE, RecordingStore, SECOND, testLimiter } from './support.js';

const OFFICE = '203.0.113.10';
const ADDRESS_LIMIT = (DEFAULT_RULES.credentials.address as AddressRule).limit;

/** The address counter's count now (a hit, taken back). */
async function addressCount(store: RecordingStore, kind: LimitKind, address: string, now: number): Promise<number> {
	const { count, resetAt } = await store.inner.hit(`${kind}:a:${address}`, 10 * MINUTE, now);
	await store.inner.release(`${kind}:a:${address}`, resetAt);
	return count - 1;
}

describe('successes use up no budget', () => {
	it('200 sign-ins from one address in a few minutes are all allowed; the address counter is back to 0 after each', async () => {
		const store = new RecordingStore();
		const { attempt, limiter, clock } = testLimiter({ store });
		for (let i = 0; i < 200; i++) {
			const identifier = `person${i % 40}@example.com`;
			const decision = await attempt('credentials', OFFICE, identifier);
			expect(decision.allowed, `sign-in ${i + 1}`).toBe(true);
			await limiter.succeeded('credentials', identifier, decision);
			expect(await addressCount(store, 'credentials', OFFICE, clock.time)).toBe(0);
			clock.advance(SECOND);
		}
		expect(store.releases).toHaveLength(200);
	});

	it('the address budget counts the failures: as many as its limit, whatever the successes between them, then refused', async () => {
		const { attempt, limiter } = testLimiter({ rules: { credentials: { address: { limit: 5 } } } });
		const outcomes: boolean[] = [];
		for (let i = 0; i < 12; i++) {
			const identifier = `user${i}@example.com`;
			const decision = await attempt('credentials', OFFICE, identifier);
			outcomes.push(decision.allowed);
			// Every other attempt signs in.
			if (decision.allowed && i % 2 === 0) await limiter.succeeded('credentials', identifier, decision);
		}
		// Five failures (1, 3, 5, 7, 9) fit; the 11th attempt finds the budget spent (10 signed in).
		expect(outcomes).toEqual([true, true, true, true, true, true, true, true, true, true, false, false]);
	});

	it('attempts at once cannot overrun the budget: each is counted before it is made, and a success frees its place', async () => {
		const { attempt, limiter } = testLimiter({ rules: { credentials: { address: { limit: 5 } } } });
		const first = await Promise.all(Array.from({ length: 8 }, (_, i) => attempt('credentials', OFFICE, `u${i}@example.com`)));
		expect(first.filter((d) => d.allowed)).toHaveLength(5);
		// The five sign in; the three refused attempts stay counted.
		const allowed = first.map((decision, i) => [decision, i] as const).filter(([decision]) => decision.allowed);
		await Promise.all(allowed.map(([decision, i]) => limiter.succeeded('credentials', `u${i}@example.com`, decision)));
		const second = await Promise.all(Array.from({ length: 8 }, (_, i) => attempt('credentials', OFFICE, `v${i}@example.com`)));
		expect(second.filter((d) => d.allowed)).toHaveLength(2);
	});

	it('a refund takes its hit back from the window it was counted in only: a window that started since keeps its count', async () => {
		const store = new RecordingStore();
		const { attempt, limiter, clock } = testLimiter({ store });
		const old = await attempt('credentials', OFFICE, 'slow@example.com');
		clock.advance(10 * MINUTE); // the address window (10 minutes) ends
		await attempt('credentials', OFFICE, 'other@example.com');
		await limiter.succeeded('credentials', 'slow@example.com', old);
		expect(await addressCount(store, 'credentials', OFFICE, clock.time)).toBe(1);
	});

	it('a decision refunds once, however often succeeded is called with it; without a decision nothing is refunded', async () => {
		const store = new RecordingStore();
		const { attempt, limiter, clock } = testLimiter({ store });
		await attempt('credentials', OFFICE, 'a@example.com');
		const decision = await attempt('credentials', OFFICE, 'b@example.com');
		for (let i = 0; i < 3; i++) await limiter.succeeded('credentials', 'b@example.com', decision);
		await limiter.succeeded('credentials', 'a@example.com');
		expect(await addressCount(store, 'credentials', OFFICE, clock.time)).toBe(1);
		expect(store.releases).toHaveLength(1);
	});

	it('passkey callbacks: failures count against the address, ceremonies that verify are refunded', async () => {
		const { attempt, limiter } = testLimiter({ rules: { 'webauthn-callback': { address: { limit: 3 } } } });
		for (let i = 0; i < 50; i++) {
			const decision = await attempt('webauthn-callback', OFFICE);
			expect(decision.allowed).toBe(true);
			await limiter.succeeded('webauthn-callback', undefined, decision);
		}
		const failures = [];
		for (let i = 0; i < 4; i++) failures.push((await attempt('webauthn-callback', OFFICE)).allowed);
		expect(failures).toEqual([true, true, true, false]);
	});

	it('email requests (mail is sent), WebAuthn options (a challenge is stored) and OAuth starts (a flood limit) count every request', async () => {
		const store = new RecordingStore();
		const { attempt, limiter } = testLimiter({ store });
		for (const [kind, limit] of [['email-request', 5], ['webauthn-options', 30], ['oauth-start', 30]] as const) {
			const decisions: LimitDecision[] = [];
			for (let i = 0; i <= limit; i++) {
				const identifier = kind === 'email-request' ? `r${i}@example.com` : undefined;
				const decision = await attempt(kind, OFFICE, identifier);
				decisions.push(decision);
				await limiter.succeeded(kind, identifier, decision);
			}
			expect(decisions.slice(0, limit).every((d) => d.allowed), kind).toBe(true);
			expect(decisions[limit], kind).toMatchObject({ allowed: false, scope: 'address' });
		}
		expect(store.releases).toEqual([]);
	});

	it("an attempt the account's delay refused still counted against the address (it was a try)", async () => {
		const store = new RecordingStore();
		const { attempt, clock } = testLimiter({ store });
		for (let i = 0; i < 5; i++) await attempt('credentials', OFFICE, 'target@example.com');
		expect(await attempt('credentials', OFFICE, 'target@example.com')).toMatchObject({ allowed: false, scope: 'account' });
		expect(await addressCount(store, 'credentials', OFFICE, clock.time)).toBe(6);
	});

	it(`the default address budget of the failure-counted kinds: ${ADDRESS_LIMIT} failures per 10 minutes`, async () => {
		for (const kind of ['credentials', 'email-code', 'webauthn-callback'] as const) {
			const { attempt } = testLimiter();
			const outcomes: boolean[] = [];
			for (let i = 0; i <= ADDRESS_LIMIT; i++) outcomes.push((await attempt(kind, OFFICE, `f${i}@example.com`)).allowed);
			expect(outcomes.filter(Boolean), kind).toHaveLength(ADDRESS_LIMIT);
			expect(outcomes.at(-1), kind).toBe(false);
		}
	});
});
