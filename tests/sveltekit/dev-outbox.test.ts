/**
 * The development outbox through the SvelteKit edge, on tests/kit-app's `/base/mailless/*`
 * instance: the Nodemailer provider with no SMTP server configured (no AUTH_NODEMAILER_SERVER).
 * - Under `vite dev` (a copy of the app, so its dev server and the suites that build the app never
 *   share a `.svelte-kit`): asking for a link prints one line with it, the outbox page under the
 *   instance's base path shows it, and the link signs in.
 * - In the production build (adapter-node): the same instance (a config function, so that the
 *   app still starts) is the configuration error it always was, logged once with its cause, and
 *   every request to it a 500; no outbox page, nothing kept, nothing printed.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { followLink, hiddenFields } from '../integration/email-fixtures.js';
import { buildFixtureOnce, KIT3_APP, type RunningApp, SECRET, startDevServer, startFixture } from './kit-app-server.js';
import { appBrowser, HTML } from './kit-client.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BASE_PATH = '/base/mailless/auth';
const SESSION_COOKIE = 'authjs.session-token';
const OUTBOX_LINE = '[kitauth][dev-outbox]';
const CONFIGURATION_MESSAGE = 'There was a problem with the server configuration. Check the server logs for more information.';

describe('vite dev: the outbox', () => {
	let dir: string;
	let data: string;
	let server: Omit<RunningApp, 'databaseUrl'>;

	beforeAll(async () => {
		// A dot-named copy inside the repository: `#lib` still resolves through its package.json.
		dir = mkdtempSync(join(ROOT, 'tests/.dev-env-outbox-'));
		cpSync(join(ROOT, 'tests/kit-app'), dir, { recursive: true, filter: (source) => !/[/\\](\.build|\.svelte-kit|node_modules)$/.test(source) });
		data = mkdtempSync(join(tmpdir(), 'kitauth-dev-outbox-'));
		server = await startDevServer(join(ROOT, 'node_modules/vite/bin/vite.js'), dir, '/base/form', {
			AUTH_SECRET: SECRET,
			KIT_APP_DATABASE_URL: `file:${join(data, 'auth.db')}`
		});
	}, 120_000);

	afterAll(async () => {
		await server?.stop();
		for (const path of [dir, data]) if (path) rmSync(path, { recursive: true, force: true });
	});

	test('a link asked for is printed on one line and kept; the outbox page under the base path shows it; the link signs in', async () => {
		const client = appBrowser(server.origin, BASE_PATH, 'dev outbox test');
		const to = 'dev-outbox@example.com';
		const asked = await client.postForm('signin/nodemailer', { email: to });
		expect(asked.status, server.output()).toBe(302);
		expect(asked.headers.get('location')).toBe(`${server.origin}${BASE_PATH}/verify-request?provider=nodemailer&type=email`);

		const line = server.output().split('\n').find((text) => text.startsWith(OUTBOX_LINE));
		const printed = new RegExp(`^\\[kitauth\\]\\[dev-outbox\\] Sign-in link for ${to} \\(not sent: no email server in development; see ${server.origin}${BASE_PATH}/dev/outbox\\): (\\S+)$`).exec(line ?? '');
		expect(printed, server.output()).not.toBeNull();
		const link = new URL(printed![1]!);
		expect(link.href.startsWith(`${server.origin}${BASE_PATH}/callback/nodemailer?`)).toBe(true);

		const page = await client.get('dev/outbox', { headers: HTML });
		expect(page.status).toBe(200);
		const html = await page.text();
		expect(html).toContain(`<strong>${to}</strong>`);
		expect(html).toContain(`<a href="${link.href.replaceAll('&', '&amp;')}">Sign in</a>`);

		const { html: confirmation, signIn } = await followLink(client, link);
		expect(hiddenFields(confirmation).token).toBe(link.searchParams.get('token'));
		expect(signIn.status).toBe(302);
		expect(client.jar.has(SESSION_COOKIE)).toBe(true);
		expect(await client.session()).toMatchObject({ user: { email: to } });
	});
});

describe('a production build: no outbox', () => {
	let app: RunningApp;

	beforeAll(async () => {
		await buildFixtureOnce(KIT3_APP);
		app = await startFixture(KIT3_APP);
	}, 180_000);

	afterAll(async () => {
		await app?.stop();
	});

	test('the email provider with no server is a configuration error: logged once with its cause, answered 500, no page, nothing kept', async () => {
		const client = appBrowser(app.origin, BASE_PATH, 'dev outbox production test');
		const outbox = await client.get('dev/outbox', { headers: { accept: 'application/json' } });
		expect(outbox.status).toBe(500);
		// The instance never starts: every request is the configuration error's 500.
		expect(await outbox.json()).toEqual({ status: 500, message: CONFIGURATION_MESSAGE });
		const page = await client.get('dev/outbox', { headers: HTML });
		expect(page.status).toBe(500);
		expect(await page.text()).not.toContain('Outbox');

		const asked = await client.post('signin/nodemailer', { form: { email: 'prod@example.com' }, headers: { accept: 'application/json' } });
		expect(asked.status).toBe(500);
		const logged = app.output().split('\n').filter((line) => line.includes('Email provider "nodemailer" has no way to send'));
		expect(logged).toHaveLength(1);
		expect(logged[0]).toContain('give it a server (or set AUTH_NODEMAILER_SERVER)');
		expect(app.output()).not.toContain(OUTBOX_LINE);
	});

	test('a working instance does not serve the outbox either', async () => {
		const res = await appBrowser(app.origin, '/base/api/auth', 'dev outbox production test').get('dev/outbox', { headers: HTML });
		expect(res.status).not.toBe(200);
		expect(await res.text()).not.toContain('Outbox');
	});
});
