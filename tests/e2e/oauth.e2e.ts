import { expect, test } from '@playwright/test';
import { DEMO_EMAIL, loginAtIdp, signInToAccount } from './demo.js';

test('signs in through the demo\'s OpenID Provider and lands on /account', async ({ page }) => {
	await page.goto('/signin?redirectTo=/account');
	await page.getByRole('button', { name: 'Sign in with Local test IdP' }).click();
	await loginAtIdp(page, 'carol');
	await expect(page).toHaveURL((url) => url.pathname === '/account');
	await expect(page.getByTestId('account-email')).toHaveText('carol@example.com');
	// Carol's one account may go: the demo also signs her in by email, at her address.
	const accounts = page.locator('[data-kitauth="accounts"]');
	await expect(accounts.getByRole('listitem')).toHaveText([/Local test IdP/]);
	await expect(accounts.getByRole('button', { name: 'Unlink Local test IdP' })).toBeVisible();
	// The check cookies were used once and deleted.
	const names = (await page.context().cookies()).map((cookie) => cookie.name);
	expect(names.filter((name) => /pkce|nonce|state/.test(name))).toEqual([]);
});

test('a signed-in user links the OpenID Provider to their account, then unlinks it', async ({ page }) => {
	await signInToAccount(page);
	const accounts = page.locator('[data-kitauth="accounts"]');
	await expect(accounts).toContainText('No linked accounts yet.');

	await accounts.getByRole('button', { name: 'Link Local test IdP' }).click();
	await loginAtIdp(page, 'dave');
	await expect(page).toHaveURL((url) => url.pathname === '/account');
	// Still the demo user, now with the IdP account linked.
	await expect(page.getByTestId('account-email')).toHaveText(DEMO_EMAIL);
	await expect(accounts.getByRole('listitem')).toHaveText([/Local test IdP/]);

	// The demo user also has a password, so the account may go.
	await accounts.getByRole('button', { name: 'Unlink Local test IdP' }).click();
	await expect(accounts.getByRole('status')).toHaveText('Account unlinked.');
	await expect(accounts).toContainText('No linked accounts yet.');
	await expect(accounts.getByRole('button', { name: 'Link Local test IdP' })).toBeVisible();
});
