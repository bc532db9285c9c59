import { expect, test, type Page } from '@playwright/test';
import { resetDemoAccount, signInToAccount } from './demo.js';
import { fontsReady } from './fonts.js';

/**
 * Visual baselines of the component kit and the demo's pages, light and dark, compared on every
 * `npm test` (committed under tests/e2e/screenshots/). Fixed data (the gallery), the pinned Inter
 * font, no animations. After an intended change: `npx playwright test visual --update-snapshots`.
 */

const STATES = [
	'signin',
	'signin-identifier',
	'signin-method',
	'signin-error',
	'signin-refused',
	'signin-field-error',
	'signout-button',
	'signout-card',
	'error-Configuration',
	'error-AccessDenied',
	'error-Verification',
	'verify-request',
	'verify-request-code',
	'sessions',
	'sessions-done',
	'accounts',
	'accounts-last',
	'passkey-button',
	'passkey-button-disabled',
	'passkey-button-pending',
	'passkey-button-error',
	'passkey-button-field-error',
	'passkeys',
	'passkeys-error',
	'passkeys-reauthenticate',
	'two-factor-challenge',
	'two-factor-challenge-error',
	'two-factor-setup',
	'two-factor-setup-error',
	'two-factor-on',
	'backup-codes',
	'backup-codes-left',
	'signup',
	'signup-error',
	'forgot-password',
	'reset-password',
	'reset-password-error'
];

// At a phone's width as well: the states whose layout changes there (identifier-first's steps, the
// QR code, the key, the backup codes in one column, the password forms' fields and hints).
const PHONE_STATES = [
	'signin-identifier',
	'signin-method',
	'two-factor-challenge',
	'two-factor-setup',
	'two-factor-on',
	'backup-codes',
	'backup-codes-left',
	'signup',
	'forgot-password',
	'reset-password'
];

test.use({ viewport: { width: 1100, height: 900 } });

/**
 * Hydrated, fonts loaded, and no focus ring: autofocus puts focus on the first message in error
 * (at load, and again when the page hydrates), which the focus tests check elsewhere.
 */
async function settled(page: Page): Promise<void> {
	await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
	await fontsReady(page);
	await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

for (const scheme of ['light', 'dark'] as const) {
	test(`every component state of the gallery (${scheme})`, async ({ page }) => {
		await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
		await page.goto('/components');
		await settled(page);
		expect(await page.locator('[data-state]').count()).toBe(STATES.length);
		for (const state of STATES) {
			await expect.soft(page.locator(`[data-state="${state}"]`), state).toHaveScreenshot(`${state}-${scheme}.png`);
		}
	});

	test(`identifier-first, the two-factor and the password states at a phone's width (${scheme})`, async ({ page }) => {
		await page.setViewportSize({ width: 360, height: 780 });
		await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
		await page.goto('/components');
		await settled(page);
		for (const state of PHONE_STATES) {
			await expect.soft(page.locator(`[data-state="${state}"]`), state).toHaveScreenshot(`${state}-phone-${scheme}.png`);
		}
	});

	test(`the demo's sign-in, sign-out and account pages (${scheme})`, async ({ page }) => {
		await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
		await page.goto('/signin');
		await settled(page);
		await expect(page).toHaveScreenshot(`demo-signin-${scheme}.png`);
		await page.goto('/signin?error=SessionRequired');
		await settled(page);
		await expect(page).toHaveScreenshot(`demo-signin-required-${scheme}.png`);

		await signInToAccount(page);
		await resetDemoAccount(page);
		await settled(page);
		// The session's times and this browser's version change from run to run: masked.
		const mask = [page.locator('time'), page.locator('[data-kitauth="sessions"] .device')];
		await expect(page).toHaveScreenshot(`demo-account-${scheme}.png`, { mask, fullPage: true });
		await page.goto('/signout');
		await settled(page);
		await expect(page).toHaveScreenshot(`demo-signout-${scheme}.png`);
	});
}
