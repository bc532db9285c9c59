import { expect, test } from '@playwright/test';
import { pinBuiltInPageFont } from './fonts.js';

/**
 * Visual baselines of the built-in pages (the core renders the kit's components), light and dark,
 * on the JWT server where the demo leaves them in place. The demo's theme is `auto`, so the
 * system's scheme picks the palette. Fonts pinned (see fonts.ts).
 */

const PAGES = {
	signin: '/auth/signin',
	'signin-refused': '/auth/signin?error=CredentialsSignin',
	signout: '/auth/signout',
	'error-Configuration': '/auth/error?error=Configuration',
	'error-AccessDenied': '/auth/error?error=AccessDenied',
	'error-Verification': '/auth/error?error=Verification',
	'verify-request': '/auth/verify-request'
} as const;

// The pinned font is injected as a <style> element, which the pages' Content-Security-Policy
// rightly refuses (csp.passkey-jwt.e2e.ts): these screenshots bypass the policy to add it.
test.use({ viewport: { width: 800, height: 760 }, bypassCSP: true });

for (const scheme of ['light', 'dark'] as const) {
	test(`the built-in pages (${scheme})`, async ({ page }) => {
		await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
		for (const [name, path] of Object.entries(PAGES)) {
			await page.goto(path);
			await pinBuiltInPageFont(page);
			await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
			await expect.soft(page, name).toHaveScreenshot(`builtin-${name}-${scheme}.png`);
		}
	});
}
