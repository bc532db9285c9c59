import type { EmailConfig, EmailVerificationRequest, ProviderConfig } from '../../types/provider.js';
import { escapeHtml } from '../../html.js';
import { verificationMessage } from './message.js';

/** A sign-in message the development outbox kept instead of sending. */
export interface OutboxMessage {
	/** The address it was for. */
	to: string;
	subject: string;
	text: string;
	/** The sign-in link. */
	url: string;
	/** The one-time code, when the provider offers one. */
	code?: string;
	/** The provider that would have sent it. */
	providerId: string;
	/** When it was kept (ISO 8601). */
	sentAt: string;
}

/** How many messages the outbox keeps (newest first). */
const KEEP = 20;

/** Where the outbox lives: on `globalThis`, so it survives `vite dev` re-running this module. */
const STORE = Symbol.for('kitauth.devOutbox');

function messages(): OutboxMessage[] {
	const holder = globalThis as { [STORE]?: OutboxMessage[] };
	return (holder[STORE] ??= []);
}

/**
 * The sign-in messages the development outbox holds, newest first (the last 20, in this process's
 * memory). Always empty in a production build: the outbox is only ever filled in development.
 */
export function devOutbox(): readonly OutboxMessage[] {
	return messages().slice();
}

/** The outbox page under a base path: `{basePath}/dev/outbox`. */
export function outboxPath(basePath: string): string {
	return `${basePath}/dev/outbox`;
}

/**
 * Email providers with no way to send (no `server`, no `sendVerificationRequest`) keep their
 * messages in the development outbox instead: development only, which the integration decides
 * (`devOutbox` when the server is set up). Everywhere else such a provider stays the start-up
 * configuration error it is.
 */
export function withDevOutbox(providers: readonly ProviderConfig[], basePath: string): readonly ProviderConfig[] {
	return Object.freeze(
		providers.map((provider) =>
			provider.type === 'email' && provider.server === undefined && typeof provider.sendVerificationRequest !== 'function'
				? Object.freeze({ ...provider, sendVerificationRequest: outboxSender(outboxPath(basePath)) } satisfies EmailConfig)
				: provider
		)
	);
}

/** Keeps the message and prints one line with the link and where the outbox page is. */
function outboxSender(page: string): (params: EmailVerificationRequest) => void {
	return ({ identifier, url, expires, theme, code, provider, locale, messages: catalogue }) => {
		const { subject, text } = verificationMessage({ url, theme, expires, code, locale, messages: catalogue });
		const list = messages();
		list.unshift({ to: identifier, subject, text, url, code, providerId: provider.id, sentAt: new Date().toISOString() });
		list.length = Math.min(list.length, KEEP);
		console.info(`[kitauth][dev-outbox] Sign-in link for ${identifier} (not sent: no email server in development; see ${new URL(page, url).href}): ${url}`);
	};
}

/** The outbox as a page (JSON when asked for it): development only, never cached. */
export function outboxPage(request: Request): Response {
	const list = devOutbox();
	const headers = { 'cache-control': 'no-store' };
	if (request.headers.get('accept')?.includes('application/json')) return Response.json(list, { headers });
	const items = list
		.map(
			(message) => `<article>
<h2>${escapeHtml(message.subject)}</h2>
<p>To <strong>${escapeHtml(message.to)}</strong> · ${escapeHtml(message.providerId)} · ${escapeHtml(message.sentAt)}</p>
<p><a href="${escapeHtml(message.url)}">Sign in</a>${message.code ? ` · code <code>${escapeHtml(message.code)}</code>` : ''}</p>
<pre>${escapeHtml(message.text)}</pre>
</article>`
		)
		.join('\n');
	const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><meta name="robots" content="noindex"><title>Outbox · kitauth (development)</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem}article{border:1px solid #ccc;border-radius:.5rem;padding:.5rem 1rem;margin:1rem 0}pre{white-space:pre-wrap;overflow-wrap:anywhere;font-size:.85rem}</style></head>
<body><h1>Outbox</h1>
<p>Development only: email providers with no server configured keep their sign-in messages here instead of sending them. Newest first; reload to see new ones.</p>
${items || '<p>No messages yet.</p>'}
</body></html>`;
	return new Response(body, { headers: { ...headers, 'content-type': 'text/html; charset=utf-8' } });
}
