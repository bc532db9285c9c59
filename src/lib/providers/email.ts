/**
 * Email sign-in (magic links) with a sender of your own: any HTTP mail API, a queue, a log.
 *
 * ```ts
 * import Email, { verificationMessage } from 'kitauth/providers/email';
 * Email({
 *   from: 'Example <no-reply@example.com>',
 *   async sendVerificationRequest({ identifier, url, provider, theme, expires, code }) {
 *     const { subject, text, html } = verificationMessage({ url, theme, expires, code });
 *     const res = await fetch('https://api.mail.example/send', {
 *       method: 'POST',
 *       headers: { authorization: `Bearer ${provider.apiKey}`, 'content-type': 'application/json' },
 *       body: JSON.stringify({ from: provider.from, to: identifier, subject, text, html })
 *     });
 *     if (!res.ok) throw new Error(`mail API answered ${res.status}`); // → EmailSignin, token deleted
 *   }
 * })
 * ```
 * Its id is `email`, so `AUTH_EMAIL_KEY` fills `apiKey`, `AUTH_EMAIL_FROM` fills `from`, and
 * `AUTH_EMAIL_SERVER` (or `server`) sends over SMTP instead (`nodemailer` needed), which is what
 * Auth.js's deprecated `Email` provider was. Needs an adapter (tokens are stored hashed in it).
 */
import type { EmailConfig, EmailUserConfig } from '../core/types/provider.js';

export type { EmailConfig, EmailServer, EmailUserConfig, EmailVerificationRequest } from '../core/types/provider.js';
export { verificationMessage, type VerificationMessage, type VerificationMessageInput } from '../core/flows/email/message.js';

export default function Email(config: EmailUserConfig = {}): EmailConfig {
	return {
		id: 'email',
		type: 'email',
		name: 'Email',
		maxAge: 24 * 60 * 60,
		options: config
	};
}
