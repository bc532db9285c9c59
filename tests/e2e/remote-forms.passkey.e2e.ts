/**
 * The passkey and two-factor components on kitauth/remote's forms (SvelteKit 3.2 remote
 * functions): the demo's /remote/account (PasskeyList on the page's own `passkeyForms()` with the
 * demo's short re-authentication window; TwoFactorSetup and BackupCodes on kitauth/remote's forms)
 * and /remote/two-factor (TwoFactorChallenge on `verifyTwoFactor`), in Chromium with JavaScript and
 * without it. On the passkey demo (http://localhost, a virtual authenticator), whose demo user no
 * other suite signs in.
 */
import { type Browser, expect, test, type CDPSession, type Page } from '@playwright/test';
import { base32Decode, totpCode } from '../support/totp.js';
import { DEMO_EMAIL, DEMO_PASSWORD, sessionCookie, submitDemoSignIn } from './demo.js';
import { PASSKEY_REAUTH_SECONDS } from './servers.js';
import { addAuthenticator, credentials, hydrated } from './webauthn.js';

/** A new user, signed up with a passkey and landed on /remote/account. */
async function passkeyUser(page: Page, cdp: CDPSession): Promise<string> {
	await cdp.send('WebAuthn.enable', { enableUI: false });
	const authenticator = await addAuthenticator(cdp);
	await page.goto('/signin?redirectTo=/remote/account');
	await hydrated(page);
	await page.locator('form.kitauth-passkey input[name="email"]').fill(`remote-passkey-${Date.now()}@example.com`);
	await page.getByRole('button', { name: 'Continue with a passkey' }).click();
	await expect(page).toHaveURL((url) => url.pathname === '/remote/account');
	return authenticator;
}

/** A passkey's row, found by its id (the hidden field of its forms). */
const rowOf = (page: Page, credentialId: string) =>
	page.getByTestId('passkeys').locator('li').filter({ has: page.locator(`input[type="hidden"][value="${Buffer.from(credentialId, 'base64').toString('base64url')}"]`) }).first();

/** The sign-in's session must be stale before a removal asks to confirm it is the user. */
const waitUntilStale = (page: Page) => page.waitForTimeout((PASSKEY_REAUTH_SECONDS + 1) * 1000);

test('passkeys through the remote forms: renamed, a stale removal refused with reauthenticate, removed after confirming', async ({ page }) => {
	test.setTimeout(90_000);
	const cdp = await page.context().newCDPSession(page);
	const laptop = await passkeyUser(page, cdp);
	await hydrated(page);
	const list = page.getByTestId('passkeys');
	await expect(list.locator('li')).toHaveCount(1);
	// The forms post to the remote forms (kit's `?/remote=` action), not to form actions.
	await expect(list.locator('form.rename')).toHaveAttribute('action', /\?\/remote=[a-z0-9]+%2FrenamePasskey/);
	await expect(list.locator('form.remove')).toHaveAttribute('action', /\?\/remote=[a-z0-9]+%2FremovePasskey/);

	// A second passkey from another device, so that one may go; both on one authenticator after.
	const saved = await credentials(cdp, laptop);
	await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: laptop });
	const phone = await addAuthenticator(cdp);
	await page.getByRole('button', { name: 'Add a passkey' }).click();
	await expect(list.locator('li')).toHaveCount(2);
	// The ceremony ends in a page load: typing before it hydrates would be undone by hydration.
	await hydrated(page);
	for (const credential of saved) await cdp.send('WebAuthn.addCredential', { authenticatorId: phone, credential });

	const first = rowOf(page, saved[0]!.credentialId);
	await first.getByLabel('Name of passkey').fill('   ');
	await first.getByRole('button', { name: 'Rename' }).click();
	await expect(first.getByLabel('Name of passkey')).toHaveAccessibleDescription('Give the passkey a name.');
	await expect(first.getByLabel('Name of passkey')).toBeFocused();
	await first.getByLabel('Name of passkey').fill('Old laptop');
	await first.getByRole('button', { name: 'Rename' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'Passkey renamed.' })).toBeVisible();
	await expect(first.getByLabel('Name of passkey')).toHaveValue('Old laptop');
	await expect(first.getByRole('button', { name: 'Remove passkey Old laptop' })).toBeVisible();

	await waitUntilStale(page);
	await first.getByRole('button', { name: 'Remove passkey Old laptop' }).click();
	const prompt = page.getByRole('alertdialog');
	await expect(prompt).toHaveAccessibleName('Confirm it is you to remove a passkey.');
	await expect(prompt).toBeFocused();
	await expect(list.locator('li')).toHaveCount(2);
	await prompt.getByRole('button', { name: 'Confirm with a passkey' }).click();
	await expect(page).toHaveURL((url) => url.pathname === '/remote/account');
	await expect(page.getByRole('alertdialog')).toHaveCount(0);
	await hydrated(page);
	await first.getByRole('button', { name: 'Remove passkey Old laptop' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'Passkey removed.' })).toBeVisible();
	await expect(list.locator('li')).toHaveCount(1);
	await expect(list).toBeFocused();
});

test('without JavaScript: the remote forms rename as plain forms, and a stale removal renders the re-authentication prompt', async ({ page, browser }) => {
	test.setTimeout(60_000);
	const cdp = await page.context().newCDPSession(page);
	await passkeyUser(page, cdp);
	const plain = await browser.newContext({ javaScriptEnabled: false, baseURL: test.info().project.use.baseURL, storageState: await page.context().storageState() });
	const noJs = await plain.newPage();
	await noJs.goto('/remote/account');
	const card = noJs.locator('[data-kitauth="passkeys"]');
	const name = card.getByRole('textbox', { name: 'Name of passkey' });

	await name.fill('   ');
	await card.getByRole('button', { name: /^Rename/ }).click();
	await expect(noJs).toHaveURL((url) => url.pathname === '/remote/account');
	await expect(name).toHaveAttribute('aria-invalid', 'true');
	await expect(name).toHaveAccessibleDescription('Give the passkey a name.');

	await name.fill('Desk laptop');
	await card.getByRole('button', { name: /^Rename/ }).click();
	await expect(card.getByRole('status').filter({ hasText: 'Passkey renamed.' })).toBeVisible();
	await expect(name).toHaveValue('Desk laptop');

	await waitUntilStale(noJs);
	await card.getByRole('button', { name: 'Remove passkey Desk laptop' }).click();
	await expect(card.getByRole('alertdialog')).toHaveAccessibleName('Confirm it is you to remove a passkey.');
	await expect(card.getByRole('listitem')).toHaveCount(1);
	await plain.close();
});

/** Signs the demo user in on /remote (kitauth/remote's `signIn`). */
const signInOnRemote = (page: Page) => submitDemoSignIn(page, DEMO_PASSWORD, '/remote');

async function signOutOnRemote(page: Page): Promise<void> {
	await page.goto('/remote');
	await page.locator('main').getByRole('button', { name: 'Sign out' }).click();
	await expect.poll(async () => (await sessionCookie(page)) === undefined).toBe(true);
}

async function withoutJavaScript(browser: Browser): Promise<Page> {
	const context = await browser.newContext({ javaScriptEnabled: false, baseURL: test.info().project.use.baseURL });
	return context.newPage();
}

test('two-step verification through the remote forms: turned on, new backup codes, challenged (wrong and right code, with and without JavaScript), turned off', async ({ page, browser }) => {
	test.setTimeout(90_000);
	await page.goto('/remote');
	await hydrated(page);
	await signInOnRemote(page);
	await expect(page.getByTestId('remote-session')).toHaveText(DEMO_EMAIL);
	await page.goto('/remote/account');
	await hydrated(page);

	// Turn on: a wrong code refused under the field, then the right one; the backup codes shown.
	const key = (await page.getByTestId('two-factor-key').textContent())!.replaceAll(' ', '');
	expect(base32Decode(key)).toHaveLength(20);
	await page.getByLabel('Code from the app').fill(totpCode(key) === '000000' ? '111111' : '000000');
	await page.getByRole('button', { name: 'Turn on' }).click();
	await expect(page.getByLabel('Code from the app')).toHaveAccessibleDescription(/That code did not work/);
	await page.getByLabel('Code from the app').fill(totpCode(key));
	await page.getByRole('button', { name: 'Turn on' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'Two-step verification is now on. Save your backup codes.' })).toBeVisible();
	await expect(page.getByText('Two-step verification is on.').first()).toBeVisible();
	const codes = page.getByTestId('backup-codes').locator('code');
	await expect(codes).toHaveCount(10);
	const firstCodes = await codes.allTextContents();

	// New backup codes replace them (a recent sign-in: kitauth's default window).
	await page.getByRole('button', { name: 'Make new backup codes' }).click();
	await expect.poll(async () => (await codes.allTextContents()).join()).not.toBe(firstCodes.join());
	await expect(codes).toHaveCount(10);
	const backupCodes = await codes.allTextContents();
	expect(backupCodes.filter((code) => firstCodes.includes(code))).toEqual([]);
	await signOutOnRemote(page);

	// Signed in again: the first factor stops at the challenge, with no session; answered on /remote/two-factor.
	await signInOnRemote(page);
	await expect(page).toHaveURL((url) => url.pathname === '/two-factor');
	expect(await sessionCookie(page)).toBeUndefined();
	await page.goto('/remote/two-factor');
	await hydrated(page);
	const code = totpCode(key, 1);
	await page.getByLabel('Code').fill(code === '000000' ? '111111' : '000000');
	await page.getByRole('button', { name: 'Verify' }).click();
	await expect(page.getByLabel('Code')).toHaveAccessibleDescription(/That code did not work/);
	await expect(page.getByLabel('Code')).toBeFocused();
	expect(await sessionCookie(page)).toBeUndefined();
	await page.getByLabel('Code').fill(code);
	await page.getByRole('button', { name: 'Verify' }).click();
	await expect(page).toHaveURL((url) => url.pathname === '/remote');
	await expect(page.getByTestId('remote-session')).toHaveText(DEMO_EMAIL);
	await page.goto('/remote/account');
	await expect(page.getByTestId('session-factors')).toHaveText('credentials, totp');

	// Without JavaScript: a code of the first set is refused (they were replaced), a new one works.
	const other = await withoutJavaScript(browser);
	await signInOnRemote(other);
	await expect(other).toHaveURL((url) => url.pathname === '/two-factor');
	await other.goto('/remote/two-factor');
	await other.getByLabel('Code').fill(firstCodes[0]!);
	await other.getByRole('button', { name: 'Verify' }).click();
	await expect(other.getByLabel('Code')).toHaveAccessibleDescription(/That code did not work/);
	expect(await sessionCookie(other)).toBeUndefined();
	await other.getByLabel('Code').fill(backupCodes[0]!);
	await other.getByRole('button', { name: 'Verify' }).click();
	await expect(other).toHaveURL((url) => url.pathname === '/remote');
	await other.goto('/remote/account');
	await expect(other.getByTestId('session-factors')).toHaveText('credentials, backup-code');
	await expect(other.getByText('9 backup codes left.')).toBeVisible();
	await other.context().close();

	// Turned off (the demo user leaves as it came).
	await page.getByRole('button', { name: 'Turn off' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'Two-step verification is off.' })).toBeVisible();
	await expect(page.getByTestId('two-factor-key')).toBeVisible();
});
