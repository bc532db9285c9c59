/**
 * The built-in pages under their Content-Security-Policy, in Chromium: no violation reported on
 * any of them, the kit's styles applied (their `<style>` elements are allowed by hash), and the
 * sign-in page's inlined passkey script running (allowed by its hash: it enables the passkey
 * button). The policy itself is checked in `tests/integration/pages-csp.security.test.ts`.
 */
import { expect, test } from '@playwright/test';
import { identify } from './demo.js';

const PAGES = ['/auth/signin', '/auth/signout', '/auth/error?error=Configuration', '/auth/verify-request'];

test('the built-in pages run under their CSP without a single violation', async ({ page }) => {
	const violations: string[] = [];
	page.on('console', (message) => {
		if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
	});
	await page.addInitScript(() => {
		document.addEventListener('securitypolicyviolation', (event) => {
			console.error(`Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI} ${event.sample}`);
		});
	});
	for (const path of PAGES) {
		const response = await page.goto(path);
		expect(response?.headers()['content-security-policy'], path).toContain("default-src 'none'");
		// The kit's CSS applied: the page frame is a flex container with its own background.
		const frame = page.locator('.kitauth-page');
		await expect(frame, path).toHaveCSS('display', 'flex');
		await expect(frame, path).not.toHaveCSS('background-color', 'rgba(0, 0, 0, 0)');
	}
	// Step 2 of identifier-first (the page's answer to the address): the passkey script ran, it
	// enables the button the HTML ships disabled.
	await page.goto('/auth/signin');
	await identify(page, 'anyone@example.com');
	await expect(page.locator('form[data-kitauth-passkey] button[type="submit"]')).toBeEnabled();
	expect(violations).toEqual([]);
});

test('control: a script the policy does not list is blocked and reported', async ({ page }) => {
	const violations: string[] = [];
	page.on('console', (message) => {
		if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
	});
	await page.goto('/auth/signin');
	await page.evaluate(() => {
		const script = document.createElement('script');
		script.textContent = 'document.body.dataset.injected = "ran"';
		document.body.append(script);
	});
	await expect.poll(() => violations.length).toBeGreaterThan(0);
	expect(await page.evaluate(() => document.body.dataset.injected)).toBeUndefined();
});
