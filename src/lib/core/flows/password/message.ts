import { type Translator, translator } from '../../../i18n/index.js';
import { escapeHtml } from '../../html.js';
import { CHECK_COOKIE_MAX_AGE } from '../../session/cookies.js';
import { groupedCode } from '../code/derive.js';
import type { AccountEmailRequest, PasswordMailLanguage } from '../../types/password.js';

interface Message {
	subject: string;
	text: string;
	html: string;
}

/** The language of a message (default English): pass the send's `locale` and `messages`. */
type Language = Partial<PasswordMailLanguage>;

/** A short message: a subject, a link as its one call to action, a one-time code (`code`: what to do with it, and it), and a note. */
function message(i18n: Translator, subject: string, url: string, label: string, note: string, code?: { label: string; value: string }): Message {
	const text = [subject, '', url, ...(code ? ['', `${code.label} ${code.value}`] : []), '', note, ''].join('\n');
	const codeHtml = code ? `<p>${escapeHtml(code.label)} <strong>${escapeHtml(code.value)}</strong></p>` : '';
	const html = `<!doctype html><html lang="${escapeHtml(i18n.locale)}" dir="${i18n.dir}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body><p>${escapeHtml(subject)}</p><p><a href="${escapeHtml(url)}">${escapeHtml(label)}</a></p>${codeHtml}<p>${escapeHtml(note)}</p></body></html>\n`;
	return { subject, text, html };
}

/** How long a confirmation's code works (its pending cookie's lifetime, shorter than the link's day). */
const CODE_MINUTES = CHECK_COOKIE_MAX_AGE / 60;

const minutesUntil = (expires: Date) => Math.max(1, Math.round((expires.getTime() - Date.now()) / 60_000));

/** kitauth's password reset message, in `locale` (pass the request's `locale` and `messages`). */
export function passwordResetMessage({ url, expires, locale, messages }: { url: string; expires: Date } & Language): Message {
	const i18n = translator(locale, messages);
	const host = new URL(url).host;
	const note = i18n.t('password.mail.reset.note', { count: minutesUntil(expires) });
	return message(i18n, i18n.t('password.mail.reset.subject', { host }), url, i18n.t('password.mail.reset.button'), note);
}

/**
 * kitauth's sign-up messages, in `locale`: the address confirmation of a new account (its link,
 * and its one-time `code` when given), or the notice to an existing one.
 */
export function signUpMessage({ kind, url, code, expires, locale, messages }: { kind: 'verify-email' | 'already-registered'; url: string; code?: string; expires: Date } & Language): Message {
	const i18n = translator(locale, messages);
	const host = new URL(url).host;
	if (kind === 'already-registered') {
		return message(i18n, i18n.t('password.mail.registered.subject', { host }), url, i18n.t('password.mail.registered.button'), i18n.t('password.mail.registered.note'));
	}
	const note = i18n.t('password.mail.verify.note', { count: Math.max(1, Math.round(minutesUntil(expires) / 60)) });
	const typed = code ? { label: i18n.t('password.mail.verify.code', { count: CODE_MINUTES }), value: groupedCode(code) } : undefined;
	return message(i18n, i18n.t('password.mail.verify.subject', { host }), url, i18n.t('password.mail.verify.button'), note, typed);
}

/**
 * kitauth's account messages, in `locale`, by `kind` (see `AccountEmailRequest`): the link
 * confirming a new address, the notice to the old one, the notice to a new address that already
 * has an account, and the notice of a changed password.
 */
export function accountMessage({ kind, url, expires, newEmail, locale, messages }: Pick<AccountEmailRequest, 'kind' | 'url' | 'expires' | 'newEmail'> & Language): Message {
	const i18n = translator(locale, messages);
	const host = new URL(url).host;
	const signIn = i18n.t('password.mail.registered.button');
	if (kind === 'confirm-email') {
		const note = i18n.t('account.mail.confirmEmail.note', { count: Math.max(1, Math.round(minutesUntil(expires) / 60)) });
		return message(i18n, i18n.t('account.mail.confirmEmail.subject', { host }), url, i18n.t('account.mail.confirmEmail.button'), note);
	}
	if (kind === 'email-change-requested') {
		return message(i18n, i18n.t('account.mail.changeRequested.subject', { host }), url, signIn, i18n.t('account.mail.changeRequested.note', { email: newEmail ?? '' }));
	}
	if (kind === 'email-taken') return message(i18n, i18n.t('password.mail.registered.subject', { host }), url, signIn, i18n.t('account.mail.taken.note'));
	return message(i18n, i18n.t('account.mail.passwordChanged.subject', { host }), url, signIn, i18n.t('account.mail.passwordChanged.note'));
}
