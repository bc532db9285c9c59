import { expect, test } from '@playwright/test';
import { decode } from '../../src/lib/core/session/jwt.js';
import { DEMO_EMAIL, SESSION_COOKIE, sessionCookie, signInToAccount } from './demo.js';
import { E2E_SECRET } from './servers.js';

/**
 * The headline flow on the demo's JWT server: credentials sign-in through the demo's form action,
 * an encrypted JWT (JWE) session cookie, read back by `locals.auth()` in /account's load.
 */

for (const javaScriptEnabled of [true, false]) {
	test.describe(`JWT session, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled });

		test('signs in to a JWE cookie, reads it back on /account across reloads, and signs out', async ({ page }) => {
			await page.goto('/account');
			await expect(page).toHaveURL(/\/signin\?redirectTo=%2Faccount$/);
			await signInToAccount(page);
			await expect(page.getByTestId('account-email')).toHaveText(DEMO_EMAIL);

			const cookie = await sessionCookie(page);
			expect(cookie).toMatchObject({ name: SESSION_COOKIE, httpOnly: true, sameSite: 'Lax', path: '/' });
			const value = cookie!.value;
			// A compact JWE (header.key.iv.ciphertext.tag), not the database strategy's 64-hex token.
			expect(value).not.toMatch(/^[0-9a-f]{64}$/);
			expect(value.split('.')).toHaveLength(5);
			const header = JSON.parse(Buffer.from(value.split('.')[0]!, 'base64url').toString('utf8')) as Record<string, unknown>;
			expect(header).toMatchObject({ alg: 'dir', enc: 'A256CBC-HS512' });
			// It holds the user, sealed with the server's secret.
			expect(await decode({ token: value, secret: E2E_SECRET, salt: SESSION_COOKIE })).toMatchObject({
				email: DEMO_EMAIL,
				sub: expect.any(String)
			});

			// A reload reads the session from the cookie alone: no new Set-Cookie is needed.
			const reloaded = await page.reload();
			expect(reloaded?.status()).toBe(200);
			const setCookies = (await reloaded!.headersArray()).filter((h) => h.name.toLowerCase() === 'set-cookie');
			expect(setCookies.filter((h) => h.value.startsWith(SESSION_COOKIE))).toEqual([]);
			await expect(page.getByTestId('account-email')).toHaveText(DEMO_EMAIL);
			expect((await sessionCookie(page))?.value).toBe(value);

			await page.getByRole('navigation').getByRole('button', { name: 'Sign out', exact: true }).click();
			await expect(page).toHaveURL((url) => url.pathname === '/');
			await expect(page.getByRole('navigation').getByRole('link', { name: 'Sign in' })).toBeVisible();
			expect(await sessionCookie(page)).toBeUndefined();

			await page.goto('/account');
			await expect(page).toHaveURL(/\/signin\?redirectTo=%2Faccount$/);
		});
	});
}
