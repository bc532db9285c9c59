import type { Component } from 'svelte';
import type { Theme } from '../types/config.js';
import type { ResponseInternal } from '../types/internal.js';
import { Page, render } from './components.js';
import { contentSecurityPolicy } from './csp.js';

/**
 * Pages carry a CSRF token: never framed (clickjacking), cached or sniffed, referrers kept on this
 * site; and a strict Content-Security-Policy (see `contentSecurityPolicy`).
 */
const PAGE_HEADERS = {
	'Content-Type': 'text/html; charset=utf-8',
	'Cache-Control': 'private, no-store',
	'X-Content-Type-Options': 'nosniff',
	'X-Frame-Options': 'DENY',
	'Referrer-Policy': 'same-origin',
	'Cross-Origin-Opener-Policy': 'same-origin'
};

/** A built-in page: the component kit's `view` in the page frame, rendered to a whole document. */
export async function page<Props extends Record<string, unknown>>(
	theme: Readonly<Theme>,
	title: string,
	view: Component<Props>,
	props: Props,
	status = 200,
	script?: string
): Promise<ResponseInternal<string>> {
	// The frame carries the colours and the scheme; the view shows the logo.
	const viewProps = { ...props, theme: theme.logo ? { logo: theme.logo } : undefined };
	const { head, body } = render(Page<Props>, { props: { theme, title, view, props: viewProps, script } });
	const html =
		'<!doctype html><html lang="en"><head><meta charset="utf-8">' +
		'<meta name="viewport" content="width=device-width, initial-scale=1">' +
		`${head}</head><body>${body}</body></html>`;
	const csp = await contentSecurityPolicy({ styles: `${head}${body}`, script, logo: theme.logo });
	return { status, headers: { ...PAGE_HEADERS, 'Content-Security-Policy': csp }, body: html };
}
