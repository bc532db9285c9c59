/**
 * Two-factor authentication end to end through the real `Auth()` and libSQL, on both session
 * strategies: set TOTP up (QR key, a code from the "app"), sign out, sign in with the password and
 * then a TOTP code, then with a backup code; what the session says it passed; remembered browsers;
 * management's sudo window and events; and a user who must set it up at sign-in.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { totpCode } from '../support/totp.js';
import { expectNoSessionGranted, location, sessionCookiesSet } from './fixtures.js';
import { STRATEGIES } from './passkey-fixtures.js';
import {
	challenge,
	DEVICE_COOKIE,
	enableTotp,
	expectChallenge,
	passwordStep,
	PENDING_COOKIE,
	signedInWithPassword,
	twoFactorWorld,
	wrongCode
} from './two-factor-fixtures.js';

afterEach(() => {
	vi.useRealTimers();
});

/** Moves the clock on (Date only: the database and the timers run as they do). */
function later(ms: number): void {
	vi.useFakeTimers({ toFake: ['Date'] });
	vi.setSystemTime(Date.now() + ms);
}

describe.each(STRATEGIES)('two-factor on %s sessions', (strategy) => {
	it('sets TOTP up, then every password sign-in stops at the challenge until a TOTP code, then a backup code, passes', async () => {
		const world = await twoFactorWorld(strategy);
		const owner = await signedInWithPassword(world);
		expect(await owner.session()).toMatchObject({ factors: ['credentials'] });
		const { secret, backupCodes } = await enableTotp(owner);
		expect(secret).toMatch(/^[A-Z2-7]{32}$/);
		expect(backupCodes).toHaveLength(10);
		expect(world.events.filter((e) => e.name === 'twoFactorEnabled')).toHaveLength(1);

		const browser = world.client();
		await expectChallenge(await passwordStep(browser), browser);
		const page = await browser.get('two-factor');
		expect(page.status).toBe(200);
		const html = await page.text();
		expect(html).toContain('name="code"');
		expect(html).toContain('autocomplete="one-time-code"');
		// A wrong code: the form again, and still no session.
		const wrong = await challenge(browser, wrongCode(secret));
		expect(wrong.status).toBe(400);
		expect(await wrong.text()).toContain('That code did not work');
		expect(await browser.session()).toBeNull();

		const passed = await challenge(browser, totpCode(secret, 1));
		expect(passed.status).toBe(302);
		expect(location(passed).pathname).toBe('/account');
		expect(sessionCookiesSet(passed)).not.toEqual([]);
		expect(browser.cookie(PENDING_COOKIE)).toBeUndefined();
		expect(await browser.session()).toMatchObject({ user: { email: 'alice@example.com' }, factors: ['credentials', 'totp'] });

		const other = world.client();
		await expectChallenge(await passwordStep(other), other);
		const withBackup = await challenge(other, backupCodes[3]!.toUpperCase());
		expect(withBackup.status).toBe(302);
		expect(await other.session()).toMatchObject({ factors: ['credentials', 'backup-code'] });
		expect(world.events.find((e) => e.name === 'backupCodeUsed')?.message).toEqual({ userId: 'user-1', remaining: 9 });
		expect(world.errors).toEqual([]);
	});

	it('a JSON client gets `{failed, fieldErrors, formErrors}` for a wrong code and `{url}` for a right one', async () => {
		const world = await twoFactorWorld(strategy);
		const { secret } = await enableTotp(await signedInWithPassword(world));
		const browser = world.client();
		await passwordStep(browser);
		const json = { 'x-auth-return-redirect': '1' };
		const wrong = await challenge(browser, 'nope', {}, json);
		expect(wrong.status).toBe(400);
		expect(await wrong.json()).toEqual({ failed: true, fieldErrors: { code: ['That code did not work. Check it and try again.'] }, formErrors: [] });
		const right = await challenge(browser, totpCode(secret, 1), {}, json);
		expect(right.status).toBe(200);
		expect(await right.json()).toEqual({ url: `${browser.origin}/account` });
	});

	it('"remember this browser" skips the challenge there until the devices are forgotten', async () => {
		const world = await twoFactorWorld(strategy);
		const owner = await signedInWithPassword(world);
		const { secret } = await enableTotp(owner);
		const browser = world.client();
		await passwordStep(browser);
		await challenge(browser, totpCode(secret, 1), { remember: 'on' });
		expect(browser.cookie(DEVICE_COOKIE)).toBeTruthy();
		await browser.postForm('signout');
		const again = await passwordStep(browser);
		expect(location(again).pathname).toBe('/account');
		expect(await browser.session()).toMatchObject({ factors: ['credentials', 'remembered-device'] });
		// Another user's or a forged cookie does nothing; forgetting the devices ends it.
		expect((await owner.postForm('two-factor-devices')).status).toBe(200);
		await browser.postForm('signout');
		await expectChallenge(await passwordStep(browser), browser);
		// Remembered again, then a credential changes (a password reset): forgotten as well.
		later(60_000);
		expect((await challenge(browser, totpCode(secret, 0), { remember: 'on' })).status).toBe(302);
		await (await world.current(owner)).credentialsChanged('password', { endSessions: 'none' });
		await browser.postForm('signout');
		await expectChallenge(await passwordStep(browser), browser);
	});

	it('turning it off and new backup codes need a recent sign-in; the old codes stop working', async () => {
		const world = await twoFactorWorld(strategy);
		const owner = await signedInWithPassword(world);
		const { secret, backupCodes } = await enableTotp(owner);
		const fresh = await owner.postForm('two-factor-backup-codes');
		expect(fresh.status).toBe(200);
		const { backupCodes: renewed } = (await fresh.json()) as { backupCodes: string[] };
		expect(renewed).toHaveLength(10);
		const browser = world.client();
		await passwordStep(browser);
		expect((await challenge(browser, backupCodes[0]!)).status).toBe(400);
		expect((await challenge(browser, renewed[0]!)).status).toBe(302);

		later(11 * 60_000);
		const stale = await owner.postForm('two-factor-disable');
		expect(stale.status).toBe(403);
		expect(await stale.json()).toMatchObject({ failed: true, reauthenticate: true });
		expect((await owner.postForm('two-factor-backup-codes')).status).toBe(403);
		// A fresh sign-in (through the challenge) may turn it off.
		const again = world.client();
		await passwordStep(again);
		expect((await challenge(again, totpCode(secret, 0))).status).toBe(302);
		expect((await again.postForm('two-factor-disable')).status).toBe(200);
		expect(world.events.filter((e) => e.name === 'twoFactorDisabled')).toEqual([{ name: 'twoFactorDisabled', message: { userId: 'user-1' } }]);
		const plain = await passwordStep(world.client());
		expect(location(plain).pathname).toBe('/account');
	});

	it('turning off an unfinished setup removes it, answers that it was not on, and raises no event', async () => {
		const world = await twoFactorWorld(strategy);
		const owner = await signedInWithPassword(world);
		expect((await owner.postForm('two-factor-setup')).status).toBe(200);
		const off = await owner.postForm('two-factor-disable');
		expect(off.status).toBe(409);
		expect(world.events.filter((e) => e.name === 'twoFactorDisabled')).toEqual([]);
		// The setup is gone: enabling now needs a new one.
		expect((await (await owner.postForm('two-factor-setup')).json()) as { secret: string }).toHaveProperty('secret');
		const plain = await passwordStep(world.client());
		expect(location(plain).pathname).toBe('/account');
	});

	it("with required: 'always', a user without a second factor sets one up before the session starts", async () => {
		const world = await twoFactorWorld(strategy, { required: 'always' });
		const browser = world.client();
		await expectChallenge(await passwordStep(browser), browser);
		const page = await browser.get('two-factor');
		expect(page.status).toBe(200);
		const html = await page.text();
		const secret = /data-testid="two-factor-key"[^>]*>([A-Z2-7 ]+)</.exec(html)?.[1]?.replaceAll(' ', '');
		expect(secret).toMatch(/^[A-Z2-7]{32}$/);
		expect(html).toContain('<svg class="qr');
		// The page reloaded shows the same secret (the app already scanned it).
		expect(await (await browser.get('two-factor')).text()).toContain(`>${secret!.replace(/(.{4})(?=.)/g, '$1 ')}<`);
		await expectNoSessionGranted(await challenge(browser, '123'));
		const done = await challenge(browser, totpCode(secret!));
		expect(done.status).toBe(200);
		const codes = /data-testid="backup-codes"/.test(await done.clone().text());
		expect(codes).toBe(true);
		expect(sessionCookiesSet(done)).not.toEqual([]);
		expect(await browser.session()).toMatchObject({ factors: ['credentials', 'totp'] });
	});
});
