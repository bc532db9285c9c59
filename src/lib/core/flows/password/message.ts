import { escapeHtml } from '../email/message.js';

/** kitauth's password reset message: subject, plain text and HTML, the link its one call to action. */
export function passwordResetMessage({ url, expires }: { url: string; expires: Date }): { subject: string; text: string; html: string } {
	const host = new URL(url).host;
	const minutes = Math.max(1, Math.round((expires.getTime() - Date.now()) / 60_000));
	const note = `The link works once, for ${minutes} minutes. If you did not ask for it, ignore this email: your password stays as it is.`;
	const subject = `Choose a new password for ${host}`;
	const text = [subject, '', url, '', note, ''].join('\n');
	const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body><p>${escapeHtml(subject)}</p><p><a href="${escapeHtml(url)}">Choose a new password</a></p><p>${escapeHtml(note)}</p></body></html>\n`;
	return { subject, text, html };
}
