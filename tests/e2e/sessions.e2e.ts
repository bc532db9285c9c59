import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { DEMO_EMAIL, DEMO_PASSWORD, SESSION_COOKIE, signInToAccount } from './demo.js';

const LAPTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0';
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1';

async function signedInPage(browser: Browser, userAgent: string): Promise<Page> {
	const context = await browser.newContext({ userAgent, extraHTTPHeaders: { 'x-forwarded-proto': 'http' } });
	const page = await context.newPage();
	await signInToAccount(page);
	return page;
}

/** A sign-in through the REST endpoints alone (no page), as another device would make one. */
async function restSignIn(request: APIRequestContext, baseURL: string): Promise<void> {
	const { csrfToken } = (await (await request.get('/auth/csrf')).json()) as { csrfToken: string };
	const res = await request.post('/auth/callback/password', {
		form: { csrfToken, email: DEMO_EMAIL, password: DEMO_PASSWORD, callbackUrl: '/account' },
		headers: { origin: baseURL },
		maxRedirects: 0
	});
	expect(res.status()).toBe(302);
}

test('/account names each device readably, marks this one, and signs out the others', async ({ browser }) => {
	const laptop = await signedInPage(browser, LAPTOP);
	const phone = await signedInPage(browser, PHONE);

	await laptop.reload();
	const list = laptop.locator('[data-kitauth="sessions"]');
	const mine = list.getByRole('listitem').filter({ hasText: 'This device' });
	await expect(mine).toContainText('Firefox 140 on Windows');
	await expect(list).toContainText('Safari 18 on iOS 18');
	// No raw user agent shown, and no session token or hash anywhere in the page: ids are opaque.
	expect(await list.innerText()).not.toContain('Mozilla');
	const html = await laptop.content();
	const phoneCookie = (await phone.context().cookies()).find((c) => c.name === SESSION_COOKIE);
	expect(phoneCookie).toBeDefined();
	expect(html).not.toContain(phoneCookie!.value);

	await list.getByRole('button', { name: 'Sign out everywhere else' }).click();
	await expect(list.getByRole('status')).toContainText(/Signed out of \d+ other session/);
	await expect(list).not.toContainText('Safari 18 on iOS 18');

	// The phone's cookie no longer opens a session; the laptop's still does.
	await phone.goto('/account');
	await expect(phone).toHaveURL(/\/signin/);
	await laptop.goto('/account');
	await expect(laptop.getByTestId('account-email')).toHaveText(DEMO_EMAIL);

	await laptop.context().close();
	await phone.context().close();
});

test('many sessions: ten at a time, paged by links, and one ended from its row', async ({ browser, playwright, baseURL }) => {
	const laptop = await signedInPage(browser, LAPTOP);
	const list = laptop.locator('[data-kitauth="sessions"]');
	// Start from this session alone (other tests signed the demo user in too).
	const others = list.getByRole('button', { name: 'Sign out everywhere else' });
	if (await others.count()) {
		await others.click();
		await expect(list.getByRole('status')).toBeVisible();
	}
	for (let i = 0; i < 13; i++) {
		const device = await playwright.request.newContext({ baseURL, userAgent: `Agent-${i}/1.0`, extraHTTPHeaders: { 'x-forwarded-proto': 'http' } });
		await restSignIn(device, baseURL!);
		await device.dispose();
	}
	await laptop.goto('/account');
	await expect(list.getByRole('listitem')).toHaveCount(11); // this one and ten others
	await expect(list).toContainText('13 other sessions');
	await list.getByRole('link', { name: 'Older sessions' }).click();
	await expect(laptop).toHaveURL(/[?&]sessions=/);
	await expect(list.getByRole('listitem')).toHaveCount(4); // this one and the last three
	await expect(list.getByRole('listitem').first()).toContainText('This device');
	await expect(list.getByRole('link', { name: 'Older sessions' })).toHaveCount(0);

	// End one of them: its own button says which; the page of sessions stays the same.
	const before = await list.getByRole('button', { name: /^Sign out .+signed in/ }).count();
	await list.getByRole('button', { name: /^Sign out .+signed in/ }).first().click();
	await expect(list.getByRole('status')).toHaveText('Session ended.');
	await expect(list.getByRole('button', { name: /^Sign out .+signed in/ })).toHaveCount(before - 1);
	await expect(laptop).toHaveURL(/[?&]sessions=/);
	await list.getByRole('link', { name: 'Newest sessions' }).click();
	await expect(list).toContainText('12 other sessions');
	await laptop.context().close();
});
