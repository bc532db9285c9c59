import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { createTOTPKeyURI } from '@oslojs/otp';
import type { ParsedMail } from 'mailparser';
import { encode } from 'uqr';
import { linkOf, startSmtp, type TestMailbox } from '../support/smtp.js';
import { base32Decode, totpCode } from '../support/totp.js';
import { expectNoAxeViolations } from './axe.js';
import { identify, sessionCookie } from './demo.js';
import { drawnQrRows, qrRows } from './qr.js';
import { PORTS } from './servers.js';

/**
 * Two-step verification in Chromium against the built demo (database sessions, the demo's own
 * pages): a new user (signed up by email link) turns TOTP on at /account/two-factor with a code the
 * test computes from the key the page shows (the QR code drawn is that key's URI), signs out, signs
 * in again and passes the challenge on /two-factor with a TOTP code, then (JavaScript off) with a
 * backup code; a replayed code and a used backup code are refused with no session; axe checks
 * each page.
 */

let mailbox: TestMailbox;
test.beforeAll(async () => {
	mailbox = await startSmtp({ port: PORTS.smtp });
});
test.afterAll(async () => {
	await mailbox.close();
});

function address(): string {
	return `totp-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

async function messages(to: string, count: number): Promise<ParsedMail> {
	await expect.poll(() => mailbox.to(to).length, { message: `message ${count} to ${to}` }).toBe(count);
	return mailbox.to(to)[count - 1]!;
}

/** The first factor: an email link, asked for on /signin and followed in the same browser. */
async function emailFirstFactor(page: Page, to: string, nth: number): Promise<void> {
	await page.goto('/signin?redirectTo=/account');
	await identify(page, to);
	await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
	await expect(page).toHaveURL((url) => url.pathname === '/auth/verify-request');
	await page.goto(linkOf(await messages(to, nth)).href);
	await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

async function signOut(page: Page): Promise<void> {
	await page.goto('/signout');
	await page.getByRole('main').getByRole('button', { name: 'Sign out' }).click();
	await expect.poll(async () => (await sessionCookie(page)) === undefined).toBe(true);
}

async function newContext(browser: import('@playwright/test').Browser, baseURL: string | undefined, javaScriptEnabled: boolean): Promise<BrowserContext> {
	return browser.newContext({ baseURL, extraHTTPHeaders: { 'x-forwarded-proto': 'http' }, javaScriptEnabled });
}

test('turn TOTP on, sign out, sign in with a TOTP code, then with a backup code', async ({ page, browser, baseURL }) => {
	const to = address();
	await emailFirstFactor(page, to, 1);
	await expect(page).toHaveURL((url) => url.pathname === '/account');

	// Set up: the key the page shows, typed into "the app" (computed here).
	await page.goto('/account/two-factor');
	await expect(page.getByRole('img', { name: /QR code for kitauth demo/ })).toBeVisible();
	await expectNoAxeViolations(page, '/account/two-factor (setting up)');
	const key = (await page.getByTestId('two-factor-key').textContent())!.replaceAll(' ', '');
	expect(key).toMatch(/^[A-Z2-7]{32}$/);
	// The QR code a camera sees is the key's otpauth URI (uqr encodes it as qr.ts asks: level M, 2 modules of border).
	const uri = createTOTPKeyURI('kitauth demo', to, base32Decode(key), 30, 6);
	expect(await drawnQrRows(page.getByRole('img', { name: /QR code for kitauth demo/ }))).toEqual(qrRows(encode(uri, { ecc: 'M', border: 2 }).data));
	await page.getByLabel('Code from the app').fill('000000' === totpCode(key) ? '111111' : '000000');
	await page.getByRole('button', { name: 'Turn on' }).click();
	await expect(page.getByText('That code did not work')).toBeVisible();
	await page.getByLabel('Code from the app').fill(totpCode(key));
	await page.getByRole('button', { name: 'Turn on' }).click();
	const codes = page.getByTestId('backup-codes').locator('code');
	await expect(codes).toHaveCount(10);
	const backupCodes = await codes.allTextContents();
	await expect(page.getByText('Two-step verification is on.').first()).toBeVisible();
	await expect(page.getByRole('status').filter({ hasText: 'Two-step verification is now on. Save your backup codes.' })).toBeVisible();
	await expectNoAxeViolations(page, '/account/two-factor (on, codes shown)');
	await signOut(page);

	// Sign in again: the first factor stops at the challenge, with no session.
	await emailFirstFactor(page, to, 2);
	await expect(page).toHaveURL((url) => url.pathname === '/two-factor');
	expect(await sessionCookie(page)).toBeUndefined();
	await expect(page.getByRole('heading', { level: 1, name: 'Two-step verification' })).toBeVisible();
	await expectNoAxeViolations(page, '/two-factor');
	const code = totpCode(key, 1);
	await page.getByLabel('Code').fill(code);
	await page.getByRole('button', { name: 'Verify' }).click();
	await expect(page).toHaveURL((url) => url.pathname === '/account');
	await expect(page.getByTestId('account-email')).toHaveText(to);
	await page.goto('/account/two-factor');
	await expect(page.getByTestId('session-factors')).toHaveText('email, totp');
	await signOut(page);

	// Another browser, JavaScript off: the observed code is refused, a backup code works once.
	const plain = await newContext(browser, baseURL, false);
	const other = await plain.newPage();
	await emailFirstFactor(other, to, 3);
	await expect(other).toHaveURL((url) => url.pathname === '/two-factor');
	await other.getByLabel('Code').fill(code);
	await other.getByRole('button', { name: 'Verify' }).click();
	await expect(other.getByText('That code did not work')).toBeVisible();
	expect(await sessionCookie(other)).toBeUndefined();
	await other.getByLabel('Code').fill(backupCodes[0]!);
	await other.getByRole('button', { name: 'Verify' }).click();
	await expect(other).toHaveURL((url) => url.pathname === '/account');
	await other.goto('/account/two-factor');
	await expect(other.getByTestId('session-factors')).toHaveText('email, backup-code');
	await expect(other.getByText('9 backup codes left.')).toBeVisible();
	await signOut(other);
	await emailFirstFactor(other, to, 4);
	await other.getByLabel('Code').fill(backupCodes[0]!);
	await other.getByRole('button', { name: 'Verify' }).click();
	await expect(other.getByText('That code did not work')).toBeVisible();
	expect(await sessionCookie(other)).toBeUndefined();
	await plain.close();
});
