/**
 * TwoFactorSetup: what the two-factor form actions answer reaches the user (the actions' news is
 * `twoFactorMessage`, so another component's `message` on the same page is not shown here); the
 * three two-factor components speak the locale they are given.
 */
import { describe, expect, test } from 'vitest';
import BackupCodes from '../../../src/lib/components/parts/BackupCodes.svelte';
import TwoFactorChallenge from '../../../src/lib/components/parts/TwoFactorChallenge.svelte';
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

describe('the two-factor components in the locale given', () => {
	test('German: the challenge with its plural, the set-up, the backup codes left', () => {
		const challenge = renderDom(TwoFactorChallenge, { rememberDays: 1, cancelUrl: '/signin', locale: 'de' });
		expect(challenge.$('[data-kitauth="two-factor-challenge"]')?.getAttribute('lang')).toBe('de');
		expect(text(challenge.$('h1'))).toBe('Bestätigung in zwei Schritten');
		expect(text(challenge.$('label.check'))).toBe('Diesen Browser 1 Tag lang merken');
		expect(text(challenge.$('button'))).toBe('Bestätigen');
		expect(text(challenge.$('.other a'))).toBe('Anders anmelden');
		expect(text(renderDom(TwoFactorChallenge, { rememberDays: 30, locale: 'de' }).$('label.check'))).toBe('Diesen Browser 30 Tage lang merken');

		const enrolling = renderDom(TwoFactorSetup, { setup, signingIn: true, locale: 'de' });
		expect(enrolling.$('svg[role="img"]')?.getAttribute('aria-label')).toBe('QR-Code für kitauth demo: Scannen Sie ihn mit Ihrer Authenticator-App');
		expect(text(enrolling.$('button'))).toBe('Bestätigen und fortfahren');
		expect(enrolling.body).toContain('Ihr Konto braucht die Bestätigung in zwei Schritten.');
		const on = renderDom(TwoFactorSetup, { enabled: true, forgetDevicesAction: '?/forget', locale: 'de' });
		expect(on.$$('button').map(text)).toEqual(['Gemerkte Browser vergessen', 'Ausschalten']);

		const left = renderDom(BackupCodes, { remaining: 1, regenerateAction: '?/regenerate', locale: 'de' });
		expect(text(left.$('h1'))).toBe('Ersatzcodes');
		expect(left.body).toContain('1 Ersatzcode übrig.');
		expect(text(left.$('button'))).toBe('Neue Ersatzcodes erstellen');
	});

	test('Arabic, right to left, with its six plural forms', () => {
		const challenge = renderDom(TwoFactorChallenge, { rememberDays: 2, locale: 'ar' });
		const card = challenge.$('[data-kitauth="two-factor-challenge"]')!;
		expect(card.getAttribute('lang')).toBe('ar');
		expect(card.getAttribute('dir')).toBe('rtl');
		expect(text(challenge.$('h1'))).toBe('التحقق بخطوتين');
		expect(text(challenge.$('label.check'))).toBe('تذكّر هذا المتصفح لمدة يومين');
		const setupCard = renderDom(TwoFactorSetup, { setup, locale: 'ar' }).$('[data-kitauth="two-factor-setup"]')!;
		expect(setupCard.getAttribute('dir')).toBe('rtl');
		expect(text(setupCard.querySelector('button'))).toBe('تفعيل');
		const codes = renderDom(BackupCodes, { codes: ['abcde-fghij'], continueUrl: '/account', locale: 'ar' });
		expect(codes.$('[data-kitauth="backup-codes"]')?.getAttribute('dir')).toBe('rtl');
		expect(text(codes.$('a'))).toBe('متابعة');
		expect(renderDom(BackupCodes, { remaining: 3, locale: 'ar' }).body).toContain('تبقّت 3 رموز احتياطية.');
	});
});
