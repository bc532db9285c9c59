import { EmailSignInError } from '../../errors.js';
import type { EmailVerificationRequest } from '../../types/provider.js';
import { sendWithNodemailer } from './smtp.js';

/** Milliseconds a send may take by default before the sign-in fails. */
export const DEFAULT_SEND_TIMEOUT = 15_000;

/**
 * Sends the message through the provider's `sendVerificationRequest` (or SMTP for a `server`),
 * within the provider's time limit. Any failure (a throw, a refusal, the time running out) is an
 * `EmailSignInError` whose logged cause never holds the token, the code or the link.
 */
export async function sendVerification(params: EmailVerificationRequest): Promise<void> {
	const { provider } = params;
	const timeout = provider.timeout ?? DEFAULT_SEND_TIMEOUT;
	const sending = Promise.resolve().then(() =>
		provider.sendVerificationRequest ? provider.sendVerificationRequest(params) : sendWithNodemailer(params, timeout)
	);
	let timer: ReturnType<typeof setTimeout> | undefined;
	const expired = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error(`Sending took longer than ${timeout} ms`)), timeout);
	});
	// A send still running when the time is up must not become an unhandled rejection later.
	sending.catch(() => {});
	try {
		await Promise.race([sending, expired]);
	} catch (error) {
		const secrets = [params.url, params.token, params.code].filter((value): value is string => !!value);
		throw new EmailSignInError(`Sending the sign-in email through "${provider.id}" failed`, { cause: scrubbed(error, secrets) });
	} finally {
		clearTimeout(timer);
	}
}

/**
 * A copy of an error (and its causes) with every secret cut out of the messages and stacks: a
 * sender's error may quote the message it failed to send.
 */
function scrubbed(error: unknown, secrets: string[], depth = 0): Error {
	const source = error instanceof Error ? error : new Error(String(error));
	const clean = (text: string) => secrets.reduce((out, secret) => out.split(secret).join('[redacted]'), text);
	const copy = new Error(clean(source.message));
	copy.name = source.name;
	copy.stack = source.stack === undefined ? undefined : clean(source.stack);
	const code = (source as { code?: unknown }).code;
	if (typeof code === 'string') Object.assign(copy, { code });
	if (source.cause !== undefined && depth < 4) copy.cause = scrubbed(source.cause, secrets, depth + 1);
	return copy;
}
