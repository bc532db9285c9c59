/**
 * How the kit draws a bundled brand icon (parts/BrandIcon.svelte, in every provider button and
 * linked-account row): a one-colour mark in the text colour, a multi-colour mark in its own
 * colours, decorative (`aria-hidden`) either way, and a multi-colour mark's ids unique on a page
 * that shows it twice.
 */
import { describe, expect, test } from 'vitest';
import { iconMarkup, providerIcon, type MulticolorIcon } from '../../../src/lib/components/icons.js';
import { listProviders, type ClientProvider, type LinkedAccount } from '../../../src/lib/core/index.js';
import Cognito from '../../../src/lib/providers/cognito.js';
import GitHub from '../../../src/lib/providers/github.js';
import LinkedIn from '../../../src/lib/providers/linkedin.js';
import Slack from '../../../src/lib/providers/slack.js';
import SignInAndAccounts from './fixtures/SignInAndAccounts.svelte';
import { renderDom } from './dom.js';

const options = { clientId: 'i', clientSecret: 's', issuer: 'https://idp.example' };
const providers: ClientProvider[] = listProviders({ providers: [Cognito(options), Slack(options), GitHub(options), LinkedIn(options)] });
const accounts: LinkedAccount[] = [
	{ provider: 'cognito', type: 'oidc', providerAccountId: 'a', unlinkable: true },
	{ provider: 'github', type: 'oauth', providerAccountId: 'b', unlinkable: true }
];
const multicolor = (id: string) => providerIcon(id) as MulticolorIcon;

/** The page: cognito and github in a sign-in button and a linked-account row, slack and linkedin in a sign-in and a link button. */
const page = () => renderDom(SignInAndAccounts, { providers, accounts });

describe('a multi-colour mark', () => {
	test('is drawn in its own colours: its markup as generated, no fill of the button’s, no class that paints it', () => {
		const { $$, head } = page();
		const slack = $$('form[data-provider="slack"] button svg');
		expect(slack).toHaveLength(1);
		expect(slack[0]!.getAttribute('class')).not.toMatch(/\bmono\b/);
		expect(slack[0]!.hasAttribute('fill')).toBe(false);
		expect([...slack[0]!.querySelectorAll('path')].map((path) => path.getAttribute('fill'))).toEqual(['#e01e5a', '#36c5f0', '#2eb67d', '#ecb22e']);
		// Only the one-colour class is painted with the text colour.
		expect(head).toMatch(/\.mono\.svelte-\w+ \{\s*fill: currentColor;/);
		expect(head.match(/fill: currentColor/g)).toHaveLength(1);
	});

	test('shown twice on a page (a sign-in button and a linked account), each copy has its own ids, and every url(#…) names one of its own', () => {
		const { $$, body } = page();
		const copies = $$('svg').filter((svg) => svg.querySelector('linearGradient'));
		expect(copies).toHaveLength(2);
		const ids = $$('[id]').map((element) => element.id);
		expect(new Set(ids).size).toBe(ids.length);
		for (const svg of copies) {
			const own = [...svg.querySelectorAll('[id]')].map((element) => element.id);
			expect(own).toHaveLength(1);
			const references = [...svg.innerHTML.matchAll(/url\(#([^)]+)\)/g)].map(([, id]) => id);
			expect(references.length).toBeGreaterThan(0);
			for (const id of references) expect(own).toContain(id);
		}
		expect(body).not.toMatch(/ id="cognito-0"/);
	});

	test('iconMarkup prefixes every id and reference, and takes only a plain prefix', () => {
		const cognito = multicolor('cognito');
		expect(cognito.body).toContain('id="cognito-0"');
		const markup = iconMarkup(cognito, 's7');
		expect(markup).toContain('id="s7-cognito-0"');
		expect(markup).toContain('fill="url(#s7-cognito-0)"');
		expect(markup.replaceAll('s7-', '')).toBe(cognito.body);
		for (const prefix of ['', '7', 'a b', '"><script>alert(1)</script>', 'x"onload="alert(1)']) {
			expect(() => iconMarkup(cognito, prefix), prefix).toThrow(TypeError);
		}
	});
});

describe('every bundled icon', () => {
	test('is decorative: aria-hidden, not focusable, the button or row names the provider', () => {
		const { $$ } = page();
		const svgs = $$('svg');
		// 4 sign-in buttons, 2 linked-account rows, 2 link buttons.
		expect(svgs).toHaveLength(8);
		for (const svg of svgs) {
			expect(svg.getAttribute('aria-hidden')).toBe('true');
			expect(svg.getAttribute('focusable')).toBe('false');
			expect(svg.querySelector('title')).toBeNull();
		}
	});

	test('a one-colour mark is still one path in the text colour (LinkedIn’s, now from @iconify-json/logos, like GitHub’s)', () => {
		const { $$ } = page();
		for (const id of ['github', 'linkedin']) {
			const [svg] = $$(`form[data-provider="${id}"] button svg`);
			expect(svg?.getAttribute('class')).toMatch(/\bicon mono\b/);
			expect([...(svg?.querySelectorAll('*') ?? [])].map((element) => element.tagName.toLowerCase())).toEqual(['path']);
			expect(svg?.querySelector('path')?.getAttribute('d')).toBe(providerIcon(id)?.path);
			expect(svg?.querySelector('path')?.hasAttribute('fill')).toBe(false);
		}
	});
});
