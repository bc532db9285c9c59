import type { Component } from 'svelte';
import type { LocaleMessages, Translator } from '../../i18n/index.js';
import type { AuthContext } from '../context.js';
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

/** What every page is rendered with: the look, and the language of the request. */
export interface PageSetting {
	theme: Readonly<Theme>;
	i18n: Translator;
	/** The app's messages (`i18n.messages`), which the views' translators take too. */
	messages?: LocaleMessages;
}

export const settingOf = (ctx: AuthContext): PageSetting => ({ theme: ctx.options.theme, i18n: ctx.i18n, messages: ctx.options.i18n.messages });

/** A built-in page: the component kit's `view` in the page frame, rendered to a whole document. */
export async function page<Props extends Record<string, unknown>>(
	setting: PageSetting,
	title: string,
	view: Component<Props>,
	props: Props,
	status = 200,
	script?: string
): Promise<ResponseInternal<string>> {
	const { theme, i18n, messages } = setting;
	// The frame carries the colours and the scheme; the view shows the logo, in the page's language.
	const viewProps = { ...props, theme: theme.logo ? { logo: theme.logo } : undefined, locale: i18n.locale, messages };
	const { head, body } = render(Page<Props>, { props: { theme, title, view, props: viewProps, script } });
	const html =
		`<!doctype html><html lang="${i18n.locale}" dir="${i18n.dir}"><head><meta charset="utf-8">` +
		'<meta name="viewport" content="width=device-width, initial-scale=1">' +
		`${head}</head><body>${body}</body></html>`;
	const csp = await contentSecurityPolicy({ styles: `${head}${body}`, script, logo: theme.logo });
	return { status, headers: { ...PAGE_HEADERS, 'Content-Security-Policy': csp }, body: html };
}
