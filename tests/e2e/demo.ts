import { expect, type Page } from '@playwright/test';

/** The demo's user (`Password()`'s, created at start-up: see src/demo/users.ts). */
export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_PASSWORD = 'demo-password';
export const SESSION_COOKIE = 'authjs.session-token';

/**
 * Identifier-first's step 1 on a sign-in form (the demo's methods share the address): the address,
 * then "Continue" (step 2 comes in place with JavaScript, as the form's answer without it).
 */
export async function identify(page: Page, email = DEMO_EMAIL): Promise<void> {
	await page.getByLabel('Email address', { exact: true }).fill(email);
	await page.getByRole('button', { name: 'Continue', exact: true }).click();
}

/** Step 2's password (after step 1, unless step 2 is shown already, e.g. after a refusal). */
export async function signInWithPassword(page: Page, password: string, email = DEMO_EMAIL): Promise<void> {
	if (await page.getByLabel('Email address', { exact: true }).isVisible()) await identify(page, email);
	await page.getByLabel('Password').fill(password);
	await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** The address step 2 is for, as the sign-in form shows it. */
export const chosenAddress = (page: Page) => page.locator('[data-step="method"] .address');

/** Fills and submits the demo's own sign-in form (`/signin`, the `signIn` form action), both steps. */
export async function submitDemoSignIn(page: Page, password = DEMO_PASSWORD, path = '/signin'): Promise<void> {
	await page.goto(path);
	await signInWithPassword(page, password);
}

/** Signs the demo user in and waits for /account (matching the path: the query may end in /account too). */
export async function signInToAccount(page: Page): Promise<void> {
	await submitDemoSignIn(page, DEMO_PASSWORD, '/signin?redirectTo=/account');
	await expect(page).toHaveURL((url) => url.pathname === '/account');
}

/** The session cookie (or its first chunk) the browser holds, if any. */
export async function sessionCookie(page: Page) {
	const cookies = await page.context().cookies();
	return cookies.find((cookie) => cookie.name === SESSION_COOKIE || cookie.name.startsWith(`${SESSION_COOKIE}.`));
}

/** Fills the local IdP's own login and consent pages (oidc-provider's devInteractions). */
export async function loginAtIdp(page: Page, login: string): Promise<void> {
	await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/interaction\//);
	await page.locator('input[name="login"]').fill(login);
	await page.locator('input[name="password"]').fill('any-password');
	await page.locator('button[type="submit"]').click();
	// Consent: the IdP asks once per client and account.
	await page.locator('button[type="submit"]', { hasText: /continue/i }).click();
}

/**
 * Brings the signed-in demo user's /account to a known state, whatever earlier tests did: no
 * linked accounts, no other sessions.
 */
export async function resetDemoAccount(page: Page): Promise<void> {
	await page.goto('/account');
	const accounts = page.locator('[data-kitauth="accounts"]');
	while (await accounts.getByRole('button', { name: /^Unlink/ }).count()) {
		await accounts.getByRole('button', { name: /^Unlink/ }).first().click();
		await expect(accounts.getByRole('status')).toHaveText('Account unlinked.');
		await page.goto('/account');
	}
	const others = page.locator('[data-kitauth="sessions"]').getByRole('button', { name: 'Sign out everywhere else' });
	if (await others.count()) {
		await others.click();
		await expect(page.locator('[data-kitauth="sessions"]').getByRole('status')).toBeVisible();
	}
	await page.goto('/account');
}
