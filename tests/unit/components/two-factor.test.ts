/**
 * TwoFactorSetup: what the two-factor form actions answer reaches the user (the actions' news is
 * `twoFactorMessage`, so another component's `message` on the same page is not shown here).
 */
import { describe, expect, test } from 'vitest';
import TwoFactorSetup from '../../../src/lib/components/parts/TwoFactorSetup.svelte';
import type { TwoFactorActionData } from '../../../src/lib/sveltekit/two-factor.js';
import { renderDom, text } from './dom.js';

const setup = {
	secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
	uri: 'otpauth://totp/kitauth%20demo:demo%40example.com?issuer=kitauth+demo&algorithm=SHA1&secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&period=30&digits=6',
	issuer: 'kitauth demo',
	accountName: 'demo@example.com'
};

describe('TwoFactorSetup', () => {
	test("the form actions' news is shown once it is on", () => {
		const form: TwoFactorActionData = { twoFactorMessage: 'Two-step verification is now on. Save your backup codes.' };
		const { $$ } = renderDom(TwoFactorSetup, { enabled: true, form });
		expect($$('[role="status"]').map(text)).toContain('Two-step verification is now on. Save your backup codes.');
	});

	test("another action's message on the same page (sessions, accounts) is not this component's", () => {
		const { body } = renderDom(TwoFactorSetup, { enabled: true, form: { message: 'Signed out of 2 other devices.' } as TwoFactorActionData });
		expect(body).not.toContain('Signed out of 2 other devices.');
	});

	test('setting up: the QR code as SVG, the key in groups of four, a wrong code under its field', () => {
		const form: TwoFactorActionData = { failed: true, fieldErrors: { code: ['That code did not work. Check it and try again.'] }, formErrors: [] };
		const { $, body } = renderDom(TwoFactorSetup, { setup, form });
		expect($('svg[role="img"]')?.getAttribute('aria-label')).toContain('kitauth demo');
		expect(text($('[data-testid="two-factor-key"]'))).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
		expect($('input[name="code"]')?.getAttribute('aria-invalid')).toBe('true');
		expect(body).toContain('That code did not work. Check it and try again.');
	});
});
