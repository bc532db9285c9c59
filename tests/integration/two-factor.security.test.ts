/**
 * Two-factor authentication must not be walked around. One named regression test per bypass
 * class better-auth had to patch (shared/research/peer-advisories.md, classes 10, 15, 21): a
 * session cookie cache that skipped the second factor (GHSA-xg6x-h9c9-2m83), codes issued before
 * the second factor that could be exchanged (CVE-2026-134316), non-atomic OTP attempt counters
 * (CVE-2026-134314); and the replays: an observed code, a used backup code, a pending state reused,
 * copied to another browser or stolen. Each is refused with no session and no 5xx.
 */
import { describe, expect, it } from 'vitest';
import { createAuthServer } from '../../src/lib/core/index.js';
import { totpCode } from '../support/totp.js';
import { count, STRATEGIES } from './passkey-fixtures.js';
import { expectNoSessionGranted, location, SESSION_COOKIE, sessionCookiesSet } from './fixtures.js';
import {
	challenge,
	enableTotp,
	expectChallenge,
	passwordStep,
	PENDING_COOKIE,
	signedInWithPassword,
	twoFactorWorld,
	wrongCode
} from './two-factor-fixtures.js';

async function aliceWithTotp(strategy: (typeof STRATEGIES)[number], overrides: Parameters<typeof twoFactorWorld>[2] = {}) {
	const world = await twoFactorWorld(strategy, {}, overrides);
	const { secret, backupCodes } = await enableTotp(await signedInWithPassword(world));
	return { world, secret, backupCodes };
}

describe.each(STRATEGIES)('two-factor bypasses on %s sessions', (strategy) => {
	it('regression GHSA-xg6x-h9c9-2m83 (cookie-cache skip): nothing set before the second factor reads as a session', async () => {
		const { world } = await aliceWithTotp(strategy);
		const sessionsBefore = await count(world.db, 'session');
		const browser = world.client();
		const first = await passwordStep(browser);
		await expectChallenge(first, browser);
		// No row (database), no token (JWT): nothing of a session exists yet.
		expect(await count(world.db, 'session')).toBe(sessionsBefore);
		expect([...browser.jar.keys()].filter((name) => name.includes('session-token'))).toEqual([]);
		// The pending state itself, presented as the session cookie, opens nothing.
		const thief = world.client();
		thief.setCookie(SESSION_COOKIE, browser.cookie(PENDING_COOKIE)!);
		expect(await thief.session()).toBeNull();
		expect((await world.current(thief)).session).toBeNull();
		expect((await world.current(browser)).session).toBeNull();
	});

	it('regression CVE-2026-134316 (auth-code bypass): what the first factor issued cannot be exchanged for a session', async () => {
		const { world } = await aliceWithTotp(strategy);
		const browser = world.client();
		await passwordStep(browser);
		// The first factor again, the session endpoints, and the server API's sign-in (a form
		// action's path): each answers the challenge or nothing, never a session.
		await expectChallenge(await passwordStep(browser), browser);
		await expectNoSessionGranted(await browser.postForm('session', { data: '{}' }));
		const server = createAuthServer(world.config);
		const request = new Request(`${browser.origin}/signin`, { method: 'POST', headers: { cookie: browser.cookieHeader() } });
		const viaServer = await server.signIn({ url: new URL(request.url), request }, 'credentials', { fields: { username: 'alice', password: 'wonderland' } });
		expect(new URL(viaServer.url).pathname).toBe('/auth/two-factor');
		expect(viaServer.cookies.map((c) => c.name)).toContain(PENDING_COOKIE);
		expect(viaServer.cookies.filter((c) => c.name.includes('session-token') && c.value !== '')).toEqual([]);
		// An empty or made-up code, or none, is no way through.
		for (const code of ['', '      ', 'null', '0'.repeat(7)]) await expectNoSessionGranted(await challenge(browser, code));
		await expectNoSessionGranted(await browser.postForm('two-factor'));
		expect(await browser.session()).toBeNull();
	});

	it('regression CVE-2026-134314 (non-atomic attempt counters): 30 concurrent guesses, exactly the limit admitted', async () => {
		const { world, secret } = await aliceWithTotp(strategy, {
			rateLimit: { rules: { 'two-factor': { account: { freeAttempts: 10, delay: 0, limit: 10 } } } }
		});
		const browser = world.client();
		await passwordStep(browser);
		const guesses = await Promise.all(Array.from({ length: 30 }, () => challenge(browser, wrongCode(secret))));
		const statuses = guesses.map((res) => res.status);
		expect(statuses.filter((s) => s === 400)).toHaveLength(10);
		expect(statuses.filter((s) => s === 429)).toHaveLength(20);
		for (const res of guesses) await expectNoSessionGranted(res);
		// The right code is refused too while the budget is spent.
		await expectNoSessionGranted(await challenge(browser, totpCode(secret, 1)));
	});

	it('one code sent from ten pending sign-ins at once gives exactly one session', async () => {
		const { world, secret } = await aliceWithTotp(strategy);
		const browsers = Array.from({ length: 10 }, () => world.client());
		for (const browser of browsers) await passwordStep(browser);
		const code = totpCode(secret, 1);
		const answers = await Promise.all(browsers.map((browser) => challenge(browser, code)));
		expect(answers.filter((res) => sessionCookiesSet(res).length > 0)).toHaveLength(1);
		expect(answers.map((res) => res.status).sort()).toEqual([302, ...Array(9).fill(400)]);
	});

	it('an observed TOTP code is accepted once; a used backup code never again', async () => {
		const { world, secret, backupCodes } = await aliceWithTotp(strategy);
		const owner = world.client();
		await passwordStep(owner);
		const code = totpCode(secret, 1);
		expect((await challenge(owner, code)).status).toBe(302);
		const eavesdropper = world.client();
		await passwordStep(eavesdropper);
		await expectNoSessionGranted(await challenge(eavesdropper, code));
		// An earlier step than the one used is refused too (each step once, in order).
		await expectNoSessionGranted(await challenge(eavesdropper, totpCode(secret, 0)));
		expect((await challenge(eavesdropper, backupCodes[0]!)).status).toBe(302);
		const later = world.client();
		await passwordStep(later);
		await expectNoSessionGranted(await challenge(later, backupCodes[0]!));
	});

	it('a pending state is spent once: replayed after it completed, it gets the sign-in page and no session', async () => {
		const { world, secret, backupCodes } = await aliceWithTotp(strategy);
		const browser = world.client();
		await passwordStep(browser);
		const pending = browser.cookie(PENDING_COOKIE)!;
		expect((await challenge(browser, totpCode(secret, 1))).status).toBe(302);
		const replay = world.client();
		replay.setCookie(PENDING_COOKIE, pending);
		const res = await challenge(replay, backupCodes[1]!);
		await expectNoSessionGranted(res);
		expect(location(res).searchParams.get('error')).toBe('TwoFactorExpired');
		expect(await replay.session()).toBeNull();
	});

	it('a pending cookie taken to another browser, or stolen without the code, gives nothing', async () => {
		const { world, secret } = await aliceWithTotp(strategy);
		const owner = world.client();
		await passwordStep(owner, `${owner.origin}/account`);
		const stolen = owner.cookie(PENDING_COOKIE)!;
		const firefox = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0' };
		const elsewhere = world.client();
		elsewhere.setCookie(PENDING_COOKIE, stolen);
		const taken = await challenge(elsewhere, totpCode(secret, 1), {}, firefox);
		await expectNoSessionGranted(taken);
		expect(location(taken).searchParams.get('error')).toBe('TwoFactorExpired');
		expect((await elsewhere.get('two-factor', { headers: firefox })).status).toBe(302);
		// Same browser software, but no code: a page, wrong guesses, never a session.
		const thief = world.client();
		thief.setCookie(PENDING_COOKIE, stolen);
		expect((await thief.get('two-factor')).status).toBe(200);
		await expectNoSessionGranted(await challenge(thief, wrongCode(secret)));
		// A forged or tampered one is no pending state at all.
		const forged = world.client();
		forged.setCookie(PENDING_COOKIE, `${stolen.slice(0, -4)}AAAA`);
		await expectNoSessionGranted(await challenge(forged, totpCode(secret, 1)));
		// The owner, meanwhile, still finishes.
		expect((await challenge(owner, totpCode(secret, 1))).status).toBe(302);
	});
});
