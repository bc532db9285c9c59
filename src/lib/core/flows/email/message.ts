import { type LocaleMessages, translator } from '../../../i18n/index.js';
import type { Theme } from '../../types/config.js';
import { messageHtml } from './message-html.js';
import { groupedCode } from '../code/derive.js';

/** A sign-in message: its subject, plain text and HTML. */
export interface VerificationMessage {
	subject: string;
	text: string;
	html: string;
}

/** What a sign-in message says: nothing the requester typed (not even the address) goes in it. */
export interface VerificationMessageInput {
	/** The sign-in link. */
	url: string;
	/** The site's host, e.g. `app.example.com` (from the link when not given). */
	host?: string;
	/** The brand colour, button text colour, logo (an absolute URL), colour scheme and the app's `name`. */
	theme?: Theme;
	/** The one-time code, when the provider offers one. */
	code?: string;
	/** When the link stops working. */
	expires?: Date;
	/** The language of the message (a BCP 47 tag; default English): the request's that asked for it. */
	locale?: string;
	/** The app's messages (`i18n.messages`), before kitauth's. */
	messages?: LocaleMessages;
}

/** A theme colour is used only when it is plainly a colour (no CSS or markup can ride along). */
function color(value: string | undefined, fallback: string): string {
	return value && /^(#[0-9a-f]{3,8}|[a-z]{3,20}|(rgb|hsl)a?\([\d.,%\s]{1,40}\))$/i.test(value) ? value : fallback;
}

/** A logo only from an absolute http(s) URL: a mail client has no page to resolve a relative one against. */
function logoUrl(value: string | undefined): string | undefined {
	if (!value || !URL.canParse(value)) return undefined;
	return /^https?:$/.test(new URL(value).protocol) ? value : undefined;
}

/**
 * The default sign-in message, in `locale`: a responsive HTML part in the app's colours (light,
 * dark, or following the reader's setting, as `theme.colorScheme` says) and a plain-text part,
 * the link as the one call to action. It names the app (`theme.name`, else the site's host); the
 * address it goes to is left out (Auth.js does the same).
 */
export function verificationMessage(input: VerificationMessageInput): VerificationMessage {
	const { url, theme = {}, code } = input;
	const i18n = translator(input.locale, input.messages);
	const site = theme.name?.trim() || input.host || new URL(url).host;
	const minutes = input.expires ? Math.max(1, Math.round((input.expires.getTime() - Date.now()) / 60_000)) : undefined;
	const validity =
		minutes === undefined
			? ''
			: minutes >= 120
				? i18n.t('email.validHours', { count: Math.round(minutes / 60) })
				: i18n.t('email.validMinutes', { count: minutes });
	const subject = i18n.t('email.subject', { site });
	const note = `${validity ? `${validity} ` : ''}${i18n.t('email.ignore')}`;
	const codeLabel = i18n.t('email.code');
	const html = messageHtml({
		locale: i18n.locale,
		dir: i18n.dir,
		subject,
		heading: i18n.pieces('email.heading', { site }).map((piece) => (piece.param ? { text: piece.text, site: true } : { text: piece.text })),
		site,
		intro: i18n.t('email.intro'),
		url,
		button: i18n.t('email.button'),
		...(code ? { code: { label: codeLabel, value: groupedCode(code) } } : {}),
		note,
		linkHelp: i18n.t('email.linkHelp'),
		brand: color(theme.brandColor, '#346df1'),
		buttonText: color(theme.buttonText, '#ffffff'),
		logo: logoUrl(theme.logo),
		scheme: theme.colorScheme ?? 'auto'
	});
	const text = [subject, '', url, ...(code ? ['', `${codeLabel} ${groupedCode(code)}`] : []), '', note, ''].join('\n');
	return { subject, text, html };
}
