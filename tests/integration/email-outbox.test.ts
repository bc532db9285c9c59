/**
 * The development outbox on the server API (`createAuthServer(config, { devOutbox: true })`, which
 * kitauth's SvelteKit edge sets under `vite dev` only): an email provider with no way to send keeps
 * its messages in memory, prints one line with the link, and `{basePath}/dev/outbox` shows them.
 * Without `devOutbox` the same configuration stays the start-up error it always was, and nothing
 * serves the page. The SvelteKit side (dev server and production build) is
 * tests/sveltekit/dev-outbox.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { createAuthServer, devOutbox, InvalidProvider } from '../../src/lib/core/index.js';
import type { AuthConfig } from '../../src/lib/core/types.js';
import Email from '../../src/lib/providers/email.js';
import Nodemailer from '../../src/lib/providers/nodemailer.js';
import { TestClient } from '../support/client.js';
import { openStore, type Store } from './database-fixtures.js';
import { ORIGIN, SECRET, SESSION_COOKIE, sessionCookiesSet } from './fixtures.js';
import { expectVerifyRequest, followLink, requestLink } from './email-fixtures.js';

let store: Store;
beforeAll(async () => {
	store = await openStore('memory');
});
afterAll(() => store.close());
afterEach(() => vi.restoreAllMocks());

const config = (): AuthConfig => ({ secret: SECRET, trustHost: true, adapter: store.adapter, providers: [Nodemailer] });

function devServer(overrides: Partial<AuthConfig> = {}) {
	const server = createAuthServer({ ...config(), ...overrides }, { env: {}, devOutbox: true });
	return { server, client: () => new TestClient(server.handle, { origin: ORIGIN, basePath: server.basePath }) };
}

/** What the outbox printed while `run` ran. */
async function printed(run: () => Promise<void>): Promise<string[]> {
	const lines: string[] = [];
	vi.spyOn(console, 'info').mockImplementation((line: unknown) => void lines.push(String(line)));
	await run();
	vi.restoreAllMocks();
	return lines;
}

describe('with devOutbox', () => {
	test('a provider with no server starts; its message is kept, one line names the link and the outbox page, and the link signs in', async () => {
		const { client } = devServer();
		const browser = client();
		const to = 'outbox-one@example.com';
		let res: Response | undefined;
		const lines = await printed(async () => {
			res = await requestLink(browser, to);
		});
		expectVerifyRequest(res!, ORIGIN);
		const message = devOutbox()[0]!;
		expect(message).toMatchObject({ to, providerId: 'nodemailer', subject: 'Sign in to localhost:3000' });
		const link = new URL(message.url);
		expect(link.pathname).toBe('/auth/callback/nodemailer');
		expect(message.text).toContain(message.url);
		expect(lines).toEqual([
			`[kitauth][dev-outbox] Sign-in link for ${to} (not sent: no email server in development; see ${ORIGIN}/auth/dev/outbox): ${message.url}`
		]);
		expect(sessionCookiesSet((await followLink(client(), link)).signIn)).toEqual([SESSION_COOKIE]);
	});

	test('GET {basePath}/dev/outbox: the messages as a page (escaped, never cached), or as JSON', async () => {
		const { client } = devServer({ basePath: '/custom/auth', providers: [Email({ code: true })] });
		const browser = client();
		await printed(async () => {
			expectVerifyRequest(await requestLink(browser, 'page@example.com', {}, 'email'), `${ORIGIN}/custom`, 'email');
		});
		const [message] = devOutbox();
		expect(message?.code).toMatch(/^\d{8}$/);
		const page = await browser.get('dev/outbox');
		expect(page.status).toBe(200);
		expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
		expect(page.headers.get('cache-control')).toBe('no-store');
		const html = await page.text();
		expect(html).toContain(`<a href="${message!.url.replaceAll('&', '&amp;')}">Sign in</a>`);
		expect(html).toContain(`code <code>${message!.code}</code>`);
		expect(html).toContain('<strong>page@example.com</strong>');
		const json = await browser.get('dev/outbox', { headers: { accept: 'application/json' } });
		expect(await json.json()).toEqual(devOutbox());
		// Only GET: a POST there is the core's, refused like any unknown action.
		expect((await browser.post('dev/outbox', { form: {} })).status).not.toBe(200);
	});

	test('keeps the newest 20', async () => {
		const { client } = devServer();
		await printed(async () => {
			for (let i = 0; i < 22; i++) await requestLink(client(), `many-${i}@example.com`);
		});
		const kept = devOutbox();
		expect(kept).toHaveLength(20);
		expect(kept[0]?.to).toBe('many-21@example.com');
		expect(kept.at(-1)?.to).toBe('many-2@example.com');
	});

	test('a provider that can send is left alone: its own sender gets the message, the outbox does not', async () => {
		const sent: string[] = [];
		const { client } = devServer({ providers: [Email({ sendVerificationRequest: ({ identifier }) => void sent.push(identifier) })] });
		const lines = await printed(async () => {
			expectVerifyRequest(await requestLink(client(), 'own-sender@example.com', {}, 'email'), ORIGIN, 'email');
		});
		expect(sent).toEqual(['own-sender@example.com']);
		expect(devOutbox().map((message) => message.to)).not.toContain('own-sender@example.com');
		expect(lines).toEqual([]);
	});
});

describe('without devOutbox (production, and any integration that does not ask for it)', () => {
	test('no server and no sendVerificationRequest is still a start-up configuration error', () => {
		for (const setup of [{ env: {} }, { env: {}, devOutbox: false }]) {
			expect(() => createAuthServer(config(), setup)).toThrow(InvalidProvider);
		}
	});

	test('{basePath}/dev/outbox is not served', async () => {
		const server = createAuthServer(
			{ ...config(), providers: [Email({ sendVerificationRequest: () => {} })] },
			{ env: {} }
		);
		const res = await new TestClient(server.handle, { origin: ORIGIN }).get('dev/outbox');
		expect(res.status).not.toBe(200);
		expect(await res.text()).not.toContain('Outbox');
	});
});
