import { expect, test } from '@playwright/test';
import { chosenAddress, DEMO_EMAIL as EMAIL, DEMO_PASSWORD as PASSWORD, sessionCookie, submitDemoSignIn as signIn } from './demo.js';

for (const javaScriptEnabled of [true, false]) {
	test.describe(`credentials sign-in, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled });

		test('signs in with the demo user, reaches /account and signs out', async ({ page }) => {
			await page.goto('/account');
			await expect(page).toHaveURL(/\/signin\?redirectTo=%2Faccount$/);

			await signIn(page, PASSWORD);
			await expect(page).toHaveURL(/\/account$/);
			await expect(page.getByTestId('account-email')).toHaveText(EMAIL);
			const cookie = await sessionCookie(page);
			expect(cookie?.httpOnly).toBe(true);
			// The demo runs on database sessions: the cookie holds only a 256-bit token.
			expect(cookie?.value).toMatch(/^[0-9a-f]{64}$/);

			await page.getByRole('navigation').getByRole('button', { name: 'Sign out', exact: true }).click();
			await expect(page).toHaveURL(/\/$/);
			await expect(page.getByRole('navigation').getByRole('link', { name: 'Sign in' })).toBeVisible();
			expect(await sessionCookie(page)).toBeUndefined();

			await page.goto('/account');
			await expect(page).toHaveURL(/\/signin/);
		});

		test('a wrong password shows the error on the form', async ({ page }) => {
			await signIn(page, 'not-the-password');
			await expect(page.getByRole('alert')).toContainText('Sign in failed');
			await expect(page).toHaveURL(/\/signin/);
			expect(await sessionCookie(page)).toBeUndefined();
			// Step 2 again for the email (never the password), so the right password now works.
			await expect(chosenAddress(page)).toHaveText(EMAIL);
			await expect(page.getByLabel('Password')).toHaveValue('');
			await page.getByLabel('Password').fill(PASSWORD);
			await page.getByRole('button', { name: 'Sign in', exact: true }).click();
			await expect(page).toHaveURL(/\/account$/);
		});
	});
}

// The demo sets pages.signIn, so its built-in sign-in page is not served here: that page is tested
// on the JWT server (builtin-signin.jwt.e2e.ts). This is the REST flow a page of one's own may post to.
test('the REST endpoints sign in: a token from /auth/csrf, then the credentials callback', async ({ page, baseURL }) => {
	const csrf = await page.request.get('/auth/csrf');
	expect(csrf.status()).toBe(200);
	const { csrfToken } = (await csrf.json()) as { csrfToken: string };
	const response = await page.request.post('/auth/callback/password', {
		form: { csrfToken, email: EMAIL, password: PASSWORD, callbackUrl: '/account' },
		headers: { origin: baseURL! },
		maxRedirects: 0
	});
	expect(response.status()).toBe(302);
	expect(response.headers()['location']).toBe(`${baseURL}/account`);
	await page.goto('/account');
	await expect(page.getByTestId('account-email')).toHaveText(EMAIL);
});
