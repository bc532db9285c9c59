/**
 * The HTML part of the sign-in email: one centred card (tables and inline styles, which every
 * mail client renders), its width capped and its padding narrowed on a phone, its colours from a
 * light and a dark palette. With `colorScheme: 'auto'` the dark one comes from
 * `prefers-color-scheme` (Apple Mail, iOS, Outlook.com, …), and `color-scheme` tells clients that
 * recolour on their own that the message already has a dark form. Centred text reads the same
 * either way round, so a right-to-left language needs only `dir` (and `ltr` on the code and the
 * link, which are read left to right in any language).
 */
import type { Direction } from '../../../i18n/index.js';
import { escapeHtml } from '../../html.js';

/** The colours of one scheme. */
interface Palette {
	page: string;
	card: string;
	text: string;
	muted: string;
	rule: string;
	codeBackground: string;
}

const LIGHT: Palette = { page: '#f4f5f7', card: '#ffffff', text: '#1a1d23', muted: '#5b6270', rule: '#e3e6ea', codeBackground: '#f1f3f5' };
const DARK: Palette = { page: '#0f1115', card: '#1b1e25', text: '#eceef1', muted: '#a6adb9', rule: '#2e333d', codeBackground: '#262a33' };

const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

/** The texts and values of the message, already in its language (plain text: escaped here). */
export interface MessageParts {
	locale: string;
	dir: Direction;
	subject: string;
	/** The heading, split at the site's name (bold, and not a link). */
	heading: { text: string; site?: boolean }[];
	site: string;
	intro: string;
	url: string;
	button: string;
	code?: { label: string; value: string };
	/** How long and how often the link works, then what to do when it was not asked for. */
	note: string;
	linkHelp: string;
	/** Colours (already checked to be colours), an absolute logo URL, and which schemes to offer. */
	brand: string;
	buttonText: string;
	logo?: string;
	scheme: 'auto' | 'light' | 'dark';
}

/** `style` for each class, per palette, as inline styles and as `!important` dark overrides. */
function rules(p: Palette): Record<string, string> {
	return {
		page: `background:${p.page};`,
		card: `background:${p.card};`,
		text: `color:${p.text};`,
		muted: `color:${p.muted};`,
		code: `background:${p.codeBackground};color:${p.text};`,
		sep: `border-top:1px solid ${p.rule};`
	};
}

const darkCss = () =>
	Object.entries(rules(DARK))
		.map(([name, css]) => `.${name}{${css.replace(/;/g, ' !important;')}}`)
		.join('');

export function messageHtml(m: MessageParts): string {
	const style = rules(m.scheme === 'dark' ? DARK : LIGHT);
	const schemes = m.scheme === 'auto' ? 'light dark' : m.scheme;
	// A site name is never a link: invisible breaks before its dots keep clients from making one.
	const site = `<strong>${escapeHtml(m.site).replace(/\./g, '&#8203;.')}</strong>`;
	const heading = m.heading.map((piece) => (piece.site ? site : escapeHtml(piece.text))).join('');
	const logo = m.logo ? `<tr><td align="center" style="padding:32px 32px 0;"><img src="${escapeHtml(m.logo)}" alt="" height="40" style="height:40px;width:auto;border:0;"></td></tr>\n` : '';
	const code = m.code
		? `<tr><td class="pad text" align="center" style="padding:0 40px 24px;font:15px/22px ${FONT};${style.text}">${escapeHtml(m.code.label)}<br><span class="code" dir="ltr" style="display:inline-block;margin-top:8px;padding:8px 16px;border-radius:8px;font:600 26px/34px ui-monospace,Menlo,Consolas,monospace;letter-spacing:3px;${style.code}">${escapeHtml(m.code.value)}</span></td></tr>\n`
		: '';
	return `<!doctype html>
<html lang="${escapeHtml(m.locale)}" dir="${m.dir}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="${schemes}"><meta name="supported-color-schemes" content="${schemes}">
<title>${escapeHtml(m.subject)}</title>
<style>
body{margin:0;padding:0;-webkit-text-size-adjust:100%;}
@media (max-width:520px){.outer{padding:0 !important;}.card{border-radius:0 !important;}.pad{padding-left:20px !important;padding-right:20px !important;}}
${m.scheme === 'auto' ? `@media (prefers-color-scheme:dark){${darkCss()}}\n` : ''}</style></head>
<body class="page" style="margin:0;padding:0;${style.page}">
<div style="display:none;max-height:0;overflow:hidden;opacity:0;">${escapeHtml(m.intro)}</div>
<table role="presentation" class="page" width="100%" cellspacing="0" cellpadding="0" lang="${escapeHtml(m.locale)}" dir="${m.dir}" style="${style.page}"><tr><td class="outer" align="center" style="padding:32px 12px;">
<table role="presentation" class="card" width="100%" cellspacing="0" cellpadding="0" style="max-width:480px;border-radius:12px;border-top:4px solid ${m.brand};${style.card}">
${logo}<tr><td class="pad text" align="center" style="padding:32px 40px 8px;font:600 22px/30px ${FONT};${style.text}">${heading}</td></tr>
<tr><td class="pad muted" align="center" style="padding:0 40px 24px;font:15px/22px ${FONT};${style.muted}">${escapeHtml(m.intro)}</td></tr>
<tr><td class="pad" align="center" style="padding:0 40px 28px;"><a href="${escapeHtml(m.url)}" target="_blank" rel="noopener" style="display:inline-block;padding:14px 32px;border-radius:8px;background:${m.brand};color:${m.buttonText};font:600 17px/22px ${FONT};text-decoration:none;">${escapeHtml(m.button)}</a></td></tr>
${code}<tr><td class="pad muted" align="center" style="padding:0 40px 24px;font:14px/21px ${FONT};${style.muted}">${escapeHtml(m.note)}</td></tr>
<tr><td class="pad muted sep" align="center" style="padding:16px 40px 32px;font:12px/18px ${FONT};${style.muted}${style.sep}">${escapeHtml(m.linkHelp)}<br><span dir="ltr" style="word-break:break-all;">${escapeHtml(m.url)}</span></td></tr>
</table>
</td></tr></table>
</body></html>
`;
}
