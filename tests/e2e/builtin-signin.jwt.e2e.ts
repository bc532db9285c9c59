import { expect, test } from '@playwright/test';
import { expectBuiltInPageAccessible } from './axe.js';
import { chosenAddress, DEMO_EMAIL, DEMO_PASSWORD, identify, SESSION_COOKIE, sessionCookie } from './demo.js';

/**
 * kitauth's built-in sign-in page, rendered by the core (svelte/server) at /auth/signin. The JWT
 * server runs the demo with `KITAUTH_DEMO_PAGES=builtin`, so no custom page replaces it.
 */

test('the built-in sign-in page lists the providers and signs in with credentials', async ({ page }) => {
	await page.goto('/auth/signin?callbackUrl=%2Faccount');
	await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
	await expect(page.getByRole('button', { name: 'Sign in with Local test IdP' })).toBeVisible();
	// Identifier-first (the demo's methods share the address): the address, posted to the page,
	// whose answer is step 2 with the password field.
	await expect(page.getByLabel('Email address', { exact: true })).toHaveAttribute('type', 'email');
	await identify(page);
	await expect(page).toHaveURL((url) => url.pathname === '/auth/signin' && url.search === '');
	await expect(chosenAddress(page)).toHaveText(DEMO_EMAIL);
	await expect(page.getByLabel('Password')).toHaveAttribute('type', 'password');
	await page.getByLabel('Password').fill(DEMO_PASSWORD);
	await page.getByRole('button', { name: 'Sign in', exact: true }).click();
	await expect(page).toHaveURL((url) => url.pathname === '/account');
	await expect(page.getByTestId('account-email')).toHaveText(DEMO_EMAIL);
	expect((await sessionCookie(page))?.name).toBe(SESSION_COOKIE);
});

test('a wrong password comes back to the built-in page with the error shown', async ({ page }) => {
	await page.goto('/auth/signin?callbackUrl=%2Faccount');
	await identify(page);
	await page.getByLabel('Password').fill('not-the-password');
	await page.getByRole('button', { name: 'Sign in', exact: true }).click();
	await expect(page).toHaveURL((url) => url.pathname === '/auth/signin' && url.searchParams.get('error') === 'CredentialsSignin');
	expect(new URL(page.url()).searchParams.get('code')).toBe('credentials');
	await expect(page.getByRole('alert')).toContainText('Sign in failed');
	expect(await sessionCookie(page)).toBeUndefined();
});

test('axe finds nothing on the built-in sign-in page, with and without an error', async ({ page }) => {
	for (const path of ['/auth/signin', '/auth/signin?error=CredentialsSignin']) {
		await page.goto(path);
		if (path.includes('error=')) await expect(page.getByRole('alert')).toContainText('Sign in failed');
		await expectBuiltInPageAccessible(page);
	}
});
