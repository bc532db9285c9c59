import { escapeHtml } from '../../html.js';

interface Message {
	subject: string;
	text: string;
	html: string;
}

/** A short message: a subject, a link as its one call to action, and a note. */
function message(subject: string, url: string, label: string, note: string): Message {
	const text = [subject, '', url, '', note, ''].join('\n');
	const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body><p>${escapeHtml(subject)}</p><p><a href="${escapeHtml(url)}">${escapeHtml(label)}</a></p><p>${escapeHtml(note)}</p></body></html>\n`;
	return { subject, text, html };
}

const minutesUntil = (expires: Date) => Math.max(1, Math.round((expires.getTime() - Date.now()) / 60_000));

/** kitauth's password reset message. */
export function passwordResetMessage({ url, expires }: { url: string; expires: Date }): Message {
	const note = `The link works once, for ${minutesUntil(expires)} minutes. If you did not ask for it, ignore this email: your password stays as it is.`;
	return message(`Choose a new password for ${new URL(url).host}`, url, 'Choose a new password', note);
}

/** kitauth's sign-up messages: the address confirmation of a new account, or the notice to an existing one. */
export function signUpMessage({ kind, url, expires }: { kind: 'verify-email' | 'already-registered'; url: string; expires: Date }): Message {
	const host = new URL(url).host;
	if (kind === 'already-registered') {
		const note = 'Someone tried to sign up with this address, which already has an account: nothing changed. If it was you, sign in, or reset your password if you forgot it.';
		return message(`Your account on ${host}`, url, 'Sign in', note);
	}
	const hours = Math.max(1, Math.round(minutesUntil(expires) / 60));
	const note = `The link works once, for ${hours} hours. If you did not sign up, ignore this email.`;
	return message(`Confirm your email address for ${host}`, url, 'Confirm your email address', note);
}
