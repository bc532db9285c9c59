/**
 * The built-in pages' headers: a strict Content-Security-Policy without inline scripts (the
 * passkey script allowed by its SHA-256 only, the kit's `<style>` elements by theirs), `no-store`,
 * `nosniff`, a `Referrer-Policy`, no framing. The browser side (the page works under that policy,
 * no violation) is `tests/e2e/csp.passkey-jwt.e2e.ts`.
 */
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { PASSKEY_SCRIPT } from '../../src/lib/core/pages/passkey-script.generated.js';
import Cognito from '../../src/lib/providers/cognito.js';
import GitHub from '../../src/lib/providers/github.js';
import Passkey from '../../src/lib/providers/passkey.js';
import Slack from '../../src/lib/providers/slack.js';
import { passkeySetup } from './passkey-fixtures.js';
import { setup } from './fixtures.js';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** The policy as a map: directive → sources. */
function policy(res: Response): Map<string, string[]> {
	const header = res.headers.get('content-security-policy');
	expect(header).not.toBeNull();
	return new Map(header!.split(';').map((part) => {
		const [name, ...sources] = part.trim().split(/\s+/);
		return [name!, sources];
	}));
}

const PAGES = ['signin', 'signout', 'error?error=Configuration', 'error?error=AccessDenied', 'verify-request'];

describe('every built-in page', () => {
	test.each(PAGES)('%s: no-store, nosniff, Referrer-Policy, no framing, and a strict policy', async (path) => {
		// One-colour and multi-colour brand icons (Slack's four colours, Cognito's gradient).
		const options = { clientId: 'id', clientSecret: 'secret', issuer: 'https://idp.example' };
		const s = setup({ providers: [GitHub(options), Slack(options), Cognito(options)], theme: { brandColor: '#0b6e4f', logo: 'https://cdn.example/logo.svg' } });
		const res = await s.client().get(path);
		const html = await res.text();
		expect(res.headers.get('cache-control')).toContain('no-store');
		expect(res.headers.get('x-content-type-options')).toBe('nosniff');
		expect(res.headers.get('referrer-policy')).toBe('same-origin');
		expect(res.headers.get('x-frame-options')).toBe('DENY');
		const csp = policy(res);
		expect(csp.get('default-src')).toEqual(["'none'"]);
		expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
		expect(csp.get('base-uri')).toEqual(["'none'"]);
		// No script at all on a page without passkeys, and never 'unsafe-inline' or 'unsafe-eval'.
		expect(csp.get('script-src')).toEqual(["'none'"]);
		expect(html).not.toMatch(/<script/i);
		// Every <style> element of the page, and only those, by hash.
		const styles = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)].map(([, css]) => sha256(css!));
		expect(styles.length).toBeGreaterThan(0);
		expect(new Set(csp.get('style-src-elem'))).toEqual(new Set(styles));
		expect(csp.get('style-src-attr')).toEqual(["'unsafe-inline'"]);
		// Images: this site, data: URIs, and the theme logo's origin — nothing else.
		expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'https://cdn.example']);
		expect(csp.get('connect-src')).toEqual(["'self'"]);
		for (const [, sources] of csp) for (const source of sources) expect(source).not.toMatch(/unsafe-eval|^\*$|^https:$|^http:$/);
		// No inline event handlers anywhere (they would need 'unsafe-inline' scripts).
		expect(html).not.toMatch(/\son[a-z]+\s*=/i);
	});

	test('a logo on this site (a path) adds no origin; plain-text and 429 refusals are nosniff too', async () => {
		const s = setup({ theme: { logo: '/logo.svg' } });
		expect(policy(await s.client().get('signin')).get('img-src')).toEqual(["'self'", 'data:']);
		const bad = await s.client().get('nope');
		expect(bad.status).toBe(400);
		expect(bad.headers.get('x-content-type-options')).toBe('nosniff');
	});
});

describe('the sign-in page with passkeys', () => {
	test('its one script is allowed by its SHA-256, and is exactly the inlined passkey script', async () => {
		const s = await passkeySetup('jwt', { providers: [Passkey] });
		const res = await s.client().get('signin');
		const html = await res.text();
		const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
		expect(scripts).toHaveLength(1);
		expect(scripts[0]![1]).toBe('');
		expect(scripts[0]![2]).toBe(PASSKEY_SCRIPT);
		expect(policy(res).get('script-src')).toEqual([sha256(PASSKEY_SCRIPT)]);
	});
});
