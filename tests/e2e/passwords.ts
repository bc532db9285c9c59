import { expect, type Browser, type Page } from '@playwright/test';
import type { ParsedMail } from 'mailparser';
import type { TestMailbox } from '../support/smtp.js';
import { signInWithPassword } from './demo.js';

/**
 * The password pages' steps in Chromium, for passwords.e2e.ts and passwords-account.e2e.ts: the
 * demo's /signup and /signin, the messages its test SMTP server received.
 */

/** A fresh address per test: the demo's database lives as long as the server. */
export function address(name: string): string {
	return `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

/** The message to `to` whose subject starts so, once it has arrived. */
export async function messageTo(mailbox: TestMailbox, to: string, subject: string): Promise<ParsedMail> {
	const found = () => mailbox.to(to).filter((message) => message.subject?.startsWith(subject));
	await expect.poll(() => found().length, { message: `"${subject}" to ${to}` }).toBe(1);
	return found()[0]!;
}

/** A message's one link: the same in its text and its HTML button. */
export function linkIn(message: ParsedMail): URL {
	const text = /https?:\/\/\S+/.exec(message.text ?? '')?.[0];
	const html = typeof message.html === 'string' ? /href="([^"]+)"/.exec(message.html)?.[1]?.replaceAll('&amp;', '&') : undefined;
	expect(html).toBe(text);
	return new URL(text!);
}

/** A confirmation message's one-time code (`1234 5678` in its text), as typed: its eight digits. */
export function codeIn(message: ParsedMail): string {
	const code = /\b(\d{4}) (\d{4})\b/.exec(message.text ?? '');
	expect(code, 'a code in the message').not.toBeNull();
	return `${code![1]}${code![2]}`;
}

export async function ready(page: Page, javaScriptEnabled: boolean): Promise<void> {
	if (javaScriptEnabled) await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
}

export async function signUp(page: Page, javaScriptEnabled: boolean, email: string, password: string): Promise<void> {
	await page.goto('/signup');
	await ready(page, javaScriptEnabled);
	await page.getByLabel('Email', { exact: true }).fill(email);
	await page.getByLabel('Password', { exact: true }).fill(password);
	await page.getByRole('button', { name: 'Create the account' }).click();
}

/** Signs in on the demo's /signin with `email`, through identifier-first's two steps. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
	await page.goto('/signin?redirectTo=/account');
	await signInWithPassword(page, password, email);
}

export async function expectSignedInAs(page: Page, email: string): Promise<void> {
	await expect(page).toHaveURL((url) => url.pathname === '/account');
	await expect(page.getByTestId('account-email')).toHaveText(email);
}

/** A confirmed account, made through the pages (sign-up, the link from the message). */
export async function confirmedAccount(mailbox: TestMailbox, page: Page, javaScriptEnabled: boolean, email: string, password: string): Promise<void> {
	await signUp(page, javaScriptEnabled, email, password);
	await expect(page.getByRole('heading', { level: 1, name: 'Check your email' })).toBeVisible();
	await page.goto(linkIn(await messageTo(mailbox, email, 'Confirm your email address')).href);
	await page.getByRole('button', { name: 'Confirm', exact: true }).click();
	await expect(page).toHaveURL((url) => url.pathname === '/signin');
}

export async function newPage(browser: Browser, baseURL: string | undefined, javaScriptEnabled: boolean): Promise<Page> {
	const context = await browser.newContext({ baseURL, extraHTTPHeaders: { 'x-forwarded-proto': 'http' }, javaScriptEnabled });
	return context.newPage();
}
