/**
 * The documentation site as `npm run docs` serves it (prerendered static files): light and dark
 * (the system's preference and the toggle), a phone's width with the collapsible sidebar, headings
 * with anchors, previous/next, the offline search by keyboard, and axe on each kind of page.
 * Screenshots go to test-results/docs-*.png, to look at.
 */
import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';

const hydrated = (page: Page) => page.locator('html[data-hydrated="true"]').waitFor();
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

test('light and dark follow the system, and the toggle overrides it for the next visit', async ({ page }) => {
	await page.emulateMedia({ colorScheme: 'light' });
	await page.goto('/');
	await hydrated(page);
	expect(await background(page)).toBe('rgb(255, 255, 255)');
	await page.screenshot({ path: 'test-results/docs-home-light.png' });
	await expectNoAxeViolations(page, 'home, light');

	await page.emulateMedia({ colorScheme: 'dark' });
	expect(await background(page)).toBe('rgb(16, 19, 23)');
	await page.goto('/configuration');
	await hydrated(page);
	await page.screenshot({ path: 'test-results/docs-configuration-dark.png' });
	await expectNoAxeViolations(page, 'configuration, dark');

	const toggle = page.getByRole('button', { name: 'Dark theme' });
	await expect(toggle).toHaveAttribute('aria-pressed', 'true');
	await toggle.click();
	await expect(toggle).toHaveAttribute('aria-pressed', 'false');
	expect(await background(page)).toBe('rgb(255, 255, 255)');
	await page.reload();
	// Before any script of the page runs, the stored choice is applied (no flash of the other theme).
	expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
	expect(await background(page)).toBe('rgb(255, 255, 255)');
});

test('headings have anchors; previous and next follow the sidebar', async ({ page }) => {
	await page.goto('/sessions');
	await hydrated(page);
	await expect(page.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();
	const anchor = page.locator('h2#session-cookies a.anchor');
	await expect(anchor).toHaveAttribute('href', '#session-cookies');
	await expect(page.getByRole('navigation', { name: 'Documentation' }).getByRole('link', { name: 'Sessions' })).toHaveAttribute('aria-current', 'page');

	const pager = page.getByRole('navigation', { name: 'Previous and next page' });
	await expect(pager.getByRole('link', { name: /Previous/ })).toContainText('Two-factor authentication');
	await pager.getByRole('link', { name: /Next/ }).click();
	await expect(page).toHaveURL(/\/databases$/);
	await expect(page.getByRole('heading', { level: 1 })).toContainText("Database: kitauth's adapters");
});

test('search works offline from the keyboard', async ({ page, baseURL }) => {
	const elsewhere: string[] = [];
	page.on('request', (request) => {
		if (!request.url().startsWith(baseURL!)) elsewhere.push(request.url());
	});
	await page.goto('/');
	await hydrated(page);
	await page.keyboard.press('/');
	const box = page.getByRole('combobox', { name: 'Search the documentation' });
	await expect(box).toBeFocused();
	await page.keyboard.type('session cookies');
	const results = page.getByRole('listbox', { name: 'Search results' });
	await expect(results.getByRole('option').first()).toContainText('Session cookies');
	await page.keyboard.press('ArrowDown');
	await expect(box).toHaveAttribute('aria-activedescendant', 'search-hit-0');
	await page.screenshot({ path: 'test-results/docs-search.png' });
	await page.keyboard.press('Enter');
	await expect(page).toHaveURL(/\/sessions#session-cookies$/);

	await page.keyboard.press('/');
	await page.keyboard.type('safeCallbackUrl');
	await expect(results.getByRole('option').first()).toContainText('safeCallbackUrl');
	await page.keyboard.press('Escape');
	await expect(results).toBeHidden();
	expect(elsewhere).toEqual([]);
});

test('a phone: the sidebar opens from the menu and closes on navigation; nothing is wider than the screen', async ({ page }) => {
	await page.setViewportSize({ width: 390, height: 844 });
	await page.goto('/getting-started');
	await hydrated(page);
	const sidebar = page.getByRole('navigation', { name: 'Documentation' });
	const menu = page.getByRole('button', { name: 'Menu' });
	await expect(sidebar).toBeHidden();
	await expect(menu).toHaveAttribute('aria-expanded', 'false');
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
	await page.screenshot({ path: 'test-results/docs-getting-started-phone.png' });
	await expectNoAxeViolations(page, 'getting started, phone');

	await menu.click();
	await expect(menu).toHaveAttribute('aria-expanded', 'true');
	await expect(sidebar).toBeVisible();
	await page.screenshot({ path: 'test-results/docs-menu-phone.png' });
	await sidebar.getByRole('link', { name: 'Passkeys (WebAuthn)' }).click();
	await expect(page).toHaveURL(/\/passkeys$/);
	await expect(sidebar).toBeHidden();
	expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test('the reference: an index of the entry points, a page for each, with every export', async ({ page }) => {
	await page.goto('/reference');
	await expect(page.getByRole('heading', { level: 1, name: 'API reference' })).toBeVisible();
	await expectNoAxeViolations(page, 'reference');
	await page.getByRole('link', { name: 'kitauth/components', exact: true }).click();
	await expect(page).toHaveURL(/\/reference-kitauth-components$/);
	await expect(page.locator('[id="SignIn"] .kind')).toHaveText('component');
	await expect(page.getByRole('navigation', { name: 'Documentation' }).getByRole('link', { name: 'API reference' })).toHaveAttribute('aria-current', 'page');
	await page.screenshot({ path: 'test-results/docs-reference-components.png' });
	await expectNoAxeViolations(page, 'reference of kitauth/components');
	await page.goto('/reference-kitauth');
	await expect(page.locator('[id="SvelteKitAuth"] .kind')).toHaveText('function');
	await expect(page.locator('[id="SvelteKitAuth"] pre')).toContainText('SvelteKitAuthResult');
});
