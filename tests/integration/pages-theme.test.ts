import { describe, expect, test } from 'vitest';
import type { Theme } from '../../src/lib/core/types.js';
import { setup } from './fixtures.js';

/**
 * The built-in pages (rendered by the core with svelte/server) honour `theme`: the colour scheme,
 * the brand colour and button text colour (as CSS custom properties the page's styles use) and the
 * logo. Chromium checks the computed result in tests/e2e/accessibility.e2e.ts.
 */

const PAGES = {
	'sign-in': 'signin',
	'sign-out': 'signout',
	error: 'error?error=AccessDenied',
	'verify-request': 'verify-request'
} as const;

const THEME: Theme = {
	colorScheme: 'dark',
	brandColor: '#0b6e4f',
	buttonText: '#fefefe',
	logo: 'https://cdn.example/logo.svg'
};

async function html(path: string, theme?: Theme): Promise<string> {
	const res = await setup(theme ? { theme } : {}).client().get(path);
	expect(res.headers.get('content-type')).toContain('text/html');
	return res.text();
}

/** The opening tag of the page's themed wrapper. */
function wrapper(page: string): string {
	const tag = /<div class="kitauth-page[^"]*"[^>]*>/.exec(page)?.[0];
	expect(tag, 'the page wrapper').toBeDefined();
	return tag!;
}

describe.each(Object.entries(PAGES))('the built-in %s page', (_name, path) => {
	test('without a theme: the system colour scheme, the default colours, no logo', async () => {
		const page = await html(path);
		expect(wrapper(page)).toContain('data-scheme="auto"');
		expect(wrapper(page)).not.toContain('style=');
		expect(page).not.toMatch(/<img class="logo/);
	});

	test('with a theme: its colour scheme, brand colour, button text colour and logo', async () => {
		const page = await html(path, THEME);
		const tag = wrapper(page);
		expect(tag).toContain('data-scheme="dark"');
		expect(tag).toMatch(/style="[^"]*--kitauth-brand: #0b6e4f/);
		expect(tag).toMatch(/style="[^"]*--kitauth-button-text: #fefefe/);
		expect(page).toMatch(/<img class="logo[^"]*" src="https:\/\/cdn\.example\/logo\.svg" alt=""/);
	});

	test.each(['light', 'auto'] as const)('colorScheme %s is carried to the page', async (colorScheme) => {
		expect(wrapper(await html(path, { colorScheme }))).toContain(`data-scheme="${colorScheme}"`);
	});
});

test('the pages\' styles turn those values into the colour scheme and the button colours', async () => {
	const page = await html('signout', THEME);
	const css = [...page.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join('\n');
	expect(css).toMatch(/\[data-scheme='dark'\][^{]*\{\s*color-scheme: dark;/);
	expect(css).toMatch(/\[data-scheme='light'\][^{]*\{\s*color-scheme: light;/);
	expect(css).toContain('--_brand: var(--kitauth-brand,');
	expect(css).toContain('--_button-text: var(--kitauth-button-text,');
	const button = /\.button\.svelte-\w+ \{([^}]*)\}/.exec(css)?.[1] ?? '';
	expect(button).toContain('background: var(--_brand)');
	expect(button).toContain('color: var(--_button-text)');
});
