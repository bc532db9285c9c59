import type { PasswordUserConfig } from '#lib/providers/password.js';
import { accountMessage, passwordResetMessage, signUpMessage } from '#lib/providers/password.js';

/**
 * The demo's password messages (sign-up confirmation, password reset, the account's changes): over SMTP through
 * `nodemailer` when `AUTH_EMAIL_SERVER` is set (the end-to-end tests run a real SMTP server there,
 * as for email sign-in), else in development printed to the server's console; a production build
 * without an SMTP server sends none, so offers neither.
 */
type Message = { subject: string; text: string; html: string };

async function sendOverSmtp(server: string, to: string, message: Message): Promise<void> {
	const nodemailer = await import('nodemailer');
	const transport = nodemailer.createTransport(server);
	try {
		await transport.sendMail({ from: process.env.AUTH_EMAIL_FROM ?? 'kitauth demo <no-reply@localhost>', to, ...message });
	} finally {
		transport.close();
	}
}

function printed(to: string, message: Message): void {
	console.info(`[demo] Not sent (no AUTH_EMAIL_SERVER in development), to ${to}: ${message.subject}\n${message.text}`);
}

/**
 * The reset link opens the demo's own `/reset-password` page (the `ResetPassword` component) with
 * the link's `user` and `token`, rather than kitauth's built-in page.
 */
function ownResetPage(url: string): string {
	const link = new URL(url);
	const own = new URL('/reset-password', link.origin);
	own.search = link.search;
	return own.href;
}

/**
 * `sendPasswordReset`, `sendSignUpEmail` and `sendAccountEmail` (an email change's link, the
 * notices) for `Password()`, a new account signing in once its address is confirmed; none of it
 * where the demo cannot send.
 */
export function passwordMail(
	dev: boolean
): Pick<PasswordUserConfig, 'sendPasswordReset' | 'sendSignUpEmail' | 'sendAccountEmail' | 'requireVerifiedEmail'> {
	const server = process.env.AUTH_EMAIL_SERVER;
	if (!server && !dev) return {};
	const send = (to: string, message: Message) => (server ? sendOverSmtp(server, to, message) : printed(to, message));
	return {
		sendPasswordReset: ({ identifier, url, expires, locale, messages }) =>
			send(identifier, passwordResetMessage({ url: ownResetPage(url), expires, locale, messages })),
		sendSignUpEmail: ({ identifier, kind, url, code, expires, locale, messages }) => send(identifier, signUpMessage({ kind, url, code, expires, locale, messages })),
		sendAccountEmail: ({ identifier, ...request }) => send(identifier, accountMessage(request)),
		requireVerifiedEmail: true
	};
}
