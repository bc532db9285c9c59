/**
 * The limiter's decisions with the memory store and an injected clock: limits hit and recovered,
 * progressive delays, success, kinds, events and logs, and what the store gets to see.
 */
import { describe, expect, it } from 'vitest';
import { LIMIT_KINDS } from '../../../src/lib/core/limit/defaults.js';
import type { LimitDecision } from '../../../src/lib/core/types/limit.js';
import { MINUTE, RecordingStore, SECOND, testLimiter } from './support.js';

const A = '192.0.2.1';
const B = '192.0.2.2';
const EMAIL = 'alice@example.com';

async function times(n: number, attempt: () => Promise<LimitDecision>): Promise<LimitDecision[]> {
	const out: LimitDecision[] = [];
	for (let i = 0; i < n; i++) out.push(await attempt());
	return out;
}

describe('per address', () => {
	it('allows the limit, refuses the next with the time left, and recovers when the window ends', async () => {
		const { attempt, clock } = testLimiter();
		const decisions = await times(30, () => attempt('oauth-start', A));
		expect(decisions.every((d) => d.allowed)).toBe(true);
		clock.advance(MINUTE);
		expect(await attempt('oauth-start', A)).toEqual({ allowed: false, retryAfter: 9 * 60, scope: 'address' });
		// still within the window: refused, and refusals do not push the window out
		for (let i = 0; i < 50; i++) await attempt('oauth-start', A);
		clock.advance(9 * MINUTE - 1);
		expect(await attempt('oauth-start', A)).toEqual({ allowed: false, retryAfter: 1, scope: 'address' });
		clock.advance(1);
		expect(await attempt('oauth-start', A)).toMatchObject({ allowed: true });
	});

	it('the budget is the limit exactly: 30 for oauth-start by default', async () => {
		const { attempt } = testLimiter();
		const decisions = await times(40, () => attempt('oauth-start', A));
		expect(decisions.filter((d) => d.allowed)).toHaveLength(30);
		expect(decisions.slice(30).every((d) => !d.allowed)).toBe(true);
	});

	it('other addresses and other kinds have their own budgets', async () => {
		const { attempt } = testLimiter({ rules: { 'oauth-start': { address: { limit: 2 } } } });
		await times(3, () => attempt('oauth-start', A));
		expect((await attempt('oauth-start', A)).allowed).toBe(false);
		expect((await attempt('oauth-start', B)).allowed).toBe(true);
		expect((await attempt('webauthn-options', A)).allowed).toBe(true);
	});

	it('no known address: no address limit (the account limit still applies)', async () => {
		const { attempt } = testLimiter({ rules: { credentials: { address: { limit: 1 } } } });
		const decisions = await times(5, () => attempt('credentials', undefined));
		expect(decisions.every((d) => d.allowed)).toBe(true);
	});
});

describe('per account: progressive delays, then a hard limit', () => {
	const accountOnly = { rules: { credentials: { address: false as const } } };

	it('the first freeAttempts go through at once; then each needs the (doubling) delay after the last', async () => {
		const { attempt, clock } = testLimiter(accountOnly);
		expect((await times(5, () => attempt('credentials', A, EMAIL))).every((d) => d.allowed)).toBe(true);
		// A client that waits out each delay exactly is never refused: 1, 2, 4, 8, 16, then 30 s (the cap).
		for (const delay of [1, 2, 4, 8, 16, 30, 30, 30]) {
			clock.advance(delay * SECOND);
			expect(await attempt('credentials', A, EMAIL), `after ${delay} s`).toMatchObject({ allowed: true });
		}
	});

	it('1 ms too early is refused, with the time left rounded up', async () => {
		const { attempt, clock } = testLimiter(accountOnly);
		await times(5, () => attempt('credentials', A, EMAIL));
		clock.advance(SECOND - 1);
		expect(await attempt('credentials', A, EMAIL)).toEqual({ allowed: false, retryAfter: 1, scope: 'account' });
	});

	it('early retries are refused with the time left, and count: the delays grow to the cap', async () => {
		const { attempt, clock } = testLimiter(accountOnly);
		await times(5, () => attempt('credentials', A, EMAIL));
		const waits: number[] = [];
		for (let i = 0; i < 6; i++) {
			const refused = await attempt('credentials', A, EMAIL); // probing right after an allowed attempt
			expect(refused.allowed).toBe(false);
			if (refused.allowed) return;
			waits.push(refused.retryAfter);
			clock.advance(refused.retryAfter * SECOND);
			expect(await attempt('credentials', A, EMAIL)).toMatchObject({ allowed: true });
		}
		expect(waits).toEqual([1, 4, 16, 30, 30, 30]);
	});

	it('above the hard limit nothing goes through until the window ends', async () => {
		const { attempt, clock } = testLimiter({ rules: { credentials: { address: false, account: { delay: 0 } } } });
		const decisions = await times(100, () => attempt('credentials', A, EMAIL));
		expect(decisions.every((d) => d.allowed)).toBe(true);
		clock.advance(10 * MINUTE);
		expect(await attempt('credentials', A, EMAIL)).toEqual({ allowed: false, retryAfter: 50 * 60, scope: 'account' });
		clock.advance(50 * MINUTE);
		expect(await attempt('credentials', A, EMAIL)).toMatchObject({ allowed: true });
	});

	it('a success clears the count: the free attempts are there again', async () => {
		const { attempt, limiter } = testLimiter(accountOnly);
		await times(5, () => attempt('credentials', A, EMAIL));
		expect((await attempt('credentials', A, EMAIL)).allowed).toBe(false);
		await limiter.succeeded('credentials', ' Alice@Example.com ');
		const after = await times(4, () => attempt('credentials', A, EMAIL));
		expect(after.every((d) => d.allowed)).toBe(true);
	});

	it('a success handed its check\'s decision clears the gate only if one was opened, and the count either way', async () => {
		const store = new RecordingStore();
		const { attempt, limiter, clock } = testLimiter({ ...accountOnly, store });
		const first = await attempt('credentials', A, EMAIL);
		const second = await attempt('credentials', A, EMAIL);
		await limiter.succeeded('credentials', EMAIL, second);
		// No attempt passed the free ones: only the count to clear.
		expect(store.resets.map((key) => key.split(':')[1])).toEqual(['i']);
		const aliceCount = store.resets[0];
		expect(first.allowed && second.allowed).toBe(true);
		// Past the free attempts (waiting out each delay), a gate was opened: both go.
		store.resets.length = 0;
		let last = await attempt('credentials', A, EMAIL);
		for (let i = 0; i < 6; i++) {
			clock.advance(60 * SECOND);
			last = await attempt('credentials', A, EMAIL);
		}
		expect(last.allowed).toBe(true);
		await limiter.succeeded('credentials', EMAIL, last);
		expect(store.resets.map((key) => key.split(':')[1])).toEqual(['i', 'g']);
		// A decision for another account is not trusted: the full reset, for the identifier given.
		store.resets.length = 0;
		await limiter.succeeded('credentials', 'bob@example.com', second);
		expect(store.resets.map((key) => key.split(':')[1])).toEqual(['i', 'g']);
		expect(store.resets[0]).not.toBe(aliceCount);
	});

	it('one account, whatever its spelling (case, spaces, fullwidth): one budget', async () => {
		const { attempt } = testLimiter(accountOnly);
		for (const spelling of ['alice@example.com', ' ALICE@example.com', 'Alice@Example.COM\t', 'ａｌｉｃｅ＠ｅｘａｍｐｌｅ．ｃｏｍ', 'alice@example.com']) {
			expect((await attempt('credentials', A, spelling)).allowed, spelling).toBe(true);
		}
		expect((await attempt('credentials', A, 'alice@EXAMPLE.com')).allowed).toBe(false);
		expect((await attempt('credentials', A, 'bob@example.com')).allowed).toBe(true);
	});

	it('the address is checked first: an address over its budget does not reach the account counter', async () => {
		const store = new RecordingStore();
		const { attempt } = testLimiter({ store, rules: { credentials: { address: { limit: 10 } } } });
		await times(25, () => attempt('credentials', A, EMAIL));
		const accountHits = store.hits.filter((hit) => hit.key.startsWith('credentials:i:'));
		expect(accountHits).toHaveLength(10);
	});
});

describe('configuration of rules', () => {
	it('a kind set to false is not limited and costs no store call', async () => {
		const store = new RecordingStore();
		const { attempt } = testLimiter({ store, rules: { 'oauth-start': false } });
		const decisions = await times(100, () => attempt('oauth-start', A));
		expect(decisions.every((d) => d.allowed)).toBe(true);
		expect(store.hits).toHaveLength(0);
	});

	it('an unknown kind is allowed (no rule), and never throws', async () => {
		const { limiter } = testLimiter();
		const kind = '__proto__' as never;
		expect(await limiter.check(kind, { address: A, headers: new Headers() })).toMatchObject({ allowed: true });
	});

	it('hostile attempts (no headers, an object as identifier) get a decision', async () => {
		const { limiter, recorded } = testLimiter();
		const hostile = { address: 42, headers: null, identifier: Object.create(null) } as never;
		expect(await limiter.check('credentials', hostile)).toMatchObject({ allowed: true });
		expect(await limiter.check('credentials', undefined as never)).toMatchObject({ allowed: true });
		expect(recorded.errors).toEqual([]);
	});
});

describe('the hot path', () => {
	it('one store call per scope; the gate only once an account is past its free attempts', async () => {
		const store = new RecordingStore();
		const { attempt } = testLimiter({ store, rules: { credentials: { address: { limit: 1000 } } } });
		await attempt('webauthn-options', A);
		expect(store.hits).toHaveLength(1);
		await times(4, () => attempt('credentials', A, EMAIL));
		expect(store.hits).toHaveLength(1 + 4 * 2);
		await attempt('credentials', A, EMAIL); // the fifth opens the gate
		expect(store.hits).toHaveLength(1 + 4 * 2 + 3);
		expect(store.hits.at(-1)?.key).toMatch(/^credentials:g:/);
	});
});

describe('what the store and the logs get to see', () => {
	it('keys are namespaced by kind; identifiers are hashed (no email in clear), addresses bucketed', async () => {
		const store = new RecordingStore();
		const { attempt } = testLimiter({ store });
		for (const kind of LIMIT_KINDS) await attempt(kind, '2001:db8:1:2::99', 'Alice@Example.com');
		const keys = store.hits.map((hit) => hit.key);
		for (const key of keys) {
			expect(key).not.toMatch(/alice|example/i);
			expect(key).toMatch(/^(credentials|email-request|email-code|webauthn-options|webauthn-callback|oauth-start|two-factor):[aig]:/);
		}
		expect(keys).toContain('oauth-start:a:2001:db8:1:2:0:0:0:0/64');
		const hashed = keys.filter((key) => key.startsWith('credentials:i:'));
		expect(hashed).toHaveLength(1);
		expect(hashed[0]).toMatch(/^credentials:i:[\w-]{43}$/);
	});

	it('the hash is keyed: another secret, another key for the same email', async () => {
		const one = new RecordingStore();
		const two = new RecordingStore();
		await testLimiter({ store: one }).attempt('credentials', A, EMAIL);
		const { resolveLimiter } = await import('../../../src/lib/core/limit/resolve.js');
		const other = resolveLimiter({
			config: { store: two },
			env: {},
			adapter: undefined,
			secrets: ['another-secret-0123456789abcdefghijkl'],
			logger: { error: () => {}, warn: () => {}, debug: () => {} },
			events: {}
		});
		await other.check('credentials', { address: A, headers: new Headers(), identifier: EMAIL });
		expect(one.hits[1]?.key).toMatch(/^credentials:i:/);
		expect(two.hits[1]?.key).toMatch(/^credentials:i:/);
		expect(one.hits[1]?.key).not.toBe(two.hits[1]?.key);
	});

	it('each refusal: one rateLimited event and a log line, with a short tag and no address or email', async () => {
		const { attempt, recorded } = testLimiter({ rules: { credentials: { address: { limit: 1 } } } });
		await attempt('credentials', '198.51.100.77', 'carol@example.org');
		await attempt('credentials', '198.51.100.77', 'carol@example.org');
		await attempt('credentials', '198.51.100.77', 'carol@example.org');
		expect(recorded.events).toHaveLength(2);
		expect(recorded.events[0]).toEqual({ kind: 'credentials', scope: 'address', retryAfter: 600, tag: expect.stringMatching(/^[\w-]{12}$/) });
		expect(recorded.warnings).toEqual(['rate-limited', 'rate-limited']);
		expect(recorded.debug.filter((line) => line.message === 'rate-limited')).toHaveLength(2);
		const everything = JSON.stringify(recorded);
		expect(everything).not.toMatch(/198\.51\.100\.77|carol|example\.org/);
	});

	it('account refusals are tagged by the account, the same tag for every spelling', async () => {
		const { attempt, recorded } = testLimiter({ rules: { credentials: { address: false, account: { freeAttempts: 1 } } } });
		await attempt('credentials', A, 'dave@example.net');
		await attempt('credentials', A, 'DAVE@example.net');
		await attempt('credentials', A, ' dave@example.net');
		expect(recorded.events.map((event) => event.scope)).toEqual(['account', 'account']);
		expect(recorded.events[0]?.tag).toBe(recorded.events[1]?.tag);
	});

	it('a throwing logger does not change the decision', async () => {
		const { resolveLimiter } = await import('../../../src/lib/core/limit/resolve.js');
		const broken = () => {
			throw new Error('log sink down');
		};
		const limiter = resolveLimiter({
			config: { rules: { 'oauth-start': { address: { limit: 1 } } } },
			env: {},
			adapter: undefined,
			secrets: ['x'.repeat(32)],
			logger: { error: broken, warn: broken, debug: broken },
			events: {}
		});
		const attempt = { address: A, headers: new Headers() };
		await limiter.check('oauth-start', attempt);
		expect(await limiter.check('oauth-start', attempt)).toMatchObject({ allowed: false, scope: 'address' });
	});

	it('a throwing event handler does not change the decision', async () => {
		const { resolveLimiter } = await import('../../../src/lib/core/limit/resolve.js');
		const limiter = resolveLimiter({
			config: { rules: { 'oauth-start': { address: { limit: 1 } } } },
			env: {},
			adapter: undefined,
			secrets: ['x'.repeat(32)],
			logger: { error: () => {}, warn: () => {}, debug: () => {} },
			events: {
				rateLimited: () => {
					throw new Error('audit sink down');
				}
			}
		});
		const attempt = { address: A, headers: new Headers() };
		await limiter.check('oauth-start', attempt);
		expect(await limiter.check('oauth-start', attempt)).toMatchObject({ allowed: false, scope: 'address' });
	});
});

describe('expired counters', () => {
	it('the limiter sweeps its store every 10 minutes, in the background, on a check', async () => {
		const store = new RecordingStore();
		const { attempt, clock, shared } = testLimiter({ store });
		await attempt('oauth-start', A);
		expect(store.sweeps).toBe(0);
		clock.advance(10 * MINUTE - 1);
		await attempt('oauth-start', A);
		expect(store.sweeps).toBe(0);
		clock.advance(1);
		await attempt('oauth-start', B);
		expect(store.sweeps).toBe(1);
		expect(shared.nextSweepAt).toBe(clock.time + 10 * MINUTE);
		await attempt('oauth-start', B);
		expect(store.sweeps).toBe(1);
	});

	it('sweep() deletes what has expired, in the configured store and the memory fallback', async () => {
		const store = new RecordingStore();
		const { attempt, clock, limiter } = testLimiter({ store });
		await attempt('oauth-start', A);
		await attempt('webauthn-options', A);
		clock.advance(MINUTE); // webauthn-options' window (1 minute) is over, oauth-start's (10) is not
		expect(await limiter.sweep()).toBe(1);
		expect(store.inner.size).toBe(1);
	});
});
