import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe.js';
import { chosenAddress, DEMO_EMAIL, identify, signInToAccount } from './demo.js';

/**
 * The component kit in Chromium: the gallery (/components, every component in each state) and
 * the demo's /signin built from it — accessibility in both schemes, styles that neither leak in
 * nor out, readable provider buttons, keyboard order, focus after a refusal, loading states.
 */

for (const scheme of ['light', 'dark'] as const) {
	test(`axe finds nothing on any component state (${scheme})`, async ({ page }) => {
		await page.emulateMedia({ colorScheme: scheme });
		await page.goto('/components');
		await expectNoAxeViolations(page, `/components (${scheme})`);
	});

	test(`axe finds nothing on the demo's sign-in page with a refusal, and its sign-out page (${scheme})`, async ({ page }) => {
		await page.emulateMedia({ colorScheme: scheme });
		await page.goto('/signin');
		await identify(page);
		await page.getByLabel('Password').fill('wrong');
		await page.getByRole('button', { name: 'Sign in', exact: true }).click();
		await expect(page.getByRole('alert')).toBeVisible();
		await expectNoAxeViolations(page, `/signin refused (${scheme})`);
		await page.goto('/signout');
		await expectNoAxeViolations(page, `/signout (${scheme})`);
	});

	test(`axe finds nothing on /account, its linked accounts and sessions (${scheme})`, async ({ page }) => {
		await page.emulateMedia({ colorScheme: scheme });
		await signInToAccount(page);
		await expect(page.locator('[data-kitauth="sessions"]')).toBeVisible();
		await expectNoAxeViolations(page, `/account (${scheme})`);
	});

	test(`every provider button reads at 4.5:1 and stands out from its card at 3:1 (${scheme})`, async ({ page }) => {
		await page.emulateMedia({ colorScheme: scheme });
		await page.goto('/components');
		const buttons = page.locator('[data-kitauth] form[data-provider] button, [data-kitauth="accounts"] form[data-key^="link:"] button');
		expect(await buttons.count()).toBeGreaterThanOrEqual(8);
		const measured = await buttons.evaluateAll((elements) => {
			const rgb = (value: string) => (value.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
			const lum = (value: string) => {
				const [r, g, b] = rgb(value).map((c) => {
					const s = c / 255;
					return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
				});
				return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
			};
			const ratio = (a: string, b: string) => {
				const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
				return (x! + 0.05) / (y! + 0.05);
			};
			return elements.map((button) => {
				const style = getComputedStyle(button);
				const card = getComputedStyle(button.closest('[data-kitauth]')!).backgroundColor;
				return {
					name: button.textContent?.trim(),
					text: ratio(style.color, style.backgroundColor),
					edge: Math.max(ratio(style.borderTopColor, card), ratio(style.backgroundColor, card))
				};
			});
		});
		for (const { name, text, edge } of measured) {
			expect.soft(text, `${name}: text`).toBeGreaterThanOrEqual(4.5);
			expect.soft(edge, `${name}: edge`).toBeGreaterThanOrEqual(3);
		}
	});
}

/** Computed styles of the kit's elements worth comparing (a sign-in card, a passkey button, a passkey list). */
async function kitStyles(page: Page) {
	const states = ['signin', 'passkey-button', 'passkeys'].map((state) => `[data-state="${state}"]`).join(', ');
	return page.locator(`:is(${states}) :is(section, h3, form, label, input, button, p, ul, li, .divider, .badge)`).evaluateAll((elements) =>
		elements.map((element) => {
			const s = getComputedStyle(element);
			return [s.display, s.margin, s.padding, s.border, s.background, s.color, s.font, s.textTransform, s.letterSpacing].join('|');
		})
	);
}

test("the page's own CSS does not leak into the components", async ({ page }) => {
	await page.goto('/components');
	const before = await kitStyles(page);
	// An app's global element styles. (Its layout around the component may change the component's
	// width; what is compared is everything else.)
	await page.addStyleTag({
		content: `
			form, p, h3, label, input, button, ul, li, a, span, svg {
				margin: 3rem; padding: 2rem; border: 5px dashed red; background: yellow;
				color: purple; font: italic 30px serif; text-transform: uppercase; letter-spacing: 4px;
			}
			section, div { color: purple; font: italic 30px serif; text-transform: uppercase; letter-spacing: 4px; background: yellow; }
			form { display: flex; } button { display: inline; } input { display: inline-block; }`
	});
	expect(await kitStyles(page)).toEqual(before);
});

test("the components' CSS does not leak out onto the page", async ({ page }) => {
	await page.goto('/components');
	const probe = () =>
		page.evaluate(() => {
			const host = document.createElement('div');
			host.innerHTML = '<form><label>x<input></label><button>b</button><p class="message">m</p><h3 class="heading">h</h3><span class="hidden">s</span></form>';
			document.body.append(host);
			const styles = [...host.querySelectorAll('*')].map((element) => {
				const s = getComputedStyle(element);
				return [s.display, s.margin, s.padding, s.border, s.background, s.color, s.fontSize, s.position, s.width].join('|');
			});
			host.remove();
			return styles;
		});
	const withKit = await probe();
	// The kit's styles are the injected <style id="svelte-…"> elements; without them the same
	// elements must look the same.
	const removed = await page.evaluate(() => {
		const styles = [...document.querySelectorAll('style[id^="svelte-"]')];
		styles.forEach((style) => style.remove());
		return styles.length;
	});
	expect(removed).toBeGreaterThan(5);
	expect(await probe()).toEqual(withKit);
});

test('keyboard: the sign-in page is in reading order, the provider button before the fields', async ({ page }) => {
	await page.goto('/signin');
	await page.getByRole('link', { name: 'Components' }).focus();
	const order: string[] = [];
	for (let i = 0; i < 11; i++) {
		await page.keyboard.press('Tab');
		order.push(
			await page.evaluate(() => {
				const element = document.activeElement as HTMLElement;
				const label = element.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : null;
				return `${element.tagName.toLowerCase()}:${label ?? element.textContent?.trim()}`;
			})
		);
	}
	expect(order).toEqual([
		'a:Sign in',
		// The demo's language switcher, above the sign-in card.
		'select:Language',
		'button:Switch',
		'button:Sign in with Local test IdP',
		// Identifier-first: one address field for the email link, the password and passkeys.
		'input:Email address',
		'button:Continue',
		'a:the browser API',
		'a:Create an account',
		'a:Forgot your password?',
		// The demo's passkey sign-up, under sign-in.
		'input:E-mail for a new passkey account (optional)',
		'button:Continue with a passkey'
	]);
});

for (const javaScriptEnabled of [true, false]) {
	test.describe(`JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled });

		test('after a refused sign-in, focus is on the message, which the form and its button point to', async ({ page }) => {
			await page.goto('/signin');
			if (javaScriptEnabled) await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
			await identify(page);
			await page.getByLabel('Password').fill('wrong');
			await page.getByRole('button', { name: 'Sign in', exact: true }).click();
			const alert = page.getByRole('alert');
			await expect(alert).toHaveText('Sign in failed. Check the details you provided are correct.');
			await expect(alert).toBeFocused();
			const form = page.locator('form[data-provider="password"]');
			const id = await alert.getAttribute('id');
			await expect(form).toHaveAttribute('aria-describedby', id!);
			await expect(form.getByRole('button', { name: 'Sign in', exact: true })).toHaveAccessibleDescription(
				'Sign in failed. Check the details you provided are correct.'
			);
			await expect(chosenAddress(page)).toHaveText(DEMO_EMAIL);
			await expect(page.getByLabel('Password')).toHaveValue('');
		});
	});
}

test('a field in error is marked, described and focused', async ({ page }) => {
	await page.goto('/components');
	const field = page.locator('[data-state="signin-field-error"]').getByLabel('Email address', { exact: true });
	await expect(field).toHaveAttribute('aria-invalid', 'true');
	await expect(field).toHaveAccessibleDescription('Enter an email address, like name@example.com.');
});

test('loading state: while a sign-in runs the button says so, and a second click sends nothing', async ({ page }) => {
	await page.goto('/signin');
	await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
	let posts = 0;
	let release!: () => void;
	const held = new Promise<void>((resolve) => (release = resolve));
	await page.route('**/signin?/signIn', async (route) => {
		posts++;
		await held;
		await route.continue();
	});
	await identify(page);
	await page.getByLabel('Password').fill('wrong');
	const button = page.getByRole('button', { name: 'Sign in', exact: true });
	await button.click();
	await expect(button).toHaveAttribute('aria-busy', 'true');
	await expect(button).toBeFocused();
	// Submitting again (Enter on the busy button) sends nothing more.
	await page.keyboard.press('Enter');
	release();
	await expect(page.getByRole('alert')).toBeVisible();
	await expect(button).not.toHaveAttribute('aria-busy');
	expect(posts).toBe(1);
});

test('the redirectTo a visitor came with is carried through sign-in', async ({ page }) => {
	await page.goto('/signin?redirectTo=%2Fcomponents%3Ffrom%3Dsignin');
	await expect(page.locator('input[name="redirectTo"]').first()).toHaveValue('/components?from=signin');
	await identify(page);
	await page.getByLabel('Password').fill('demo-password');
	await page.getByRole('button', { name: 'Sign in', exact: true }).click();
	await expect(page).toHaveURL((url) => url.pathname === '/components' && url.search === '?from=signin');
});

test('passkey states in the gallery: axe covers them (both schemes, above), each with its parts', async ({ page }) => {
	await page.goto('/components');
	await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
	const states = ['passkey-button', 'passkey-button-disabled', 'passkey-button-pending', 'passkey-button-error', 'passkey-button-field-error', 'passkeys', 'passkeys-error', 'passkeys-reauthenticate'];
	for (const state of states) await expect(page.locator(`[data-state="${state}"] [data-kitauth]`).first()).toBeVisible();
	// Ready once the page runs: the button is enabled; before its script (the part alone), disabled.
	await expect(page.locator('[data-state="passkey-button"]').getByRole('button', { name: 'Continue with a passkey' })).toBeEnabled();
	// With JavaScript the no-JavaScript note is not shown (nor is it once the button runs).
	await expect(page.locator('[data-state="passkey-button-disabled"] noscript')).toBeHidden();
	await expect(page.locator('[data-state="passkey-button"] noscript')).toHaveCount(0);
	await expect(page.locator('[data-state="passkey-button-disabled"]').getByRole('button', { name: 'Add a passkey' })).toBeDisabled();
	const pending = page.locator('[data-state="passkey-button-pending"]');
	await expect(pending.getByRole('button')).toHaveAttribute('aria-busy', 'true');
	await expect(pending.getByRole('status')).toHaveText('Waiting for your passkey…');
	const failed = page.locator('[data-state="passkey-button-error"]');
	await expect(failed.getByRole('alert')).toHaveText('The passkey prompt was closed or timed out.');
	await expect(failed.getByRole('button')).toHaveAccessibleDescription('The passkey prompt was closed or timed out.');
	const email = page.locator('[data-state="passkey-button-field-error"]').getByLabel('E-mail for a new passkey account (optional)');
	await expect(email).toHaveAttribute('aria-invalid', 'true');
	await expect(email).toHaveAccessibleDescription('Enter your email to create a passkey.');

	const named = page.locator('[data-state="passkeys-error"]').getByRole('textbox', { name: 'Name of passkey' }).nth(1);
	await expect(named).toHaveAttribute('aria-invalid', 'true');
	await expect(named).toHaveAccessibleDescription('Give the passkey a name.');
	const prompt = page.locator('[data-state="passkeys-reauthenticate"]').getByRole('alertdialog', { name: 'Confirm it is you to remove a passkey.' });
	await expect(prompt).toHaveAccessibleDescription('For your security, confirm it is you, then try again.');
	await expect(prompt.getByRole('button', { name: 'Confirm with a passkey' })).toBeEnabled();
});

test('keyboard: a passkey list is in reading order, row by row, then "Add a passkey"', async ({ page }) => {
	await page.goto('/components');
	await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
	const card = page.locator('[data-state="passkeys"]');
	await card.getByRole('textbox').first().focus();
	const order: string[] = [];
	for (let i = 0; i < 7; i++) {
		order.push(
			await page.evaluate(() => {
				const element = document.activeElement as HTMLElement;
				return element instanceof HTMLInputElement ? `input:${element.value}` : `${element.tagName.toLowerCase()}:${element.textContent?.trim()}`;
			})
		);
		await page.keyboard.press('Tab');
	}
	expect(order).toEqual([
		'input:Chrome on macOS',
		'button:Rename passkey Chrome on macOS',
		'button:Remove passkey Chrome on macOS',
		'input:YubiKey 5C',
		'button:Rename passkey YubiKey 5C',
		'button:Remove passkey YubiKey 5C',
		'button:Add a passkey'
	]);
});

test('a passkey ceremony that fails: the button is busy meanwhile (a second press starts nothing), then the error is announced and focused', async ({ page }) => {
	await page.goto('/components');
	await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
	let asked = 0;
	let release!: () => void;
	const held = new Promise<void>((resolve) => (release = resolve));
	// The server cannot start a ceremony (its options endpoint fails): no authenticator is reached.
	await page.route('**/auth/webauthn-options/**', async (route) => {
		asked++;
		await held;
		await route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"Configuration"}' });
	});
	const state = page.locator('[data-state="passkey-button"]');
	const button = state.getByRole('button', { name: 'Continue with a passkey' });
	await button.click();
	await expect(button).toHaveAttribute('aria-busy', 'true');
	await expect(state.getByRole('status')).toHaveText('Waiting for your passkey…');
	await button.press('Enter');
	release();
	const alert = state.getByRole('alert');
	await expect(alert).toHaveText('The passkey could not be used. Try again.');
	await expect(alert).toBeFocused();
	await expect(button).not.toHaveAttribute('aria-busy');
	await expect(button).toHaveAccessibleDescription('The passkey could not be used. Try again.');
	await expect(state.locator('form')).toHaveAttribute('aria-describedby', (await alert.getAttribute('id'))!);
	expect(asked).toBe(1);
});

test.describe('JavaScript off', () => {
	test.use({ javaScriptEnabled: false });

	test('passkey buttons are disabled and say they need JavaScript; the sign-in page works around them', async ({ page }) => {
		await page.goto('/components');
		const ready = page.locator('[data-state="passkey-button"]');
		await expect(ready.getByRole('button', { name: 'Continue with a passkey' })).toBeDisabled();
		// (A <noscript> note: Playwright's text locators skip those, so it is found by its element.)
		const note = ready.locator('noscript p');
		await expect(note).toBeVisible();
		await expect(note).toHaveText('Passkeys need JavaScript, which is off in this browser.');
		await page.goto('/signin');
		await expect(page.getByRole('button', { name: 'Continue with a passkey' })).toBeDisabled();
		await expect(page.locator('form.kitauth-passkey noscript p')).toHaveText('Passkeys need JavaScript, which is off in this browser.');
		// Identifier-first's step 1 (its answer is step 2, with the password).
		await expect(page.getByRole('button', { name: 'Continue', exact: true })).toBeEnabled();
	});
});
