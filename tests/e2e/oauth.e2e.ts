import { expect, test } from '@playwright/test';
import { DEMO_EMAIL, loginAtIdp, signInToAccount } from './demo.js';

test('signs in through the demo\'s OpenID Provider and lands on /account', async ({ page }) => {
	await page.goto('/signin?redirectTo=/account');
	await page.getByRole('button', { name: 'Sign in with Local test IdP' }).click();
	await loginAtIdp(page, 'carol');
	await expect(page).toHaveURL((url) => url.pathname === '/account');
	await expect(page.getByTestId('account-email')).toHaveText('carol@example.com');
	await expect(page.getByTestId('accounts')).toContainText('local');
	// The check cookies were used once and deleted.
	const names = (await page.context().cookies()).map((cookie) => cookie.name);
	expect(names.filter((name) => /pkce|nonce|state/.test(name))).toEqual([]);
});

test('a signed-in user links the OpenID Provider to their account', async ({ page }) => {
	await signInToAccount(page);
	await expect(page.getByTestId('accounts')).toContainText('None yet');

	await page.getByRole('button', { name: 'Sign in with Local test IdP' }).click();
	await loginAtIdp(page, 'dave');
	await expect(page).toHaveURL((url) => url.pathname === '/account');
	// Still the demo user, now with the IdP account linked.
	await expect(page.getByTestId('account-email')).toHaveText(DEMO_EMAIL);
	await expect(page.getByTestId('accounts')).toContainText('local');
});
