/**
 * Passkeys end to end in Chromium with its virtual authenticator (CDP `WebAuthn.*`), against the
 * built demo on http://localhost (rpID `localhost`): sign up, sign out, sign in with the button
 * (`signIn('passkey')`) and with autofill, add a second passkey, rename one, and remove one after
 * the sudo prompt asks a stale session to confirm it is the user.
 */
import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe.js';
import { PASSKEY_REAUTH_SECONDS } from './servers.js';
import { addAuthenticator, credentials, hydrated } from './webauthn.js';

async function signOut(page: Page): Promise<void> {
	await page.goto('/signout');
	await page.getByRole('main').getByRole('button', { name: 'Sign out' }).click();
	await expect(page).toHaveURL((url) => url.pathname === '/');
	// (Not by visiting /account: its sign-in page would offer the passkey to autofill at once.)
	expect(await (await page.request.get('/auth/session')).json()).toBeNull();
}

test('sign up with a passkey, sign in with it (button and autofill), add a second, remove one after confirming it is you', async ({ page }) => {
	test.setTimeout(90_000);
	const cdp = await page.context().newCDPSession(page);
	await cdp.send('WebAuthn.enable', { enableUI: false });
	const laptop = await addAuthenticator(cdp);
	const email = `passkey-${Date.now()}@example.com`;

	// Sign up (the demo's passkey sign-up under the sign-in card): a new email and "Continue with a
	// passkey" registers one and signs in.
	await page.goto('/signin?redirectTo=/account');
	await hydrated(page);
	await expectNoAxeViolations(page, '/signin with passkeys');
	await page.locator('form.kitauth-passkey input[name="email"]').fill(email);
	await page.getByRole('button', { name: 'Continue with a passkey' }).click();
	await expect(page).toHaveURL((url) => url.pathname === '/account');
	await expect(page.getByTestId('account-email')).toHaveText(email);
	const list = page.getByTestId('passkeys');
	await expect(list.locator('li')).toHaveCount(1);
	const [first] = await credentials(cdp, laptop);
	expect(first?.isResidentCredential).toBe(true);
	expect(first?.rpId).toBe('localhost');

	// Sign out; sign in with the button (`signIn('passkey')` from kitauth/client).
	await signOut(page);
	await page.goto('/client');
	await hydrated(page);
	await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
	await expect(page.getByTestId('client-who')).toHaveText(`Signed in as ${email}.`);
	expect((await credentials(cdp, laptop))[0]!.signCount).toBeGreaterThan(first!.signCount);

	// Sign out; sign in through autofill: identifier-first's step 1 offers passkeys to its email
	// field (conditional mediation), and the virtual authenticator, having no UI, answers at once.
	await signOut(page);
	await page.goto('/signin?redirectTo=/account');
	await expect(page).toHaveURL((url) => url.pathname === '/account', { timeout: 15_000 });
	await expect(page.getByTestId('account-email')).toHaveText(email);

	// Add a second passkey from another device (a second virtual authenticator).
	const saved = await credentials(cdp, laptop);
	await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: laptop });
	const phone = await addAuthenticator(cdp);
	await hydrated(page);
	await page.getByRole('button', { name: 'Add a passkey' }).click();
	await expect(list.locator('li')).toHaveCount(2);
	// Both credentials on one authenticator now, so the browser can be told about a removal.
	for (const credential of saved) await cdp.send('WebAuthn.addCredential', { authenticatorId: phone, credential });

	// Rename the first one (a plain form action).
	const firstRow = list.locator('li').filter({ has: page.locator(`input[name="id"][value="${Buffer.from(first!.credentialId, 'base64').toString('base64url')}"]`) }).first();
	await firstRow.getByLabel('Name of passkey').fill('Old laptop');
	await firstRow.getByRole('button', { name: 'Rename' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'Passkey renamed.' })).toBeVisible();
	await expectNoAxeViolations(page, '/account with two passkeys');
	await expect(firstRow.getByLabel('Name of passkey')).toHaveValue('Old laptop');

	// Wait until the sign-in is stale: removing asks the user to confirm it is them.
	await page.waitForTimeout((PASSKEY_REAUTH_SECONDS + 1) * 1000);
	await firstRow.getByRole('button', { name: 'Remove passkey Old laptop' }).click();
	const prompt = page.getByRole('alertdialog');
	await expect(prompt).toContainText('confirm it is you');
	// Focus moves to the prompt, which is named by what it asks and inside the passkey card.
	await expect(prompt).toBeFocused();
	await expect(prompt).toHaveAccessibleName('Confirm it is you to remove a passkey.');
	await expect(page.locator('[data-kitauth="passkeys"]').getByRole('alertdialog')).toHaveCount(1);
	await expect(list.locator('li')).toHaveCount(2);
	await expectNoAxeViolations(page, '/account with the re-authentication prompt');
	await prompt.getByRole('button', { name: 'Confirm with a passkey' }).click();
	await expect(page).toHaveURL((url) => url.pathname === '/account');
	await expect(page.getByRole('alertdialog')).toHaveCount(0);
	await hydrated(page);
	await firstRow.getByRole('button', { name: 'Remove passkey Old laptop' }).click();
	await expect(page.getByRole('status').filter({ hasText: 'Passkey removed.' })).toBeVisible();
	await expect(list.locator('li')).toHaveCount(1);
	await expect(firstRow).toHaveCount(0);
	// Its button went with it: focus is on the list, not lost to the page.
	await expect(list).toBeFocused();

	// Where the browser has the Signal API, the removed passkey is gone from the authenticator too.
	const signals = await page.evaluate(() => typeof (PublicKeyCredential as unknown as { signalUnknownCredential?: unknown }).signalUnknownCredential === 'function');
	test.info().annotations.push({ type: 'signal-api', description: String(signals) });
	if (signals) {
		await expect.poll(async () => (await credentials(cdp, phone)).map((c) => c.credentialId)).not.toContain(first!.credentialId);
	}

	// The remaining passkey still signs in.
	await signOut(page);
	await page.goto('/client');
	await hydrated(page);
	await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
	await expect(page.getByTestId('client-who')).toHaveText(`Signed in as ${email}.`);
	await page.goto('/account');
	await page.screenshot({ path: 'test-results/passkeys-account.png', fullPage: true });
});

test('without JavaScript: the passkey list renames through its form action, a refused name under its field, and cannot add', async ({ page, browser }) => {
	test.setTimeout(60_000);
	const cdp = await page.context().newCDPSession(page);
	await cdp.send('WebAuthn.enable', { enableUI: false });
	await addAuthenticator(cdp);
	const email = `passkey-nojs-${Date.now()}@example.com`;
	await page.goto('/signin?redirectTo=/account');
	await hydrated(page);
	await page.locator('form.kitauth-passkey input[name="email"]').fill(email);
	await page.getByRole('button', { name: 'Continue with a passkey' }).click();
	await expect(page).toHaveURL((url) => url.pathname === '/account');

	// The same session in a browser without JavaScript.
	const plain = await browser.newContext({
		javaScriptEnabled: false,
		baseURL: test.info().project.use.baseURL,
		storageState: await page.context().storageState()
	});
	const noJs = await plain.newPage();
	await noJs.goto('/account');
	const card = noJs.locator('[data-kitauth="passkeys"]');
	await expect(card.getByRole('heading', { name: 'Passkeys' })).toBeVisible();
	const name = card.getByRole('textbox', { name: 'Name of passkey' });
	await expect(name).toHaveCount(1);

	// Only spaces: refused, the message under the field, which is marked, described and focused.
	await name.fill('   ');
	await card.getByRole('button', { name: /^Rename/ }).click();
	await expect(name).toHaveAttribute('aria-invalid', 'true');
	await expect(name).toHaveAccessibleDescription('Give the passkey a name.');
	await expect(name).toBeFocused();

	await name.fill('Desk laptop');
	await card.getByRole('button', { name: /^Rename/ }).click();
	await expect(card.getByRole('status').filter({ hasText: 'Passkey renamed.' })).toBeVisible();
	await expect(name).toHaveValue('Desk laptop');
	await expect(name).not.toHaveAttribute('aria-invalid');
	await expect(card.getByRole('button', { name: 'Remove passkey Desk laptop' })).toBeVisible();

	// Adding a passkey needs JavaScript: the button is there, disabled, with the reason.
	await expect(card.getByRole('button', { name: 'Add a passkey' })).toBeDisabled();
	await expect(card.locator('noscript p')).toHaveText('Passkeys need JavaScript, which is off in this browser.');
	await plain.close();
});
