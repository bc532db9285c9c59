import { expect, test } from '@playwright/test';
import { startSmtp, type TestMailbox } from '../support/smtp.js';
import { expectNoAxeViolations } from './axe.js';
import { sessionCookie } from './demo.js';
import { address, codeIn, confirmedAccount, expectSignedInAs, linkIn, messageTo, newPage, ready, signIn, signUp } from './passwords.js';
import { PORTS } from './servers.js';

/**
 * Password accounts in Chromium against the built demo (`Password()`, its /signup,
 * /forgot-password and /reset-password pages built from the SignUp, ForgotPassword and
 * ResetPassword components over `passwords.actions()`), whose messages go to a real SMTP server
 * this file runs (`AUTH_EMAIL_SERVER`, see playwright.config.ts): with JavaScript on and off.
 */

let mailbox: TestMailbox;
test.beforeAll(async () => {
	mailbox = await startSmtp({ port: PORTS.smtp });
});
test.afterAll(async () => {
	await mailbox.close();
});

for (const javaScriptEnabled of [true, false]) {
	test.describe(`password accounts, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled });

		test('sign up, confirm the address from the message, sign in', async ({ page }) => {
			const email = address(javaScriptEnabled ? 'signup-js' : 'signup-nojs');
			await signUp(page, javaScriptEnabled, email, 'correct horse battery');
			await expect(page).toHaveURL((url) => url.pathname === '/auth/verify-email/password');
			await expect(page.getByRole('heading', { level: 1, name: 'Check your email' })).toBeVisible();

			// Not before the address is confirmed (the demo asks for it).
			await signIn(page, email, 'correct horse battery');
			await expect(page).toHaveURL((url) => url.pathname === '/signin');
			expect(await sessionCookie(page)).toBeUndefined();

			const link = linkIn(await messageTo(mailbox, email, 'Confirm your email address'));
			expect(link.pathname).toBe('/auth/verify-email/password');
			await page.goto(link.href);
			await expect(page.getByRole('heading', { level: 1, name: 'Confirm your email address' })).toBeVisible();
			await page.getByRole('button', { name: 'Confirm', exact: true }).click();
			await expect(page).toHaveURL((url) => url.pathname === '/signin');

			await signIn(page, email, 'correct horse battery');
			await expectSignedInAs(page, email);
		});

		test('sign up, type the code from the message on "check your email" (a wrong one first), sign in', async ({ page }) => {
			const email = address(javaScriptEnabled ? 'code-js' : 'code-nojs');
			await signUp(page, javaScriptEnabled, email, 'correct horse battery');
			await expect(page).toHaveURL((url) => url.pathname === '/auth/verify-email/password');
			const code = codeIn(await messageTo(mailbox, email, 'Confirm your email address'));
			const field = page.getByLabel('Code from the email');
			await field.fill(code === '00000000' ? '11111111' : '00000000');
			await page.getByRole('button', { name: 'Confirm', exact: true }).click();
			await expect(page.getByLabel('Code from the email')).toHaveAccessibleDescription(/not right\. 4 attempts left/);
			// axe runs in the page: where JavaScript is on.
			if (javaScriptEnabled) await expectNoAxeViolations(page);
			await page.getByLabel('Code from the email').fill(`${code.slice(0, 4)} ${code.slice(4)}`);
			await page.getByRole('button', { name: 'Confirm', exact: true }).click();
			// Confirmed: the demo's policy sends a new account to sign in, which now lets it in.
			await expect(page).toHaveURL((url) => url.pathname === '/signin');
			await signIn(page, email, 'correct horse battery');
			await expectSignedInAs(page, email);
		});

		test('a refused password keeps the email, clears the password, and says why under the field', async ({ page }) => {
			const email = address('refused');
			await signUp(page, javaScriptEnabled, email, 'password');
			const password = page.getByLabel('Password', { exact: true });
			await expect(password).toHaveAccessibleDescription(/too common/);
			await expect(password).toHaveAttribute('aria-invalid', 'true');
			await expect(password).toHaveValue('');
			await expect(password).toBeFocused();
			await expect(page.getByLabel('Email', { exact: true })).toHaveValue(email);
			// Enhanced, the page stays as it was loaded; without JavaScript the action's page is shown.
			await expect(page).toHaveURL((url) => url.pathname === '/signup' && url.search === (javaScriptEnabled ? '' : '?/signUp'));
			// Nothing was created: the same address signs up after.
			await password.fill('a much better password');
			await page.getByRole('button', { name: 'Create the account' }).click();
			await expect(page).toHaveURL((url) => url.pathname === '/auth/verify-email/password');
			await messageTo(mailbox, email, 'Confirm your email address');
		});

		test('forgot password: the link from the message, a new password, old sessions gone, the new password signs in', async ({ page, browser, baseURL }) => {
			const email = address(javaScriptEnabled ? 'reset-js' : 'reset-nojs');
			await confirmedAccount(mailbox, page, javaScriptEnabled, email, 'the first password');
			// A session elsewhere, which the reset ends.
			const elsewhere = await newPage(browser, baseURL, javaScriptEnabled);
			await signIn(elsewhere, email, 'the first password');
			await expectSignedInAs(elsewhere, email);

			await page.goto('/forgot-password');
			await ready(page, javaScriptEnabled);
			await page.getByLabel('Email', { exact: true }).fill(email);
			await page.getByRole('button', { name: 'Send me a link' }).click();
			await expect(page.getByRole('heading', { level: 1, name: 'Check your email' })).toBeVisible();

			const link = linkIn(await messageTo(mailbox, email, 'Choose a new password'));
			expect(link.pathname).toBe('/reset-password');
			await page.goto(link.href);
			await ready(page, javaScriptEnabled);
			await expect(page.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeVisible();
			// A refused one first (the browser's own checks pass it): the link keeps working.
			await page.getByLabel('New password').fill('password1234');
			await page.getByRole('button', { name: 'Set the new password' }).click();
			await expect(page.getByLabel('New password')).toHaveAccessibleDescription(/too common/);
			await expect(page.getByLabel('New password')).toHaveValue('');
			await page.getByLabel('New password').fill('the second password');
			await page.getByRole('button', { name: 'Set the new password' }).click();
			await expect(page).toHaveURL((url) => url.pathname === '/signin');
			expect(page.url()).not.toContain(link.searchParams.get('token')!);

			await elsewhere.goto('/account');
			await expect(elsewhere).toHaveURL((url) => url.pathname === '/signin');
			await elsewhere.context().close();

			await signIn(page, email, 'the first password');
			await expect(page.getByRole('alert')).toContainText('Sign in failed');
			await signIn(page, email, 'the second password');
			await expectSignedInAs(page, email);

			// The link is spent.
			await page.goto(link.href);
			await page.getByLabel('New password').fill('a third password');
			await page.getByRole('button', { name: 'Set the new password' }).click();
			await expect(page.locator('[data-kitauth-error]')).toBeVisible();
		});

		test('an unknown address gets the same page as a known one, and no message', async ({ page, browser, baseURL }) => {
			const known = address('known');
			await confirmedAccount(mailbox, page, javaScriptEnabled, known, 'a known password');
			const ask = async (to: string) => {
				const asking = await newPage(browser, baseURL, javaScriptEnabled);
				await asking.goto('/forgot-password');
				await ready(asking, javaScriptEnabled);
				await asking.getByLabel('Email', { exact: true }).fill(to);
				await asking.getByRole('button', { name: 'Send me a link' }).click();
				await expect(asking.getByRole('heading', { level: 1, name: 'Check your email' })).toBeVisible();
				const answer = { url: asking.url(), text: await asking.locator('main').innerText() };
				await asking.context().close();
				return answer;
			};
			const unknown = address('unknown');
			expect(await ask(unknown)).toEqual(await ask(known));
			await messageTo(mailbox, known, 'Choose a new password');
			expect(mailbox.to(unknown)).toEqual([]);
		});
	});
}

test('enhanced: while a sign-up runs its button is busy, a second submit sends nothing, and no page loads', async ({ page }) => {
	await page.goto('/signup');
	await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
	let posts = 0;
	let release!: () => void;
	const held = new Promise<void>((resolve) => (release = resolve));
	await page.route('**/signup?/signUp', async (route) => {
		posts++;
		await held;
		await route.continue();
	});
	const loads: string[] = [];
	page.on('framenavigated', (frame) => loads.push(frame.url()));
	await page.getByLabel('Email', { exact: true }).fill(address('pending'));
	await page.getByLabel('Password', { exact: true }).fill('password');
	const button = page.getByRole('button', { name: 'Create the account' });
	await button.click();
	await expect(button).toHaveAttribute('aria-busy', 'true');
	await page.keyboard.press('Enter');
	release();
	await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
	await expect(button).not.toHaveAttribute('aria-busy');
	expect(posts).toBe(1);
	expect(loads).toEqual([]);
});

test('axe finds nothing on /signup, /forgot-password and /reset-password, refused or not', async ({ page }) => {
	await page.goto('/signup');
	await expectNoAxeViolations(page);
	await signUp(page, true, address('axe'), 'password');
	await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('aria-invalid', 'true');
	await expectNoAxeViolations(page, '/signup (refused)');
	await page.goto('/forgot-password');
	await expectNoAxeViolations(page);
	await page.goto('/reset-password?user=u&token=t');
	await expectNoAxeViolations(page);
	await page.getByLabel('New password').fill('another password');
	await page.getByRole('button', { name: 'Set the new password' }).click();
	await expect(page.locator('[data-kitauth-error]')).toBeVisible();
	await expectNoAxeViolations(page, '/reset-password (a link that does not work)');
});

test('/reset-password without a usable link is a 400, and never cached or referred', async ({ request }) => {
	expect((await request.get('/reset-password')).status()).toBe(400);
	expect((await request.get(`/reset-password?user=u&token=${'t'.repeat(600)}`)).status()).toBe(400);
	const page = await request.get('/reset-password?user=u&token=t');
	expect(page.status()).toBe(200);
	expect(page.headers()['referrer-policy']).toBe('strict-origin');
	expect(page.headers()['cache-control']).toBe('no-store');
});
