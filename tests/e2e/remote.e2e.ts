import { type BrowserContext, expect, test, type Page } from '@playwright/test';
import { chosenAddress, DEMO_EMAIL, DEMO_PASSWORD, sessionCookie, signInWithPassword } from './demo.js';

/**
 * The demo's /remote page: kitauth/remote (SvelteKit 3.2 remote functions) — the SignIn and
 * SignOut components on its forms, its session query, a guarded query and `updateSession` — beside
 * kitauth/client's reactive session, in Chromium with JavaScript and without it.
 */

/** Identifier-first (the demo's methods share the address): the address, then the password. */
const fillSignIn = (page: Page, password: string) => signInWithPassword(page, password);

test.describe('JavaScript on', () => {
	async function openRemotePage(page: Page): Promise<void> {
		await page.goto('/remote');
		await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
	}

	test('a wrong password: the refusal in place, the email kept, focus on the message, no session', async ({ page }) => {
		await openRemotePage(page);
		await fillSignIn(page, 'not-the-password');
		const alert = page.getByRole('alert');
		await expect(alert).toHaveText('Sign in failed. Check the details you provided are correct.');
		await expect(alert).toBeFocused();
		await expect(chosenAddress(page)).toHaveText(DEMO_EMAIL);
		await expect(page.getByLabel('Password')).toHaveValue('');
		await expect(page).toHaveURL(/\/remote$/);
		expect(await sessionCookie(page)).toBeUndefined();
	});

	test('sign in, the session query and the tab\'s session follow, the guarded query answers, update, sign out', async ({ page }) => {
		await openRemotePage(page);
		await expect(page.getByTestId('remote-session')).toHaveText('signed out');
		await expect(page.getByTestId('tab-session')).toHaveText('signed out');

		await fillSignIn(page, DEMO_PASSWORD);
		await expect(page.getByTestId('remote-session')).toHaveText(DEMO_EMAIL);
		await expect(page.getByTestId('tab-session')).toHaveText(DEMO_EMAIL);
		await expect(page.getByTestId('remote-secret')).toHaveText(`A secret for ${DEMO_EMAIL}.`);
		await expect(page.getByRole('navigation', { name: 'Main' })).toContainText(`Signed in as ${DEMO_EMAIL}`);
		await expect(page).toHaveURL(/\/remote$/);

		// updateSession: the callback's answer comes back as the session query's value.
		await page.getByLabel('Greeting').fill('Hello there');
		await page.getByRole('button', { name: 'Update the session' }).click();
		await expect(page.getByTestId('remote-session')).toHaveText(`${DEMO_EMAIL} · Hello there`);
		await expect(page.getByTestId('tab-session')).toHaveText(`${DEMO_EMAIL} · Hello there`);

		await page.locator('main').getByRole('button', { name: 'Sign out' }).click();
		await expect(page.getByTestId('remote-session')).toHaveText('signed out');
		await expect(page.getByTestId('tab-session')).toHaveText('signed out');
		// The sign-in form is back (identifier-first's step 1).
		await expect(page.getByRole('button', { name: 'Continue', exact: true })).toBeVisible();
		expect(await sessionCookie(page)).toBeUndefined();
	});
});

test.describe('JavaScript off', () => {
	test.use({ javaScriptEnabled: false });

	test('the remote forms sign in and out as plain forms; a refusal renders with the page', async ({ page }) => {
		await page.goto('/remote');
		await fillSignIn(page, 'not-the-password');
		await expect(page.getByRole('alert')).toHaveText('Sign in failed. Check the details you provided are correct.');
		await expect(chosenAddress(page)).toHaveText(DEMO_EMAIL);
		expect(await page.content()).not.toContain('not-the-password');
		expect(await sessionCookie(page)).toBeUndefined();

		await fillSignIn(page, DEMO_PASSWORD);
		await expect(page).toHaveURL(/\/remote$/);
		await expect(page.getByTestId('tab-session')).toHaveText(DEMO_EMAIL);
		await expect(page.getByRole('navigation', { name: 'Main' })).toContainText(`Signed in as ${DEMO_EMAIL}`);

		await page.locator('main').getByRole('button', { name: 'Sign out' }).click();
		await expect(page).toHaveURL(/\/remote$/);
		await expect(page.getByTestId('tab-session')).toHaveText('signed out');
		expect(await sessionCookie(page)).toBeUndefined();
	});
});

/** Two tabs of one browser on /remote, signed out and hydrated. */
async function twoTabsSignedOut(context: BrowserContext): Promise<[Page, Page]> {
	const tabs: [Page, Page] = [await context.newPage(), await context.newPage()];
	for (const page of tabs) {
		await page.goto('/remote');
		await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
		await expect(page.getByTestId('tab-session')).toHaveText('signed out');
	}
	return tabs;
}

test('two tabs: a sign-in, an update and a sign-out in one show in the other without a reload', async ({ context }) => {
	const [first, second] = await twoTabsSignedOut(context);
	// The second tab never navigates again: a reload would show the news anyway.
	await second.evaluate(() => ((window as unknown as { marker: string }).marker = 'not reloaded'));

	await fillSignIn(first, DEMO_PASSWORD);
	await expect(first.getByTestId('tab-session')).toHaveText(DEMO_EMAIL);
	await expect(second.getByTestId('tab-session')).toHaveText(DEMO_EMAIL);

	await first.getByLabel('Greeting').fill('Hi, tab');
	await first.getByRole('button', { name: 'Update the session' }).click();
	await expect(second.getByTestId('tab-session')).toHaveText(`${DEMO_EMAIL} · Hi, tab`);

	await first.locator('main').getByRole('button', { name: 'Sign out' }).click();
	await expect(second.getByTestId('tab-session')).toHaveText('signed out');
	expect(await second.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('not reloaded');
});

test('two tabs: a sign-in that reaches one tab by a full page load (not through kitauth/client) is told to the other', async ({ context }) => {
	const [first, second] = await twoTabsSignedOut(context);
	// Signed in behind both tabs' backs (the browser's cookies, through the REST API), then the first
	// tab loads its page anew: it remembers showing "signed out" before, and tells the second.
	const { csrfToken } = (await (await context.request.get('/auth/csrf')).json()) as { csrfToken: string };
	const signedIn = await context.request.post('/auth/callback/password', {
		form: { csrfToken, email: DEMO_EMAIL, password: DEMO_PASSWORD, callbackUrl: '/remote' },
		headers: { origin: new URL(first.url()).origin },
		maxRedirects: 0
	});
	expect(signedIn.status()).toBe(302);
	await expect(second.getByTestId('tab-session')).toHaveText('signed out');
	await first.reload();
	await expect(first.getByTestId('tab-session')).toHaveText(DEMO_EMAIL);
	await expect(second.getByTestId('tab-session')).toHaveText(DEMO_EMAIL);
});
