import { expect, test, type Browser, type Page } from '@playwright/test';
import { SESSION_COOKIE, signInToAccount } from './demo.js';

async function signedInPage(browser: Browser, userAgent: string): Promise<Page> {
	const context = await browser.newContext({ userAgent, extraHTTPHeaders: { 'x-forwarded-proto': 'http' } });
	const page = await context.newPage();
	await signInToAccount(page);
	return page;
}

test('/account lists the user\'s sessions and signs out the others', async ({ browser }) => {
	const laptop = await signedInPage(browser, 'Laptop browser e2e');
	const phone = await signedInPage(browser, 'Phone browser e2e');

	await laptop.reload();
	const list = laptop.getByTestId('sessions');
	await expect(list).toContainText('Laptop browser e2e');
	await expect(list).toContainText('Phone browser e2e');
	// No session token or hash is ever rendered: ids are opaque and short.
	const html = await laptop.content();
	const phoneCookie = (await phone.context().cookies()).find((c) => c.name === SESSION_COOKIE);
	expect(phoneCookie).toBeDefined();
	expect(html).not.toContain(phoneCookie!.value);

	await laptop.getByRole('button', { name: 'Sign out everywhere else' }).click();
	await expect(laptop.getByRole('status')).toContainText(/Signed out of \d+ other session/);
	await expect(list).not.toContainText('Phone browser e2e');

	// The phone's cookie no longer opens a session; the laptop's still does.
	await phone.goto('/account');
	await expect(phone).toHaveURL(/\/signin/);
	await laptop.goto('/account');
	await expect(laptop.getByTestId('account-email')).toHaveText('demo@example.com');

	await laptop.context().close();
	await phone.context().close();
});
