/**
 * The built-in sign-in page offers passkeys when a WebAuthn provider is configured, with its script
 * inlined (bundled from kitauth's own client and @simplewebauthn/browser; nothing from a CDN), and
 * the inlined script is the one its sources build today.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { passkeyScriptPath, renderPasskeyScript } from '../../scripts/build-passkey-script.ts';
import { passkeySetup } from './passkey-fixtures.js';
import { setup } from './fixtures.js';

describe('the built-in sign-in page with a passkey provider', () => {
	test('renders a passkey form with an autofill-ready email field and the inline script, no external code', async () => {
		const s = await passkeySetup('database');
		const res = await s.client().get('signin');
		expect(res.status).toBe(200);
		const html = await res.text();
		expect(html).toContain('data-kitauth-passkey="passkey"');
		expect(html).toContain('data-base="/auth"');
		expect(html).toContain('data-autofill="true"');
		expect(html).toMatch(/<input[^>]*name="email"[^>]*autocomplete="username webauthn"/);
		// Disabled until the script takes the form over (passkeys need JavaScript).
		expect(html).toMatch(/<form[^>]*data-kitauth-passkey="passkey"[\s\S]*?<button type="submit"[^>]*disabled[^>]*>[\s\S]*?Continue with a passkey[\s\S]*?<\/button>/);
		const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
		expect(scripts).toHaveLength(1);
		expect(scripts[0]![1]).not.toMatch(/src=/);
		expect(scripts[0]![2]).toContain('webauthn-options');
		expect(html).not.toMatch(/unpkg|jsdelivr|cdn\./i);

		const providers = (await (await s.client().get('providers')).json()) as Record<string, { type: string }>;
		expect(providers.passkey?.type).toBe('webauthn');
	});

	test('without a WebAuthn provider the page carries no script', async () => {
		const html = await (await setup().client().get('signin')).text();
		expect(html).not.toContain('<script');
		expect(html).not.toContain('data-kitauth-passkey');
	});

	test('the inlined script is current (rebuilt from its sources, byte for byte)', async () => {
		expect(readFileSync(passkeyScriptPath, 'utf8')).toBe(await renderPasskeyScript());
	});
});
