/**
 * The built-in sign-in page (`/auth/signin`) offers passkeys with its inlined script, on the demo
 * running JWT sessions: sign up with a passkey, sign out, then sign in through autofill. Chromium's
 * virtual authenticator, on http://localhost (rpID `localhost`).
 */
import { expect, test, type Page } from '@playwright/test';
import { expectBuiltInPageAccessible } from './axe.js';
import { addAuthenticator } from './webauthn.js';

async function session(page: Page): Promise<{ user?: { email?: string } } | null> {
	return (await page.request.get('/auth/session')).json();
}

test('built-in page: sign up with a passkey, sign out, sign in through autofill (JWT sessions)', async ({ page }) => {
	const cdp = await page.context().newCDPSession(page);
	await cdp.send('WebAuthn.enable', { enableUI: false });
	await addAuthenticator(cdp);
	// No code from a CDN: every request stays on the site.
	const site = new URL(test.info().project.use.baseURL!).origin;
	const external: string[] = [];
	page.on('request', (request) => {
		if (new URL(request.url()).origin !== site) external.push(request.url());
	});
	const email = `builtin-${Date.now()}@example.com`;

	await page.goto('/auth/signin?callbackUrl=/account');
	const form = page.locator('form[data-kitauth-passkey="passkey"]');
	const button = form.getByRole('button', { name: 'Continue with a passkey' });
	// The script enables the button (it is disabled in the HTML: passkeys need JavaScript).
	await expect(button).toBeEnabled();
	await expectBuiltInPageAccessible(page);
	await form.locator('input[name="email"]').fill(email);
	await button.click();
	await expect(page).toHaveURL((url) => url.pathname === '/account');
	expect((await session(page))?.user?.email).toBe(email);
	const cookie = (await page.context().cookies()).find((c) => c.name === 'authjs.session-token');
	expect(cookie?.value.split('.')).toHaveLength(5);

	await page.goto('/auth/signout');
	await page.getByRole('button', { name: 'Sign out' }).click();
	expect(await session(page)).toBeNull();

	// Autofill (conditional mediation): the virtual authenticator answers at once.
	await page.goto('/auth/signin?callbackUrl=/account');
	await expect(page).toHaveURL((url) => url.pathname === '/account', { timeout: 15_000 });
	expect((await session(page))?.user?.email).toBe(email);
	expect(external).toEqual([]);
});
