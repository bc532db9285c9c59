import type { EmailVerificationRequest } from '#lib/providers/email.js';
import { verificationMessage } from '#lib/providers/email.js';

/** A message the demo's development transport kept instead of sending. */
export interface OutboxMessage {
	to: string;
	subject: string;
	text: string;
	url: string;
	code?: string;
	sentAt: string;
}

/** How many messages the outbox keeps (newest first). */
const KEEP = 20;

/**
 * The development outbox: in-process memory on `globalThis`, so it survives the dev server
 * re-running this module. Development only: `auth.ts` uses it when no SMTP server is configured and
 * the app is not a production build, and the outbox page answers 404 in production builds.
 */
function messages(): OutboxMessage[] {
	const holder = globalThis as { __kitauthDemoOutbox?: OutboxMessage[] };
	return (holder.__kitauthDemoOutbox ??= []);
}

export function outbox(): readonly OutboxMessage[] {
	return messages();
}

/** The development transport: keeps the message (see /dev/outbox) and prints the link. */
export function sendToOutbox({ identifier, url, expires, theme, code }: EmailVerificationRequest): void {
	const { subject, text } = verificationMessage({ url, theme, expires, code });
	const list = messages();
	list.unshift({ to: identifier, subject, text, url, code, sentAt: new Date().toISOString() });
	list.length = Math.min(list.length, KEEP);
	console.info(`[demo] sign-in link for ${identifier} (dev outbox, /dev/outbox): ${url}`);
}
