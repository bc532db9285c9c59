import { escapeHtml } from '../../../shared/html.js';
import type { Theme } from '../../types/config.js';

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
	theme?: Theme;
	/** The one-time code, when the provider offers one. */
	code?: string;
	/** When the link stops working. */
	expires?: Date;
}

export { escapeHtml };

/** A theme colour is used only when it is plainly a colour (no CSS or markup can ride along). */
function color(value: string | undefined, fallback: string): string {
	return value && /^(#[0-9a-f]{3,8}|[a-z]{3,20}|(rgb|hsl)a?\([\d.,%\s]{1,40}\))$/i.test(value) ? value : fallback;
}

/** `12345678` → `1234 5678`, easier to read and type. */
function grouped(code: string): string {
	return code.length === 8 ? `${code.slice(0, 4)} ${code.slice(4)}` : code;
}

/**
 * The default sign-in message: a themed HTML part and a plain-text part, the link as the one call
 * to action. The host gets invisible breaks before its dots so mail clients do not turn it into
 * a second link; the address it goes to is left out (Auth.js does the same).
 */
export function verificationMessage(input: VerificationMessageInput): VerificationMessage {
	const { url, theme = {}, code } = input;
	const host = input.host ?? new URL(url).host;
	const brand = color(theme.brandColor, '#346df1');
	const buttonText = color(theme.buttonText, '#ffffff');
	const minutes = input.expires ? Math.max(1, Math.round((input.expires.getTime() - Date.now()) / 60_000)) : undefined;
	const validity = minutes === undefined ? '' : minutes >= 120 ? `It works for ${Math.round(minutes / 60)} hours, once.` : `It works for ${minutes} minutes, once.`;
	const safeHost = escapeHtml(host).replace(/\./g, '&#8203;.');
	const codeHtml = code
		? `<tr><td align="center" style="padding:0 0 16px;font:16px Helvetica,Arial,sans-serif;color:#444;">Or enter this code on the sign-in page:<br><strong style="font-size:24px;letter-spacing:2px;">${escapeHtml(grouped(code))}</strong></td></tr>`
		: '';
	const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Sign in to ${escapeHtml(host)}</title></head>
<body style="margin:0;padding:24px 8px;background:#f6f7f9;">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" style="max-width:560px;margin:auto;background:#ffffff;border-radius:10px;">
<tr><td align="center" style="padding:28px 16px 12px;font:22px Helvetica,Arial,sans-serif;color:#222;">Sign in to <strong>${safeHost}</strong></td></tr>
<tr><td align="center" style="padding:12px 16px 20px;"><a href="${escapeHtml(url)}" target="_blank" rel="noopener" style="display:inline-block;padding:12px 24px;border-radius:6px;background:${brand};color:${buttonText};font:bold 18px Helvetica,Arial,sans-serif;text-decoration:none;">Sign in</a></td></tr>
${codeHtml}<tr><td align="center" style="padding:0 16px 28px;font:14px/20px Helvetica,Arial,sans-serif;color:#666;">${escapeHtml(validity)} If you did not ask to sign in, you can ignore this email.</td></tr>
</table>
</body></html>
`;
	const text = [
		`Sign in to ${host}`,
		'',
		url,
		...(code ? ['', `Or enter this code on the sign-in page: ${grouped(code)}`] : []),
		'',
		`${validity ? `${validity} ` : ''}If you did not ask to sign in, you can ignore this email.`,
		''
	].join('\n');
	return { subject: `Sign in to ${host}`, text, html };
}
