import { expect, test, type Page } from '@playwright/test';
import { DEMO_EMAIL, DEMO_PASSWORD, loginAtIdp, sessionCookie } from './demo.js';

/** The demo's /client page signs in and out with `kitauth/client`, not form actions. */
async function openClientPage(page: Page): Promise<void> {
	await page.goto('/client');
	// The form and buttons only work once the page is hydrated.
	await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
}

async function signInInPlace(page: Page, password: string): Promise<void> {
	await page.getByLabel('Email', { exact: true }).fill(DEMO_EMAIL);
	await page.getByLabel('Password').fill(password);
	await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test('signIn("password", { redirect: false }) reports a wrong password in place, with no session', async ({ page }) => {
	await openClientPage(page);
	await signInInPlace(page, 'not-the-password');
	await expect(page.getByRole('alert')).toHaveText('Wrong email or password.');
	await expect(page).toHaveURL(/\/client$/);
	expect(await sessionCookie(page)).toBeUndefined();
});

test('signIn("password") signs in without leaving the page, signOut() signs out', async ({ page }) => {
	await openClientPage(page);
	await signInInPlace(page, DEMO_PASSWORD);
	await expect(page.getByTestId('client-who')).toHaveText(`Signed in as ${DEMO_EMAIL}.`);
	await expect(page).toHaveURL(/\/client$/);
	expect((await sessionCookie(page))?.value).toMatch(/^[0-9a-f]{64}$/);

	await page.getByRole('button', { name: 'Sign out', exact: true }).last().click();
	await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
	await expect(page).toHaveURL(/\/client$/);
	expect(await sessionCookie(page)).toBeUndefined();
});

test('update() changes the session in place: the reactive session shows the callback\'s answer, without a reload', async ({ page }) => {
	await openClientPage(page);
	await signInInPlace(page, DEMO_PASSWORD);
	await expect(page.getByTestId('client-who')).toHaveText(`Signed in as ${DEMO_EMAIL}.`);
	await page.evaluate(() => ((window as unknown as { marker: string }).marker = 'not reloaded'));
	await page.getByLabel('Greeting').fill('Good morning');
	await page.getByRole('button', { name: 'Update the session' }).click();
	await expect(page.getByTestId('client-greeting')).toHaveText('Good morning');
	expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('not reloaded');
	// No sign-out here (the test above covers it; each test has its own browser context): its
	// navigation, still loading when the test ended, made Chromium take over 30 s to close the
	// context about once in six runs, before and after this session's changes.
});

test('signIn("local") goes through the OpenID Provider to its redirectTo', async ({ page }) => {
	await openClientPage(page);
	await page.getByRole('button', { name: 'Sign in with the local test IdP' }).click();
	// A login of its own: the IdP's users become kitauth users other tests must not meet.
	await loginAtIdp(page, 'erin');
	await expect(page).toHaveURL((url) => url.pathname === '/account');
	await expect(page.getByTestId('account-email')).toHaveText('erin@example.com');
});
