import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe.js';
import { DEMO_EMAIL } from './demo.js';
import { fontsReady } from './fonts.js';

/**
 * The demo in German and in Arabic, with and without JavaScript: the language from the browser
 * (Accept-Language) or from the switcher on /signin and /components (a GET form and a cookie, read
 * by the demo's `i18n.locale`); the form actions' refusals in that language; Arabic right to left.
 * Visual baselines of the new states (light, dark, a phone, right to left) and axe on each.
 */

const card = (page: Page) => page.locator('[data-kitauth="signin"]');

/** Picks a language with the demo's switcher (a plain GET form). */
async function switchTo(page: Page, language: string): Promise<void> {
	await page.getByLabel('Language').selectOption({ label: language });
	await page.getByRole('button', { name: 'Switch' }).click();
}

/** A wrong password, in whatever language the page speaks: step 1's address, then step 2's password. */
async function refusedSignIn(page: Page): Promise<void> {
	await card(page).locator('form[data-step="identifier"] input[type="email"]').fill(DEMO_EMAIL);
	await card(page).locator('form[data-step="identifier"] button[type="submit"]').click();
	await card(page).locator('input[type="password"]').fill('not-the-password');
	await card(page).locator('form:has(input[type="password"]) button[type="submit"]').click();
}

for (const javaScriptEnabled of [false, true]) {
	const mode = javaScriptEnabled ? 'with JavaScript' : 'without JavaScript';

	test.describe(mode, () => {
		test.use({ javaScriptEnabled });

		test('German from Accept-Language: the sign-in page and a refused password', async ({ browser }) => {
			const context = await browser.newContext({ javaScriptEnabled, locale: 'de-DE', extraHTTPHeaders: { 'x-forwarded-proto': 'http' } });
			const page = await context.newPage();
			await page.goto('/signin');
			if (javaScriptEnabled) await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
			await expect(card(page)).toHaveAttribute('lang', 'de');
			await expect(card(page).getByRole('heading', { level: 1 })).toHaveText('Anmelden');
			await refusedSignIn(page);
			await expect(card(page).getByRole('alert')).toContainText('Die Anmeldung ist fehlgeschlagen. Prüfen Sie, ob Ihre Angaben stimmen.');
			await context.close();
		});

		test('the switcher: Arabic right to left on /signin and /components, then back to the browser’s language', async ({ page }) => {
			await page.goto('/signin');
			await expect(card(page).getByRole('heading', { level: 1 })).toHaveText('Sign in');
			await switchTo(page, 'العربية');
			await expect(page).toHaveURL((url) => url.pathname === '/signin' && !url.searchParams.has('lang'));
			await expect(card(page)).toHaveAttribute('dir', 'rtl');
			await expect(card(page).getByRole('heading', { level: 1 })).toHaveText('تسجيل الدخول');
			await refusedSignIn(page);
			await expect(card(page).getByRole('alert')).toContainText('تعذّر تسجيل الدخول. تحقّق من صحة البيانات التي أدخلتها.');

			// The cookie carries the choice to the next page.
			await page.goto('/components');
			await expect(page.locator('[data-state="signout-card"] [data-kitauth]')).toHaveAttribute('dir', 'rtl');
			await expect(page.locator('[data-state="signout-card"] h3')).toHaveText('تسجيل الخروج');
			await switchTo(page, 'Browser’s language');
			await expect(page.locator('[data-state="signout-card"] h3')).toHaveText('Sign out');
			await expect(page.locator('[data-state="signout-card"] [data-kitauth]')).toHaveAttribute('dir', 'ltr');
		});
	});
}

test.describe('visual baselines and axe', () => {
	/** Hydrated, fonts loaded, no focus ring. */
	async function settled(page: Page): Promise<void> {
		await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
		await fontsReady(page);
		await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
	}

	for (const [name, language, viewport, scheme] of [
		['ar-light', 'العربية', { width: 1100, height: 900 }, 'light'],
		['ar-dark', 'العربية', { width: 1100, height: 900 }, 'dark'],
		['ar-mobile', 'العربية', { width: 375, height: 812 }, 'light'],
		['de-mobile', 'Deutsch', { width: 375, height: 812 }, 'dark']
	] as const) {
		test(`the demo's sign-in page, ${name}`, async ({ page }) => {
			await page.setViewportSize(viewport);
			await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
			await page.goto('/signin');
			await switchTo(page, language);
			await settled(page);
			await expect(page).toHaveScreenshot(`demo-signin-${name}.png`, { fullPage: true });
			await expectNoAxeViolations(page, `/signin (${name})`);
		});
	}

	test('the gallery in Arabic: the refused sign-in, identifier-first’s steps and the passkeys, right to left; axe on the whole page', async ({ page }) => {
		await page.emulateMedia({ reducedMotion: 'reduce' });
		await page.goto('/components');
		await switchTo(page, 'العربية');
		await settled(page);
		for (const state of ['signin-refused', 'signin-identifier', 'signin-method', 'passkeys-reauthenticate', 'sessions']) {
			const mask = [page.locator(`[data-state="${state}"] time`)];
			await expect.soft(page.locator(`[data-state="${state}"]`), state).toHaveScreenshot(`${state}-ar.png`, { mask });
		}
		await expectNoAxeViolations(page, '/components (ar)');
	});
});
