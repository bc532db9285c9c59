/**
 * Device cookies (OWASP, "Slow down online guessing attacks with device cookies") in the limiter,
 * default budgets, injected clock: a browser that signed in to an account before is counted on a
 * budget of its own for it, so neither the account's hard limit and delays nor its office's address
 * budget, spent by an attacker, hold it up; a stolen cookie is still held by its own budget;
 * anything but a valid entry for the account is ignored, never an error.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES } from '../../../src/lib/core/limit/defaults.js';
import { delayAfter } from '../../../src/lib/core/limit/policy.js';
import type { AccountRule, AddressRule, LimitDecision, LimitKind } from '../../../src/lib/core/types/limit.js';
import { Clock, MINUTE, RecordingStore, SECOND, SECRET, type TestLimiter, testLimiter } from './support.js';

const OWNER = 'owner@example.com';
const HOME = '203.0.113.5';
const ACCOUNT = DEFAULT_RULES.credentials.account as AccountRule;
const ADDRESS = DEFAULT_RULES.credentials.address as AddressRule;

/** Signs `identifier` in from `address` (as a browser presenting `device`): the renewed cookie. */
async function signIn(t: TestLimiter, identifier: string, address = HOME, device?: string, kind: LimitKind = 'credentials'): Promise<string> {
	const decision = await t.attempt(kind, address, identifier, undefined, device);
	expect(decision, `${identifier} signs in`).toMatchObject({ allowed: true });
	await t.limiter.succeeded(kind, identifier, decision);
	const cookie = await t.limiter.deviceCookie(kind, identifier, decision);
	expect(cookie).toBeTypeOf('string');
	return cookie!;
}

/** Which budget an attempt from `device` for `identifier` was counted on. */
async function counts(t: TestLimiter, store: RecordingStore, identifier: string, device: string): Promise<'device' | 'account'> {
	const before = store.hits.length;
	await t.attempt('credentials', HOME, identifier, undefined, device);
	const keys = store.hits.slice(before).map((hit) => hit.key.split(':')[1]);
	if (keys.includes('d') && !keys.includes('i') && !keys.includes('a')) return 'device';
	expect(keys).toContain('i');
	return 'account';
}

/** A botnet: each attempt from another address, until the account's hard limit refuses it. */
async function hardLock(t: TestLimiter, identifier: string, kind: LimitKind = 'credentials'): Promise<LimitDecision> {
	for (let i = 0; i < 1000; i++) {
		const decision = await t.attempt(kind, `198.51.${i >> 8}.${i & 255}`, identifier);
		if (!decision.allowed && decision.retryAfter > ACCOUNT.maxDelay) return decision;
		t.clock.advance((decision.allowed ? 0 : decision.retryAfter) * SECOND);
	}
	throw new Error('never locked');
}

describe('a known browser has its own budget for the account', () => {
	it("attackers on many addresses hard-lock the account: the owner's known browser still gets in (failing first), an unknown browser is refused", async () => {
		const t = testLimiter();
		const device = await signIn(t, OWNER);
		const locked = await hardLock(t, OWNER);
		expect(locked).toMatchObject({ allowed: false, scope: 'account' });
		// Known: a few typos of its own, then in, at once.
		for (let i = 0; i < 3; i++) expect(await t.attempt('credentials', HOME, OWNER, undefined, device)).toEqual({ allowed: true });
		await signIn(t, OWNER, HOME, device);
		// Unknown: the account's hard limit, until its window ends.
		const unknown = await t.attempt('credentials', HOME, OWNER);
		expect(unknown).toMatchObject({ allowed: false, scope: 'account' });
		if (!unknown.allowed) expect(unknown.retryAfter).toBeGreaterThan(ACCOUNT.maxDelay);
	});

	it("the same for email codes: a known browser's code is not held by the account's hard limit", async () => {
		const t = testLimiter();
		const device = await signIn(t, OWNER, HOME, undefined, 'email-code');
		await hardLock(t, OWNER, 'email-code');
		expect(await t.attempt('email-code', HOME, OWNER, undefined, device)).toEqual({ allowed: true });
		expect(await t.attempt('email-code', HOME, OWNER)).toMatchObject({ allowed: false, scope: 'account' });
	});

	it("an attacker behind the office's address spends its budget: the office's known browsers keep signing in, unknown ones are refused", async () => {
		const t = testLimiter();
		const colleagues = ['ann@example.com', 'ben@example.com', 'cat@example.com'];
		const devices = new Map<string, string>();
		for (const colleague of colleagues) devices.set(colleague, await signIn(t, colleague));
		for (let i = 0; i <= ADDRESS.limit; i++) await t.attempt('credentials', HOME, `guess${i}@example.com`);
		expect(await t.attempt('credentials', HOME, 'dan@example.com')).toMatchObject({ allowed: false, scope: 'address' });
		for (const colleague of colleagues) devices.set(colleague, await signIn(t, colleague, HOME, devices.get(colleague)));
		// A known browser for Ann is an unknown one for Dan: refused for the address.
		expect(await t.attempt('credentials', HOME, 'dan@example.com', undefined, devices.get('ann@example.com'))).toMatchObject({
			allowed: false,
			scope: 'address'
		});
	});

	it("a known browser's own failures: the account rule's free attempts, delays and hard limit, on its budget (a stolen cookie is no free pass)", async () => {
		const t = testLimiter();
		const stolen = await signIn(t, OWNER);
		// The thief, on many addresses, with the owner's cookie: past the free attempts, a retry too early is refused.
		for (let i = 0; i < ACCOUNT.freeAttempts; i++) expect((await t.attempt('credentials', `192.0.2.${i}`, OWNER, undefined, stolen)).allowed).toBe(true);
		expect(await t.attempt('credentials', '192.0.2.99', OWNER, undefined, stolen)).toMatchObject({ allowed: false, scope: 'device' });
		// Waiting out every delay exactly, it gets the hard limit's worth in the hour, then nothing.
		let allowed = ACCOUNT.freeAttempts + 1; // the refused retry counted too
		for (let i = 0; allowed < ACCOUNT.limit; i++) {
			t.clock.advance(delayAfter(ACCOUNT, allowed) * SECOND);
			expect((await t.attempt('credentials', `192.0.2.${i & 255}`, OWNER, undefined, stolen)).allowed).toBe(true);
			allowed++;
		}
		expect(t.clock.time - Date.UTC(2026, 0, 1)).toBeLessThan(60 * MINUTE);
		t.clock.advance(ACCOUNT.maxDelay * SECOND);
		const last = await t.attempt('credentials', HOME, OWNER, undefined, stolen);
		expect(last).toMatchObject({ allowed: false, scope: 'device' });
		if (!last.allowed) expect(last.retryAfter).toBeGreaterThan(ACCOUNT.maxDelay);
		// The account's own budget was never touched: an unknown browser is not held up.
		expect(await t.attempt('credentials', '198.51.100.1', OWNER)).toEqual({ allowed: true });
	});

	it("the owner's next sign-in makes a new entry with a budget of its own: a thief's old copy keeps only what is left of its own", async () => {
		const t = testLimiter({ rules: { credentials: { account: { freeAttempts: 2, delay: 60, maxDelay: 60 } } } });
		const old = await signIn(t, OWNER);
		const renewed = await signIn(t, OWNER, HOME, old);
		expect(renewed.split('~')[0]).not.toBe(old.split('~')[0]);
		expect(renewed).not.toContain(old.split('~')[0]!);
		// The thief's copy of the old entry runs into its delay...
		for (let i = 0; i < 2; i++) expect((await t.attempt('credentials', '192.0.2.9', OWNER, undefined, old)).allowed).toBe(true);
		expect(await t.attempt('credentials', '192.0.2.9', OWNER, undefined, old)).toMatchObject({ allowed: false, scope: 'device' });
		// ...the owner's new one does not.
		expect(await t.attempt('credentials', HOME, OWNER, undefined, renewed)).toEqual({ allowed: true });
	});

	it("a known browser's success takes back its own hit and leaves the account's count (the attackers') alone", async () => {
		const store = new RecordingStore();
		const t = testLimiter({ store });
		const device = await signIn(t, OWNER);
		for (let i = 0; i < 3; i++) await t.attempt('credentials', `198.51.100.${i}`, OWNER);
		store.resets.length = 0;
		await signIn(t, OWNER, HOME, device);
		expect(store.resets).toEqual([]);
		expect(store.releases.at(-1)?.key).toMatch(/^credentials:d:[\w-]{43}$/);
		// Two free attempts left on the account for unknown browsers, not five.
		const unknown = [];
		for (let i = 0; i < 3; i++) unknown.push((await t.attempt('credentials', `198.51.100.${10 + i}`, OWNER)).allowed);
		expect(unknown).toEqual([true, true, false]);
	});
});

describe('what is not a valid entry for the account is ignored', () => {
	it('forged, tampered, another account’s, malformed, expired or oversized: the attempt is an unknown browser’s, never an error', async () => {
		const t = testLimiter();
		const good = await signIn(t, OWNER);
		const bobs = await signIn(t, 'bob@example.com');
		await hardLock(t, OWNER);
		const [nonce, issued, mac] = good.split('~')[0]!.split('.') as [string, string, string];
		const flip = (text: string) => text.slice(0, -1) + (text.endsWith('A') ? 'B' : 'A');
		const hostile: unknown[] = [
			bobs, // a valid cookie, for another account
			`${flip(nonce)}.${issued}.${mac}`,
			`${nonce}.${Number(issued) + 3600}.${mac}`, // a later issue time
			`${nonce}.${issued}.${flip(mac)}`,
			`${nonce}.${issued}`,
			`${'A'.repeat(22)}.${issued}.${'A'.repeat(43)}`,
			'',
			'~'.repeat(500),
			`${'x'.repeat(5000)}~${good}`,
			`${['a', 'b', 'c', 'd', 'e'].map((c) => `${c.repeat(22)}.1.${c.repeat(43)}`).join('~')}~${good}`, // sixth entry: not read
			'\u0000\u{1F600}%zz',
			42,
			{ toString: () => good },
			null
		];
		for (const device of hostile) {
			const decision = await t.limiter.check('credentials', { address: HOME, headers: new Headers(), identifier: OWNER, device: device as string });
			expect(decision, String(device).slice(0, 40)).toMatchObject({ allowed: false, scope: 'account' });
		}
		expect(t.recorded.errors).toEqual([]);
		// The real one still works.
		expect(await t.attempt('credentials', HOME, OWNER, undefined, good)).toEqual({ allowed: true });
	});

	it('an entry expires a year after it was issued', async () => {
		const store = new RecordingStore();
		const t = testLimiter({ store });
		const device = await signIn(t, OWNER);
		t.clock.advance(365 * 24 * 60 * MINUTE - SECOND);
		expect(await counts(t, store, OWNER, device)).toBe('device');
		t.clock.advance(SECOND);
		expect(await counts(t, store, OWNER, device)).toBe('account');
	});

	it('rotation: entries made under the old secret still count with `secret: [new, old]`; under a secret no longer configured they do not', async () => {
		const NEW = 'rotated-secret-0123456789abcdefghijklmn';
		const clock = new Clock();
		const store = new RecordingStore();
		const before = testLimiter({ store }, clock, [SECRET]);
		const device = await signIn(before, OWNER);
		const rotated = testLimiter({ store }, clock, [NEW, SECRET]);
		await hardLock(rotated, OWNER);
		expect(await rotated.attempt('credentials', HOME, OWNER, undefined, device)).toEqual({ allowed: true });
		// Renewed under the new secret; the old one alone no longer reads it.
		const renewed = await signIn(rotated, OWNER, HOME, device);
		const only = testLimiter({ store }, clock, [NEW]);
		await hardLock(only, OWNER);
		expect(await only.attempt('credentials', HOME, OWNER, undefined, renewed)).toEqual({ allowed: true });
		expect(await only.attempt('credentials', HOME, OWNER, undefined, device)).toMatchObject({ allowed: false, scope: 'account' });
	});
});

describe('the cookie', () => {
	it('remembers the last five accounts signed in from the browser, newest first; it holds no email, nor the hash the store keys by', async () => {
		const store = new RecordingStore();
		const t = testLimiter({ store });
		const accounts = ['a1@example.com', 'a2@example.com', 'a3@example.com', 'a4@example.com', 'a5@example.com', 'a6@example.com'];
		let device: string | undefined;
		for (const account of accounts) device = await signIn(t, account, HOME, device);
		expect(device!.split('~')).toHaveLength(5);
		expect(device).toMatch(/^[\w.~-]+$/);
		expect(device).not.toMatch(/example|a\d@/);
		for (const key of store.hits.map((hit) => hit.key)) expect(device).not.toContain(key.split(':')[2]!);
		// a2 to a6 are known to it; a1 was pushed out.
		const paths = [];
		for (const account of accounts) paths.push(await counts(t, store, account, device!));
		expect(paths).toEqual(['account', 'device', 'device', 'device', 'device', 'device']);
	});

	it('only kinds with an account budget make one (credentials, email codes, email requests)', async () => {
		const t = testLimiter();
		for (const kind of ['webauthn-callback', 'webauthn-options', 'oauth-start'] as const) {
			const decision = await t.attempt(kind, HOME, OWNER);
			expect(await t.limiter.deviceCookie(kind, OWNER, decision), kind).toBeUndefined();
		}
		const off = testLimiter({ rules: { credentials: { account: false } } });
		expect(await off.limiter.deviceCookie('credentials', OWNER, await off.attempt('credentials', HOME, OWNER))).toBeUndefined();
	});

	it('a passkey callback has no account scope: no hard limit can hold it, whatever an account endured', async () => {
		const t = testLimiter();
		await hardLock(t, OWNER);
		expect(DEFAULT_RULES['webauthn-callback'].account).toBe(false);
		expect(await t.attempt('webauthn-callback', HOME, OWNER)).toEqual({ allowed: true });
	});
});
