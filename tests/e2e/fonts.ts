import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';

/**
 * The visual baselines never depend on the machine's fonts: the demo ships Inter
 * (`@fontsource/inter`, pinned), and the built-in pages — which name no web font of their own —
 * get the same files here, inlined, as the kit's font (`--kitauth-font`).
 */
const files = new URL('../../node_modules/@fontsource/inter/files/', import.meta.url);
const face = (weight: number) => {
	const data = readFileSync(fileURLToPath(new URL(`inter-latin-${weight}-normal.woff2`, files))).toString('base64');
	return `@font-face{font-family:'Inter';font-style:normal;font-weight:${weight};src:url(data:font/woff2;base64,${data}) format('woff2');}`;
};
const PINNED = `${[400, 600, 700].map(face).join('')}:root{--kitauth-font:'Inter',sans-serif}`;

/** Gives a built-in page the pinned font. */
export async function pinBuiltInPageFont(page: Page): Promise<void> {
	await page.addStyleTag({ content: PINNED });
	await fontsReady(page);
}

/** Waits until the page's web fonts are loaded (a screenshot before would show a fallback). */
export async function fontsReady(page: Page): Promise<void> {
	await page.evaluate(async () => {
		await document.fonts.ready;
		await Promise.all([...document.fonts].map((font) => font.load().catch(() => undefined)));
	});
}
