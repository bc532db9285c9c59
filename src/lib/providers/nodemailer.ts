/**
 * Email sign-in (magic links) over SMTP, through the `nodemailer` package (install it beside
 * kitauth: `npm install nodemailer`).
 *
 * ```ts
 * import Nodemailer from 'kitauth/providers/nodemailer';
 * SvelteKitAuth({ adapter, providers: [Nodemailer] });
 * // reads AUTH_NODEMAILER_SERVER (e.g. smtp://user:pass@smtp.example.com:587) and AUTH_NODEMAILER_FROM
 * // or: Nodemailer({ server: process.env.EMAIL_SERVER, from: 'Example <no-reply@example.com>' })
 * ```
 * Needs an adapter (the tokens are stored hashed in it). The message is a themed HTML and text
 * email whose one call to action is the link; pass `sendVerificationRequest` to send your own.
 */
import type { EmailConfig, EmailUserConfig } from '../core/types/provider.js';

export type { EmailConfig, EmailServer, EmailUserConfig, EmailVerificationRequest } from '../core/types/provider.js';
export { verificationMessage, type VerificationMessage, type VerificationMessageInput } from '../core/flows/email/message.js';

/** Options of {@link Nodemailer}: any email provider option (`server`, `from`, `maxAge`, `code`, …). */
export type NodemailerUserConfig = EmailUserConfig;

export default function Nodemailer(config: NodemailerUserConfig = {}): EmailConfig {
	return {
		id: 'nodemailer',
		type: 'email',
		name: 'Nodemailer',
		maxAge: 24 * 60 * 60,
		options: config
	};
}
