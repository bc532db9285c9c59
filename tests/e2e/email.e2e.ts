import { expect, test, type Page } from '@playwright/test';
import type { ParsedMail } from 'mailparser';
import { codeIn, linkOf, startSmtp, type TestMailbox } from '../support/smtp.js';
import { expectBuiltInPageAccessible } from './axe.js';
import { identify, sessionCookie } from './demo.js';
import { PORTS } from './servers.js';

/**
 * Email sign-in in Chromium against the built demo, whose emails go to a real SMTP server this file
 * runs (`AUTH_EMAIL_SERVER`, see playwright.config.ts): ask for a link on /signin, read the
 * message, follow the link, confirm, land signed in on /account; with JavaScript on and off, and
 * with the one-time code instead of the link.
 */

let mailbox: TestMailbox;
test.beforeAll(async () => {
	mailbox = await startSmtp({ port: PORTS.smtp });
});
test.afterAll(async () => {
	await mailbox.close();
});

/** A fresh address per test: the demo's database lives as long as the server. */
function address(name: string): string {
	return `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

async function messageTo(to: string): Promise<ParsedMail> {
	await expect.poll(() => mailbox.to(to).length, { message: `a message to ${to}` }).toBe(1);
	return mailbox.to(to)[0]!;
}

/** Asks for a link on the demo's sign-in page (the `signIn` form action). */
async function askForLink(page: Page, to: string): Promise<void> {
	await page.goto('/signin?redirectTo=/account');
	// Identifier-first: the address, then "Email me a sign-in link" among the methods for it.
	await identify(page, to);
	await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
	await expect(page).toHaveURL((url) => url.pathname === '/auth/verify-request');
	await expect(page.getByRole('heading', { level: 1, name: 'Check your email' })).toBeVisible();
}

async function expectSignedInAs(page: Page, to: string): Promise<void> {
	await expect(page).toHaveURL((url) => url.pathname === '/account');
	await expect(page.getByTestId('account-email')).toHaveText(to);
	expect((await sessionCookie(page))?.value).toMatch(/^[0-9a-f]{64}$/);
}

for (const javaScriptEnabled of [true, false]) {
	test.describe(`email link, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled });

		test('ask on /signin, read the message, follow the link, confirm, land on /account', async ({ page, browser, baseURL }) => {
			const to = address(javaScriptEnabled ? 'js' : 'nojs');
			await askForLink(page, to);
			const link = linkOf(await messageTo(to));
			expect(link.searchParams.get('callbackUrl')).toMatch(/\/account$/);

			await page.goto(link.href);
			await expect(page.getByRole('heading', { level: 1, name: 'Confirm sign-in' })).toBeVisible();
			await expect(page.getByText(to)).toBeVisible();
			expect(await sessionCookie(page)).toBeUndefined();
			await page.getByRole('button', { name: 'Sign in', exact: true }).click();
			await expectSignedInAs(page, to);
			// The token is nowhere in the URL the user ends on.
			expect(page.url()).not.toContain(link.searchParams.get('token')!);

			// The link is spent.
			const again = await browser.newContext({ baseURL, extraHTTPHeaders: { 'x-forwarded-proto': 'http' }, javaScriptEnabled });
			const other = await again.newPage();
			await other.goto(link.href);
			await other.getByRole('button', { name: 'Sign in', exact: true }).click();
			await expect(other.getByRole('heading', { level: 1, name: 'Unable to sign in' })).toBeVisible();
			await again.close();
		});
	});
}

test('the one-time code, typed on the verify-request page, signs in', async ({ page }) => {
	const to = address('code');
	await askForLink(page, to);
	await expect(page.getByText(to)).toBeVisible();
	const code = codeIn(await messageTo(to));
	expect(code).toMatch(/^\d{8}$/);
	await page.getByLabel('Code from the email').fill(code === '00000000' ? '1111 1111' : '0000 0000');
	await page.getByRole('button', { name: 'Sign in with the code' }).click();
	await expect(page.getByText('That code is not right. 4 attempts left.')).toBeVisible();
	await page.getByLabel('Code from the email').fill(`${code!.slice(0, 4)} ${code!.slice(4)}`);
	await page.getByRole('button', { name: 'Sign in with the code' }).click();
	await expectSignedInAs(page, to);
});

test('axe finds nothing on the confirmation page and the verify-request page with its code field', async ({ page }) => {
	const to = address('axe');
	await askForLink(page, to);
	await expect(page.getByLabel('Code from the email')).toBeVisible();
	await expectBuiltInPageAccessible(page);
	await page.goto(linkOf(await messageTo(to)).href);
	await expect(page.getByRole('heading', { level: 1, name: 'Confirm sign-in' })).toBeVisible();
	await expectBuiltInPageAccessible(page);
});

test('the development outbox does not exist in a production build', async ({ request }) => {
	expect((await request.get('/dev/outbox')).status()).toBe(404);
	// Nor kitauth's own outbox page: the demo's email provider sends over SMTP here.
	expect((await request.get('/auth/dev/outbox')).status()).not.toBe(200);
});
