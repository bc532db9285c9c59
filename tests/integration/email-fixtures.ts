/**
 * Shared set-up for the email suites: a real SMTP server (`tests/support/smtp.ts`), a real libSQL
 * adapter on `:memory:` (migrated), the Nodemailer provider pointed at that server, and a record
 * of the events. Raw reads of the verificationToken table bypass the adapter.
 */
import type { ParsedMail } from 'mailparser';
import { expect } from 'vitest';
import type { AuthConfig, EmailUserConfig, EventCallbacks } from '../../src/lib/core/types.js';
import Nodemailer from '../../src/lib/providers/nodemailer.js';
import { codeIn, linkOf, startSmtp, type TestMailbox } from '../support/smtp.js';
import type { TestClient } from '../support/client.js';
import { openStore, type Store } from './database-fixtures.js';
import { location, setup, type Setup } from './fixtures.js';

export const PROVIDER = 'nodemailer';
export const FROM = 'kitauth tests <no-reply@example.test>';

export interface TokenRow {
	identifier: string;
	token: string;
	expires: number;
}

export interface EmailWorld {
	store: Store;
	mailbox: TestMailbox;
	events: { name: keyof EventCallbacks; message: Record<string, unknown> }[];
	tokens(): Promise<TokenRow[]>;
	close(): Promise<void>;
}

/** A fresh store and SMTP server. Call `close()` after the test. */
export async function openEmailWorld(): Promise<EmailWorld> {
	const [store, mailbox] = await Promise.all([openStore('memory'), startSmtp()]);
	return {
		store,
		mailbox,
		events: [],
		async tokens() {
			const result = await store.db.execute('SELECT * FROM "verificationToken" ORDER BY "identifier", "token"');
			return result.rows.map((row) => ({
				identifier: String(row['identifier']),
				token: String(row['token']),
				expires: Number(row['expires'])
			}));
		},
		async close() {
			store.close();
			await mailbox.close();
		}
	};
}

/** The configuration of most email tests: the store's adapter, Nodemailer to the test server. */
export function emailSetup(
	world: EmailWorld,
	provider: EmailUserConfig = {},
	overrides: Partial<AuthConfig> = {}
): Setup {
	const record = (name: keyof EventCallbacks) => (message: object) => void world.events.push({ name, message: { ...message } });
	return setup({
		adapter: world.store.adapter,
		providers: [Nodemailer({ server: world.mailbox.url, from: FROM, timeout: 3000, ...provider })],
		events: {
			createUser: record('createUser'),
			updateUser: record('updateUser'),
			linkAccount: record('linkAccount'),
			signIn: record('signIn')
		},
		...overrides
	});
}

/** Asks for a link for `email` (with the CSRF token); returns the answer. */
export function requestLink(client: TestClient, email: string, extra: Record<string, string> = {}, providerId = PROVIDER): Promise<Response> {
	return client.postForm(`signin/${providerId}`, { email, ...extra });
}

/** The last message sent to `address`, its link and code. */
export function lastMessageTo(world: EmailWorld, address: string): { message: ParsedMail; link: URL; code?: string } {
	const messages = world.mailbox.to(address);
	expect(messages.length, `no message to ${address}`).toBeGreaterThan(0);
	const message = messages.at(-1)!;
	return { message, link: linkOf(message), code: codeIn(message) };
}

/**
 * Follows a link as a person does: GET (the confirmation page), then its form's POST (with the
 * CSRF token the page holds). Returns both answers.
 */
export async function followLink(client: TestClient, link: URL): Promise<{ page: Response; html: string; signIn: Response }> {
	const page = await client.get(link.href);
	const html = await page.text();
	const form = hiddenFields(html);
	const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&');
	expect(action, 'the confirmation page has a form').toBeDefined();
	const signIn = await client.post(action!, { form });
	return { page, html, signIn };
}

/** The hidden inputs of a page's forms, decoded. */
export function hiddenFields(html: string): Record<string, string> {
	const fields: Record<string, string> = {};
	for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
		fields[name!] = decodeEntities(value!);
	}
	return fields;
}

function decodeEntities(value: string): string {
	return value.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]!);
}

/** The verify-request page a started sign-in lands on. */
export function expectVerifyRequest(res: Response, origin: string, providerId = PROVIDER): void {
	expect(res.status).toBe(302);
	expect(location(res).href).toBe(`${origin}/auth/verify-request?provider=${providerId}&type=email`);
}
