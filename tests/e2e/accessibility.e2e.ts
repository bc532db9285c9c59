import { expect, test } from '@playwright/test';
import { expectBuiltInPageAccessible, expectNoAxeViolations } from './axe.js';
import { signInToAccount } from './demo.js';

/**
 * axe-core in Chromium on the pages the demo serves. The built-in sign-in page is checked on the
 * JWT server (builtin-signin.jwt.e2e.ts), where the demo does not replace it.
 */

const BUILT_IN = {
	'sign-out': { path: '/auth/signout', heading: 'Sign out' },
	error: { path: '/auth/error?error=AccessDenied', heading: 'Access denied' },
	'server error': { path: '/auth/error?error=Configuration', heading: 'Server error' },
	'verify-request': { path: '/auth/verify-request', heading: 'Check your email' }
} as const;

for (const [name, { path, heading }] of Object.entries(BUILT_IN)) {
	test(`axe finds nothing on the built-in ${name} page`, async ({ page }) => {
		await page.goto(path);
		await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
		await expectBuiltInPageAccessible(page);
	});
}

test('axe finds nothing on the demo\'s pages signed out: /, /signin (also with an error), /signout, /client', async ({ page }) => {
	for (const path of ['/', '/signin', '/signin?error=CredentialsSignin', '/signout', '/client']) {
		await page.goto(path);
		if (path.includes('error=')) await expect(page.getByRole('alert')).toBeVisible();
		await expectNoAxeViolations(page);
	}
});

test('axe finds nothing on the demo\'s pages signed in: /account, / and /client', async ({ page }) => {
	await signInToAccount(page);
	await expectNoAxeViolations(page);
	for (const path of ['/', '/client']) {
		await page.goto(path);
		await expectNoAxeViolations(page);
	}
});
