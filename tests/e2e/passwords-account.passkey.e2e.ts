import { expect, test } from '@playwright/test';
import { sessionCookie } from './demo.js';
import { address, expectSignedInAs, ready, signIn, signUp } from './passwords.js';
import { PASSKEY_REAUTH_SECONDS } from './servers.js';

/**
 * Deleting a password account once its sign-in is no longer recent, on the passkey demo, whose
 * "sudo mode" window is short (`KITAUTH_DEMO_REAUTH_SECONDS`, the demo's `Password({ recentSignIn })`)
 * and which sends no mail (a new account signs in at once).
 */
for (const javaScriptEnabled of [true, false]) {
	test(`delete the account: refused without the password once the sign-in is not recent, then deleted with it (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async ({ page }) => {
		test.setTimeout(60_000);
		const email = address(javaScriptEnabled ? 'stale-js' : 'stale-nojs');
		await signUp(page, javaScriptEnabled, email, 'an older password');
		await expect(page).toHaveURL((url) => url.pathname === '/signin');
		await signIn(page, email, 'an older password');
		await expectSignedInAs(page, email);
		await page.waitForTimeout((PASSKEY_REAUTH_SECONDS + 1) * 1000);

		await ready(page, javaScriptEnabled);
		const deletion = page.getByRole('form', { name: 'Delete your account' });
		await deletion.getByRole('button', { name: 'Delete the account' }).click();
		await expect(deletion.getByLabel('Current password')).toHaveAccessibleDescription(/Enter your current password\./);
		await page.goto('/account');
		await expectSignedInAs(page, email);

		await ready(page, javaScriptEnabled);
		await deletion.getByLabel('Current password').fill('an older password');
		await deletion.getByRole('button', { name: 'Delete the account' }).click();
		await expect(page.getByRole('status')).toHaveText('Your account was deleted.');
		expect(await sessionCookie(page)).toBeUndefined();
		await signIn(page, email, 'an older password');
		await expect(page.getByRole('alert')).toContainText('Sign in failed');
	});
}
