/**
 * The built-in pages are the component kit's presentational components rendered by the core
 * (svelte/server): the same markup and the same styles, posting plain forms to the REST endpoints.
 */
import { parseHTML } from 'linkedom';
import { describe, expect, test } from 'vitest';
import { ERROR_PAGES, SIGNIN_MESSAGES } from '../../src/lib/shared/messages.js';
import GitHub from '../../src/lib/providers/github.js';
import Google from '../../src/lib/providers/google.js';
import Cognito from '../../src/lib/providers/cognito.js';
import Slack from '../../src/lib/providers/slack.js';
import { ORIGIN, passwordProvider, setup } from './fixtures.js';

const providers = [GitHub({ clientId: 'i', clientSecret: 's' }), Google({ clientId: 'i', clientSecret: 's' }), passwordProvider()];

async function page(path: string, overrides = {}) {
	const res = await setup({ providers, ...overrides }).client().get(path);
	const html = await res.text();
	const { document } = parseHTML(html);
	return { res, html, document, $: (s: string) => document.querySelector(s), $$: (s: string) => [...document.querySelectorAll(s)] };
}

const css = (html: string) => [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join('\n');

describe('the built-in sign-in page', () => {
	test("is the kit's SignIn, with the styles of every part in the head (the divider, the buttons, the fields)", async () => {
		const { html, $, $$ } = await page('signin');
		expect($$('main [data-kitauth="signin"]')).toHaveLength(1);
		expect($('h1')?.textContent).toBe('Sign in');
		const styles = css(html);
		for (const rule of [/\.divider\.svelte-\w+::before/, /\.button\.svelte-\w+ \{/, /input\.svelte-\w+ \{/, /\.kitauth\.svelte-\w+ \{/, /\.provider\.branded\.svelte-\w+/]) {
			expect(styles).toMatch(rule);
		}
		expect($$('.divider').map((d) => d.textContent)).toEqual(['or']);
	});

	test('posts plain forms to the REST endpoints, each with the CSRF token and the callback URL', async () => {
		const { $$ } = await page('signin?callbackUrl=%2Faccount');
		const forms = $$('form');
		expect(forms.map((f) => f.getAttribute('action'))).toEqual([
			`${ORIGIN}/auth/signin/github`,
			`${ORIGIN}/auth/signin/google`,
			`${ORIGIN}/auth/callback/credentials`
		]);
		const tokens = new Set(forms.map((f) => f.querySelector('input[name="csrfToken"]')?.getAttribute('value')));
		expect(tokens.size).toBe(1);
		expect([...tokens][0]).toMatch(/^[0-9a-f]{64}$/);
		for (const form of forms) {
			expect(form.querySelector('input[name="callbackUrl"]')?.getAttribute('value')).toBe(`${ORIGIN}/account`);
			expect(form.querySelector('input[name="providerId"]')).toBeNull();
		}
		expect(forms[2]!.querySelector('input[name="password"]')?.getAttribute('type')).toBe('password');
	});

	test('the bundled icons and readable colours of the presets', async () => {
		const { $$ } = await page('signin');
		expect($$('form[data-provider="github"] svg path')).toHaveLength(1);
		expect($$('form[data-provider="google"] button')[0]!.getAttribute('style')).toContain('--_line: light-dark(#6b7280, #fff)');
	});

	test('multi-colour marks in their own colours, their gradient ids the page’s own, no style attribute or link in them', async () => {
		const options = { clientId: 'i', clientSecret: 's', issuer: 'https://idp.example' };
		const { $$ } = await page('signin', { providers: [Slack(options), Cognito(options)] });
		expect($$('form[data-provider="slack"] svg path').map((path) => path.getAttribute('fill'))).toEqual(['#e01e5a', '#36c5f0', '#2eb67d', '#ecb22e']);
		const [gradient] = $$('form[data-provider="cognito"] svg linearGradient');
		expect(gradient?.id).toMatch(/^\w+-cognito-0$/);
		expect($$(`[fill="url(#${gradient?.id})"]`)).toHaveLength(1);
		for (const svg of $$('svg')) expect(svg.outerHTML).not.toMatch(/\sstyle=|\son[a-z]+=|href/i);
	});

	test.each(Object.keys(SIGNIN_MESSAGES).filter((k) => k !== 'default'))('?error=%s shows its message', async (error) => {
		const { $ } = await page(`signin?error=${error}`);
		expect($('[role="alert"]')?.textContent?.trim()).toBe(SIGNIN_MESSAGES[error]);
	});
});

describe('the built-in error page', () => {
	test.each(['Configuration', 'AccessDenied', 'Verification'])('?error=%s: its status, heading and message', async (error) => {
		const { res, $ } = await page(`error?error=${error}`);
		const text = ERROR_PAGES[error]!;
		expect(res.status).toBe(text.status);
		expect($('[data-kitauth="error"] h1')?.textContent).toBe(text.heading);
		expect($('[data-kitauth="error"] p')?.textContent).toBe(text.message);
		const link = $('[data-kitauth="error"] a')!;
		expect(link.textContent).toBe(text.signin ? 'Sign in' : 'Go to the home page');
		expect(link.getAttribute('href')).toBe(text.signin ? `${ORIGIN}/auth/signin` : ORIGIN);
	});

	test.each(['', 'constructor', '<script>alert(1)</script>'])('?error=%s: the generic text, never the value', async (error) => {
		const { $, html } = await page(`error?error=${encodeURIComponent(error)}`);
		expect($('h1')?.textContent).toBe(ERROR_PAGES.default!.heading);
		expect(html).not.toContain('<script>alert');
	});
});

test("the built-in sign-out page: the kit's SignOut card posting to /auth/signout with the token", async () => {
	const { $ } = await page('signout');
	const form = $('[data-kitauth="signout"] form')!;
	expect(form.getAttribute('action')).toBe(`${ORIGIN}/auth/signout`);
	expect(form.querySelector('input[name="csrfToken"]')?.getAttribute('value')).toMatch(/^[0-9a-f]{64}$/);
	expect(form.querySelector('button')?.textContent?.trim()).toBe('Sign out');
	expect($('[data-kitauth="signout"] h1')?.textContent).toBe('Sign out');
});

test("the built-in verify-request page: the kit's VerifyRequest, a link back, no code form unless codes are on", async () => {
	const { $ } = await page('verify-request');
	expect($('[data-kitauth="verify-request"] h1')?.textContent).toBe('Check your email');
	expect($('[data-kitauth="verify-request"] a')?.getAttribute('href')).toBe(ORIGIN);
	expect($('[data-kitauth="verify-request"] a')?.textContent).toBe('Back to localhost:3000');
	expect($('form')).toBeNull();
});

test('the theme logo is shown in the card, the colours on the page', async () => {
	const { $ } = await page('signin', { theme: { logo: '/logo.svg', brandColor: '#123456' } });
	expect($('[data-kitauth="signin"] img')?.getAttribute('src')).toBe('/logo.svg');
	expect($('.kitauth-page')?.getAttribute('style')).toContain('--kitauth-brand: #123456');
});
