import { expect, test, type Page } from '@playwright/test';
import { DEMO_EMAIL, signInToAccount } from './demo.js';

/** Fills the local IdP's own login and consent pages (oidc-provider's devInteractions). */
async function loginAtIdp(page: Page, login: string) {
	await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/interaction\//);
	await page.locator('input[name="login"]').fill(login);
	await page.locator('input[name="password"]').fill('any-password');
	await page.locator('button[type="submit"]').click();
	// Consent: the IdP asks once per client and account.
	await page.locator('button[type="submit"]', { hasText: /continue/i }).click();
}

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
