import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';

/** WCAG 2.1 A/AA plus axe's best practices (landmarks, one main, a level-one heading, …). */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/** Runs axe-core on the page as it is now and expects no violations (listed by rule and element). */
export async function expectNoAxeViolations(page: Page, label = page.url()): Promise<void> {
	// axe's analysis is CPU-bound (seconds per page on a busy 2-core machine): a test that runs it
	// gets three times the default timeout, so load on the machine cannot fail it.
	test.slow();
	const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
	const found = violations.map((violation) => ({
		rule: violation.id,
		help: violation.help,
		elements: violation.nodes.map((node) => node.target.join(' '))
	}));
	expect(found, `axe on ${label}`).toEqual([]);
}

/**
 * Sets the colour scheme of a built-in page as `theme.colorScheme` would (the wrapper's
 * `data-scheme`). The demo's theme is light; this lets a test check the dark palette too.
 */
export async function setPageScheme(page: Page, scheme: 'light' | 'dark' | 'auto'): Promise<void> {
	await page.locator('.kitauth-page').evaluate((element, value) => {
		(element as HTMLElement).dataset.scheme = value;
	}, scheme);
}

/** A built-in page passes axe in the light and in the dark palette (contrast differs between them). */
export async function expectBuiltInPageAccessible(page: Page): Promise<void> {
	await expectNoAxeViolations(page, `${page.url()} (light)`);
	await setPageScheme(page, 'dark');
	await expectNoAxeViolations(page, `${page.url()} (dark)`);
}
