import type { EmailServer, EmailVerificationRequest } from '../../types/provider.js';
import { verificationMessage } from './message.js';

/**
 * The default sender of a provider with a `server`: the message over SMTP through `nodemailer`
 * (an optional peer dependency, loaded on first use so the core runs without it). Every wait of
 * the transport is bounded by the send's own time limit, so a silent or slow server fails the
 * send instead of holding the request.
 */
export async function sendWithNodemailer(params: EmailVerificationRequest, timeout: number): Promise<void> {
	const { identifier, url, provider, theme, code, expires, locale, messages } = params;
	const server = provider.server;
	if (server === undefined) throw new TypeError(`Email provider "${provider.id}" has no server`);
	let nodemailer: typeof import('nodemailer');
	try {
		nodemailer = await import('nodemailer');
	} catch (error) {
		throw new Error('Sending email through a `server` needs the `nodemailer` package: npm install nodemailer', { cause: error });
	}
	const host = new URL(url).host;
	const message = verificationMessage({ url, host, theme, code, expires, locale, messages });
	const transport = nodemailer.createTransport(transportOptions(server, timeout));
	try {
		const result = await transport.sendMail({
			to: identifier,
			from: provider.from ?? `no-reply@${new URL(url).hostname}`,
			subject: message.subject,
			text: message.text,
			html: message.html
		});
		const failed = [...(result.rejected ?? []), ...(result.pending ?? [])];
		if (failed.length) throw new Error(`The SMTP server did not accept the message for ${failed.length} recipient(s)`);
	} finally {
		transport.close();
	}
}

/** The server as nodemailer options, with every timeout at most the send's own limit. */
function transportOptions(server: EmailServer, timeout: number): import('nodemailer/lib/smtp-transport').Options {
	const options: Record<string, unknown> = typeof server === 'string' ? { url: server } : { ...server };
	const bounded = (value: unknown, fallback: number) =>
		Math.min(typeof value === 'number' && value > 0 ? value : fallback, timeout);
	options.connectionTimeout = bounded(options.connectionTimeout, 10_000);
	options.greetingTimeout = bounded(options.greetingTimeout, 10_000);
	options.socketTimeout = bounded(options.socketTimeout, timeout);
	options.dnsTimeout = bounded(options.dnsTimeout, 10_000);
	return options;
}
