import { expect, test } from '@playwright/test';
import { setPageScheme } from './axe.js';

/**
 * The demo's `theme` ({ colorScheme: 'auto', brandColor: '#0b6e4f', buttonText: '#ffffff',
 * logo: '/favicon.svg' }, src/demo/auth.ts) as Chromium renders it on a built-in page.
 */

const LIGHT_BG = 'rgb(246, 247, 249)';
const DARK_BG = 'rgb(22, 24, 29)';
const LIGHT_CARD = 'rgb(255, 255, 255)';
const DARK_CARD = 'rgb(34, 37, 44)';

test('a built-in page shows the logo and the brand colours, and follows the system scheme unless told', async ({ page }) => {
	await page.emulateMedia({ colorScheme: 'dark' });
	await page.goto('/auth/signout');

	const logo = page.locator('[data-kitauth] img');
	await expect(logo).toHaveAttribute('src', '/favicon.svg');
	expect(await logo.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0)).toBe(true);

	const button = page.getByRole('button', { name: 'Sign out' });
	await expect(button).toHaveCSS('background-color', 'rgb(11, 110, 79)');
	await expect(button).toHaveCSS('color', 'rgb(255, 255, 255)');

	const wrapper = page.locator('.kitauth-page');
	const card = page.locator('[data-kitauth="signout"]');
	// 'auto' follows the system: dark…
	await expect(wrapper).toHaveCSS('background-color', DARK_BG);
	await expect(card).toHaveCSS('background-color', DARK_CARD);
	// …'light' wins over the system's dark preference…
	await setPageScheme(page, 'light');
	await expect(wrapper).toHaveCSS('background-color', LIGHT_BG);
	await expect(card).toHaveCSS('background-color', LIGHT_CARD);
	// …and 'dark' over a light one.
	await page.emulateMedia({ colorScheme: 'light' });
	await setPageScheme(page, 'dark');
	await expect(wrapper).toHaveCSS('background-color', DARK_BG);
	await expect(card).toHaveCSS('background-color', DARK_CARD);
});
