/**
 * Two-factor speaks the request's language (`Accept-Language`, through the real `Auth()` and
 * libSQL): the built-in challenge page, a wrong code's refusal on the page and to JSON clients,
 * and the management actions' refusals; English where nothing asks otherwise.
 */
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { challenge, enableTotp, passwordStep, signedInWithPassword, twoFactorWorld, wrongCode } from './two-factor-fixtures.js';

const GERMAN = { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' };

describe('two-factor in the request language', () => {
	it('the challenge page and a wrong code come back in German; without Accept-Language in English', async () => {
		const world = await twoFactorWorld('jwt');
		const { secret } = await enableTotp(await signedInWithPassword(world));
		const browser = world.client();
		await passwordStep(browser);

		const { document } = parseHTML(await (await browser.get('two-factor', { headers: GERMAN })).text());
		expect(document.documentElement.getAttribute('lang')).toBe('de');
		expect(document.querySelector('title')?.textContent).toBe('Bestätigung in zwei Schritten');
		expect(document.querySelector('h1')?.textContent).toBe('Bestätigung in zwei Schritten');
		expect(document.querySelector('label.check')?.textContent?.trim()).toBe('Diesen Browser 30 Tage lang merken');
		expect(document.querySelector('button')?.textContent?.trim()).toBe('Bestätigen');

		const wrong = await challenge(browser, wrongCode(secret), {}, GERMAN);
		expect(wrong.status).toBe(400);
		const html = await wrong.text();
		expect(html).toContain('Dieser Code hat nicht funktioniert. Prüfen Sie ihn und versuchen Sie es erneut.');
		expect(html).not.toContain('That code did not work');

		const json = await challenge(browser, 'nope', {}, { ...GERMAN, 'x-auth-return-redirect': '1' });
		expect(json.status).toBe(400);
		expect(await json.json()).toEqual({
			failed: true,
			fieldErrors: { code: ['Dieser Code hat nicht funktioniert. Prüfen Sie ihn und versuchen Sie es erneut.'] },
			formErrors: []
		});
		const english = await challenge(browser, 'nope', {}, { 'x-auth-return-redirect': '1' });
		expect(await english.json()).toMatchObject({ fieldErrors: { code: ['That code did not work. Check it and try again.'] } });
	});

	it("the management actions' refusals in German: a wrong code, already on, signed out", async () => {
		const world = await twoFactorWorld('database');
		const owner = await signedInWithPassword(world);
		await owner.postForm('two-factor-setup');
		const wrong = await owner.postForm('two-factor-enable', { code: 'nope' }, { headers: GERMAN });
		expect(wrong.status).toBe(400);
		expect(await wrong.json()).toMatchObject({ fieldErrors: { code: ['Dieser Code hat nicht funktioniert. Prüfen Sie ihn und versuchen Sie es erneut.'] } });
		await enableTotp(owner);
		const again = await owner.postForm('two-factor-setup', {}, { headers: { 'accept-language': 'fr' } });
		expect(again.status).toBe(409);
		expect(await again.json()).toMatchObject({ formErrors: ['La validation en deux étapes est déjà activée.'] });
		const stranger = await world.client().postForm('two-factor-enable', { code: '123456' }, { headers: GERMAN });
		expect(stranger.status).toBe(403);
		expect(await stranger.json()).toMatchObject({ formErrors: ['Melden Sie sich zuerst an'] });
	});
});
