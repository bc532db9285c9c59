import { expect, test, type Page } from '@playwright/test';
import { linkOf, startSmtp, type TestMailbox } from '../support/smtp.js';
import { expectNoAxeViolations } from './axe.js';
import { chosenAddress, DEMO_EMAIL, DEMO_PASSWORD, identify } from './demo.js';
import { PORTS } from './servers.js';

/**
 * Identifier-first sign-in on the demo's /signin (its email link, password and passkeys share the
 * address), in Chromium with JavaScript and without it, in English and in German: step 1 (one
 * address field, which is also the passkeys' autofill, under the OIDC button), step 2 for the
 * address (in place with JavaScript; the form's answer without it, the address never in the URL),
 * the same for a registered and an unknown address, the way back, a password sign-in through both
 * steps, a refused password that stays on step 2, and the email-link choice.
 */

let mailbox: TestMailbox;
test.beforeAll(async () => {
	mailbox = await startSmtp({ port: PORTS.smtp });
});
test.afterAll(async () => {
	await mailbox.close();
});

const card = (page: Page) => page.locator('[data-kitauth="signin"]');

/** What step 2 offers, as a user of assistive technology meets it: each control's role and name. */
const controls = (page: Page) =>
	card(page)
		.locator('[data-step="method"] a, form:not(.kitauth-passkey) input:not([type="hidden"]):not([hidden]), button')
		.evaluateAll((elements) => elements.map((e) => `${e.tagName.toLowerCase()}:${e.getAttribute('aria-label') ?? (e.textContent?.trim() || e.id)}`));

for (const javaScriptEnabled of [true, false]) {
	test.describe(`JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled });

		async function open(page: Page, path = '/signin?redirectTo=/account'): Promise<void> {
			await page.goto(path);
			if (javaScriptEnabled) await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
		}

		test('step 1, step 2 for the address and back, then a password sign-in through both steps', async ({ page }) => {
			const posts: string[] = [];
			page.on('request', (request) => {
				if (request.method() === 'POST') posts.push(request.url());
			});
			await open(page);
			// Step 1: the OIDC button, one divider, one address field (passkeys' autofill too), "Continue".
			await expect(card(page).getByRole('button', { name: 'Sign in with Local test IdP' })).toBeVisible();
			await expect(card(page).locator('.divider')).toHaveCount(1);
			const field = card(page).getByLabel('Email address', { exact: true });
			await expect(field).toHaveAttribute('autocomplete', 'username webauthn');
			await expect(card(page).getByLabel('Password')).toHaveCount(0);
			// (axe runs in the page: with JavaScript only; the markup is the same without.)
			if (javaScriptEnabled) await expectNoAxeViolations(page, '/signin step 1');

			await identify(page);
			await expect(chosenAddress(page)).toHaveText(DEMO_EMAIL);
			// With JavaScript nothing was sent; without it the form posted, and the URL holds no address.
			expect(posts).toHaveLength(javaScriptEnabled ? 0 : 1);
			expect(page.url()).not.toContain('example.com');
			await expect(card(page).getByRole('button', { name: 'Sign in with Local test IdP' })).toHaveCount(0);
			await expect(card(page).getByRole('button', { name: 'Email me a sign-in link' })).toBeVisible();
			await expect(card(page).getByRole('button', { name: 'Use a passkey' })).toBeVisible();
			if (javaScriptEnabled) await expect(card(page).getByLabel('Password')).toBeFocused();
			if (javaScriptEnabled) await expectNoAxeViolations(page, '/signin step 2');

			// Back to step 1, with a link that works without JavaScript too.
			await card(page).getByRole('link', { name: 'Use a different email address' }).click();
			await expect(card(page).getByLabel('Email address', { exact: true })).toBeVisible();
			await expect(card(page).getByRole('button', { name: 'Sign in with Local test IdP' })).toBeVisible();

			await identify(page);
			await card(page).getByLabel('Password').fill(DEMO_PASSWORD);
			await card(page).getByRole('button', { name: 'Sign in', exact: true }).click();
			await expect(page).toHaveURL((url) => url.pathname === '/account');
			await expect(page.getByTestId('account-email')).toHaveText(DEMO_EMAIL);
		});

		test('a registered and an unknown address get the same step 2', async ({ page }) => {
			await open(page);
			await identify(page, DEMO_EMAIL);
			const known = await controls(page);
			await open(page);
			await identify(page, 'nobody-registered@example.com');
			expect(await controls(page)).toEqual(known);
			expect(known).toContain('button:Use a passkey');
		});

		test('German: both steps in the page’s language; a refused password stays on step 2 with the address', async ({ browser }) => {
			const context = await browser.newContext({ javaScriptEnabled, locale: 'de-DE', baseURL: test.info().project.use.baseURL });
			const page = await context.newPage();
			await open(page);
			await expect(card(page)).toHaveAttribute('lang', 'de');
			await page.getByLabel('E-Mail-Adresse', { exact: true }).fill(DEMO_EMAIL);
			await page.getByRole('button', { name: 'Weiter', exact: true }).click();
			await expect(chosenAddress(page)).toHaveText(DEMO_EMAIL);
			await expect(card(page).getByRole('link', { name: 'Andere E-Mail-Adresse verwenden' })).toBeVisible();
			await expect(card(page).getByRole('button', { name: 'Anmeldelink per E-Mail senden' })).toBeVisible();
			await expect(card(page).getByRole('button', { name: 'Passkey verwenden' })).toBeVisible();
			await card(page).getByLabel('Passwort').fill('not-the-password');
			await card(page).getByRole('button', { name: 'Anmelden', exact: true }).click();
			await expect(card(page).getByRole('alert')).toContainText('Die Anmeldung ist fehlgeschlagen.');
			await expect(chosenAddress(page)).toHaveText(DEMO_EMAIL);
			await expect(card(page).getByLabel('Passwort')).toHaveValue('');
			await context.close();
		});

		test('an address the browser would refuse, sent anyway: the message under the field, no 500', async ({ page }) => {
			await open(page);
			const field = card(page).getByLabel('Email address', { exact: true });
			// Past the browser's own check, as a hostile client would be.
			await field.evaluate((input) => input.setAttribute('type', 'text'));
			await field.fill('not an address');
			const answer = javaScriptEnabled ? null : page.waitForResponse((response) => response.request().method() === 'POST');
			await card(page).getByRole('button', { name: 'Continue', exact: true }).click();
			// Checked in the browser with JavaScript (nothing sent), by the action without it (a 400).
			if (!javaScriptEnabled) expect((await answer)?.status()).toBe(400);
			await expect(field).toHaveAttribute('aria-invalid', 'true');
			if (javaScriptEnabled) await expect(field).toBeFocused();
			await expect(field).toHaveAccessibleDescription('Enter one email address, such as name@example.com.');
		});

		test('the email-link choice sends a link for the address', async ({ page }) => {
			const to = `idfirst-${javaScriptEnabled ? 'js' : 'nojs'}-${Date.now()}@example.com`;
			await open(page);
			await identify(page, to);
			await card(page).getByRole('button', { name: 'Email me a sign-in link' }).click();
			await expect(page).toHaveURL((url) => url.pathname === '/auth/verify-request');
			await expect.poll(() => mailbox.to(to).length).toBe(1);
			expect(linkOf(mailbox.to(to)[0]!).searchParams.get('callbackUrl')).toMatch(/\/account$/);
		});
	});
}
