import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD, signInToAccount, submitDemoSignIn } from './demo.js';

// Values a browser would follow off-site, that are not paths at all, or that lead back to /signin
// (a loop): the demo must answer each with a redirect to one of its own paths, never a 500.
const HOSTILE = [
	'//evil.example',
	'/%5Cevil.example',
	'/.//evil.example',
	'/%09/evil.example',
	'https://evil.example/account',
	'javascript:alert(1)',
	'/signin'
];

test.describe('signed in, /signin redirects onward only to a path on this site', () => {
	test.beforeEach(async ({ page }) => {
		await signInToAccount(page);
	});

	test('an off-site, non-path or self-referring redirectTo → /account', async ({ page }) => {
		for (const value of HOSTILE) {
			// Raw in the URL, as an attacker's link would carry it (encoded parts stay encoded).
			const response = await page.request.get(`/signin?redirectTo=${value}`, { maxRedirects: 0 });
			expect.soft(response.status(), value).toBe(303);
			expect.soft(response.headers()['location'], value).toBe('/account');
		}
	});

	test('a local path, or our own origin\'s URL as the core sends it, is followed as a path', async ({ page, baseURL }) => {
		const local = await page.request.get(`/signin?redirectTo=${encodeURIComponent('/?from=signin#top')}`, { maxRedirects: 0 });
		expect(local.headers()['location']).toBe('/?from=signin#top');
		const core = await page.request.get(`/signin?callbackUrl=${encodeURIComponent(`${baseURL}/account?tab=1`)}`, { maxRedirects: 0 });
		expect(core.status()).toBe(303);
		expect(core.headers()['location']).toBe('/account?tab=1');
	});
});

test('signed out, a hostile redirectTo is dropped from the form, which then signs in to /account', async ({ page }) => {
	await page.goto('/signin?redirectTo=//evil.example');
	const targets = await page.locator('input[name="redirectTo"]').evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
	expect(targets.length).toBeGreaterThan(0);
	expect(new Set(targets)).toEqual(new Set(['/account']));
	await submitDemoSignIn(page, DEMO_PASSWORD, '/signin?redirectTo=//evil.example');
	await expect(page).toHaveURL((url) => url.pathname === '/account');
});
