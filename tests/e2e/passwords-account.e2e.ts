import { expect, test, type Page } from '@playwright/test';
import { startSmtp, type TestMailbox } from '../support/smtp.js';
import { expectNoAxeViolations } from './axe.js';
import { sessionCookie } from './demo.js';
import { address, confirmedAccount, expectSignedInAs, linkIn, messageTo, newPage, ready, signIn } from './passwords.js';
import { PORTS } from './servers.js';

/**
 * A password account's own settings on the demo's /account (the `ChangePassword` component, its
 * change-email and delete-account forms over `passwords.actions()`), in Chromium against the built
 * demo, whose messages go to a real SMTP server this file runs: with JavaScript on and off.
 * Deleting without the password once the recent sign-in has passed: passwords-account.passkey.e2e.ts.
 */

let mailbox: TestMailbox;
test.beforeAll(async () => {
	mailbox = await startSmtp({ port: PORTS.smtp });
});
test.afterAll(async () => {
	await mailbox.close();
});

const form = (page: Page, name: string) => page.getByRole('form', { name });

/** A confirmed account, signed in on `page` at /account. */
async function signedInAccount(page: Page, javaScriptEnabled: boolean, email: string, password: string): Promise<void> {
	await confirmedAccount(mailbox, page, javaScriptEnabled, email, password);
	await signIn(page, email, password);
	await expectSignedInAs(page, email);
	await ready(page, javaScriptEnabled);
}

for (const javaScriptEnabled of [true, false]) {
	test.describe(`a password account's settings, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled });

		test('change the password: a wrong current one refused under its field, then changed; the other session ends; the new one signs in', async ({ page, browser, baseURL }) => {
			const email = address(javaScriptEnabled ? 'change-js' : 'change-nojs');
			await signedInAccount(page, javaScriptEnabled, email, 'the first password');
			const elsewhere = await newPage(browser, baseURL, javaScriptEnabled);
			await signIn(elsewhere, email, 'the first password');
			await expectSignedInAs(elsewhere, email);

			const change = form(page, 'Change your password');
			await change.getByLabel('Current password').fill('not the password');
			await change.getByLabel('New password').fill('the second password');
			await change.getByRole('button', { name: 'Change the password' }).click();
			await expect(form(page, 'Change your password').getByLabel('Current password')).toHaveAccessibleDescription('The current password is wrong.');

			await form(page, 'Change your password').getByLabel('Current password').fill('the first password');
			await form(page, 'Change your password').getByLabel('New password').fill('the second password');
			await form(page, 'Change your password').getByRole('button', { name: 'Change the password' }).click();
			await expect(form(page, 'Change your password')).toContainText('Your password was changed.');
			await messageTo(mailbox, email, 'Your password on');

			// This session stays; the other one has ended.
			await page.goto('/account');
			await expectSignedInAs(page, email);
			await elsewhere.goto('/account');
			await expect(elsewhere).toHaveURL((url) => url.pathname === '/signin');
			await signIn(elsewhere, email, 'the first password');
			await expect(elsewhere.getByRole('alert')).toContainText('Sign in failed');
			await signIn(elsewhere, email, 'the second password');
			await expectSignedInAs(elsewhere, email);
			await elsewhere.context().close();
		});

		test('change the email: the link to the new address, a notice to the old one, confirmed, the new address signs in', async ({ page, browser, baseURL }) => {
			const email = address(javaScriptEnabled ? 'old-js' : 'old-nojs');
			const newEmail = address(javaScriptEnabled ? 'new-js' : 'new-nojs');
			await signedInAccount(page, javaScriptEnabled, email, 'an email password');

			const change = form(page, 'Change your email address');
			await change.getByLabel('New email address').fill(newEmail);
			await change.getByLabel('Current password').fill('a wrong password');
			await change.getByRole('button', { name: 'Send a confirmation link' }).click();
			await expect(form(page, 'Change your email address').getByLabel('Current password')).toHaveAccessibleDescription('The current password is wrong.');

			await form(page, 'Change your email address').getByLabel('New email address').fill(newEmail);
			await form(page, 'Change your email address').getByLabel('Current password').fill('an email password');
			await form(page, 'Change your email address').getByRole('button', { name: 'Send a confirmation link' }).click();
			await expect(page.getByRole('status')).toContainText("Check the new address's inbox");

			await messageTo(mailbox, email, 'Your email address on');
			const link = linkIn(await messageTo(mailbox, newEmail, 'Confirm your new email address'));
			expect(link.pathname).toBe('/auth/confirm-email/password');
			// Until it is confirmed, nothing has changed.
			await page.goto('/account');
			await expectSignedInAs(page, email);

			await page.goto(link.href);
			await expect(page.getByRole('heading', { level: 1, name: 'Confirm your new email address' })).toBeVisible();
			await page.getByRole('button').click();
			// To the sign-in page, which sends a signed-in browser on: the session stayed, the address changed.
			await expectSignedInAs(page, newEmail);

			const elsewhere = await newPage(browser, baseURL, javaScriptEnabled);
			await signIn(elsewhere, email, 'an email password');
			await expect(elsewhere.getByRole('alert')).toContainText('Sign in failed');
			await signIn(elsewhere, newEmail, 'an email password');
			await expectSignedInAs(elsewhere, newEmail);
			await elsewhere.context().close();
		});

		test('delete the account: a wrong password refused under its field; deleted after a recent sign-in, signed out, no sign-in after', async ({ page }) => {
			const email = address(javaScriptEnabled ? 'delete-js' : 'delete-nojs');
			await signedInAccount(page, javaScriptEnabled, email, 'a doomed password');

			await form(page, 'Delete your account').getByLabel('Current password').fill('not the password');
			await form(page, 'Delete your account').getByRole('button', { name: 'Delete the account' }).click();
			const current = form(page, 'Delete your account').getByLabel('Current password');
			await expect(current).toHaveAccessibleDescription(/The current password is wrong\./);
			await expect(current).toHaveAttribute('aria-invalid', 'true');
			await page.goto('/account');
			await expectSignedInAs(page, email);

			// Signed in a moment ago: no password needed.
			await ready(page, javaScriptEnabled);
			await form(page, 'Delete your account').getByRole('button', { name: 'Delete the account' }).click();
			await expect(page).toHaveURL((url) => url.pathname === '/' && url.searchParams.has('deleted'));
			await expect(page.getByRole('status')).toHaveText('Your account was deleted.');
			expect(await sessionCookie(page)).toBeUndefined();
			await signIn(page, email, 'a doomed password');
			await expect(page.getByRole('alert')).toContainText('Sign in failed');
		});
	});
}

test('axe finds nothing on /account with its password forms, refused or not', async ({ page }) => {
	const email = address('axe-account');
	await signedInAccount(page, true, email, 'an accessible password');
	await expectNoAxeViolations(page);
	await form(page, 'Delete your account').getByLabel('Current password').fill('not the password');
	await form(page, 'Delete your account').getByRole('button', { name: 'Delete the account' }).click();
	await expect(form(page, 'Delete your account').getByLabel('Current password')).toHaveAttribute('aria-invalid', 'true');
	await expectNoAxeViolations(page, '/account (a refused deletion)');
});
