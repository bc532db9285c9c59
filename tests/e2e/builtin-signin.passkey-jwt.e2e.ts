/**
 * The built-in sign-in page (`/auth/signin`) offers passkeys with its inlined script, on the demo
 * running JWT sessions: sign up with a passkey (the demo's own page: identifier-first sign-in never
 * offers to create one), sign out, sign in with step 2's "Use a passkey", then through step 1's
 * autofill. Chromium's virtual authenticator, on http://localhost (rpID `localhost`).
 */
import { expect, test, type Page } from '@playwright/test';
import { expectBuiltInPageAccessible } from './axe.js';
import { identify } from './demo.js';
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

	// Sign up on the demo's page (its passkey sign-up under the sign-in card).
	await page.goto('/signin?redirectTo=/account');
	await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
	await page.locator('form.kitauth-passkey input[name="email"]').fill(email);
	await page.getByRole('button', { name: 'Continue with a passkey' }).click();
	await expect(page).toHaveURL((url) => url.pathname === '/account');
	expect((await session(page))?.user?.email).toBe(email);
	const cookie = (await page.context().cookies()).find((c) => c.name === 'authjs.session-token');
	expect(cookie?.value.split('.')).toHaveLength(5);
	const signOut = async () => {
		await page.goto('/auth/signout');
		await page.getByRole('button', { name: 'Sign out' }).click();
		expect(await session(page)).toBeNull();
	};
	await signOut();

	// Autofill (conditional mediation) from step 1's email field: the virtual authenticator answers at once.
	expect(await (await page.request.get('/auth/signin')).text()).toContain('autocomplete="username webauthn"');
	// The autofill may answer and navigate on before the page has even committed: that navigation
	// interrupting the goto is the expected outcome, so the goto's own verdict is not the test's.
	await page.goto('/auth/signin?callbackUrl=/account').catch((error: unknown) => {
		if (!/interrupted by another navigation|ERR_ABORTED/.test(String(error))) throw error;
	});
	await expect(page).toHaveURL((url) => url.pathname === '/account', { timeout: 15_000 });
	expect((await session(page))?.user?.email).toBe(email);
	await signOut();

	// Without autofill (the browser says it has none): step 1 posts the address, step 2 offers
	// "Use a passkey", which any passkey of the site answers (no address goes with it).
	await page.addInitScript(() => {
		PublicKeyCredential.isConditionalMediationAvailable = async () => false;
	});
	await page.goto('/auth/signin?callbackUrl=/account');
	await identify(page, 'anyone@example.com');
	const form = page.locator('form[data-kitauth-passkey="passkey"]');
	const button = form.getByRole('button', { name: 'Use a passkey' });
	// The script enables the button (it is disabled in the HTML: passkeys need JavaScript).
	await expect(button).toBeEnabled();
	await expect(form.locator('input:not([type="hidden"])')).toHaveCount(0);
	await expectBuiltInPageAccessible(page);
	const logged: string[] = [];
	page.on('console', (message) => logged.push(`${message.type()}: ${message.text()}`));
	page.on('pageerror', (error) => logged.push(`pageerror: ${error.message}`));
	await button.click();
	// Signed in, or what the page said instead (its status line and console), so a failure here
	// tells which step of the ceremony did not happen. The ceremony's time as the autofill's above.
	const outcome = async () => {
		if (new URL(page.url()).pathname === '/account') return 'signed in';
		const status = await form.locator('[role="status"]').textContent({ timeout: 500 }).catch(() => null);
		return { url: page.url(), status, logged };
	};
	await expect.poll(outcome, { timeout: 15_000 }).toBe('signed in');
	expect((await session(page))?.user?.email).toBe(email);
	expect(external).toEqual([]);
});
