/**
 * The guides whose samples talk to a real server or a browser, run by tests/docs/guides.test.ts
 * on its build of the guides app (each starts what it needs, and stops it): Databases on
 * PostgreSQL, Rate limiting on Redis, Email and Passwords through an SMTP server (Passwords' `mailer`
 * is the skeleton's, tests/docs/fixture/guide-app/skeleton.ts), OAuth's OpenID Connect sample
 * at the real oidc-provider, and Passkeys in Chromium (the OS package) with its virtual
 * authenticator (CDP `WebAuthn.*`, as tests/e2e does).
 */
import { chromium } from '@playwright/test';
import pg from 'pg';
import { createClient as createRedisClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAuthenticator, credentials } from '../e2e/webauthn.ts';
import { followLink, hiddenFields } from '../integration/email-fixtures.ts';
import { DEFAULT_ACCOUNTS, startTestIdp } from '../support/oidc-provider.ts';
import { startPostgres, type PostgresCluster } from '../support/postgres.ts';
import { startRedis, type RedisServer } from '../support/redis.ts';
import { linkOf, startSmtp } from '../support/smtp.ts';
import { freePort } from '../sveltekit/kit-app-server.ts';
import { appBrowser, HTML } from '../sveltekit/kit-client.ts';
import type { GuideServer } from './guide-app.ts';

type Browser = ReturnType<typeof appBrowser>;

/** What guides.test.ts gives: a guide's server and a browser stand-in on it, its name for failure messages, a sign-in. */
export interface GuideRun {
	open(slug: string, env?: Record<string, string>): Promise<{ server: GuideServer; browser: Browser }>;
	named(slug: string): string;
	signIn(browser: Browser): Promise<Response>;
	user: { email: string; password: string };
}

export function servicesGuides({ open, named, signIn, user: USER }: GuideRun): void {
	describe('Databases on PostgreSQL', () => {
		let postgres: PostgresCluster;
		beforeAll(async () => {
			postgres = await startPostgres();
		}, 60_000);
		afterAll(() => postgres?.stop());

		it("the guide's node-postgres pool migrates the database DATABASE_URL names at start-up; a sign-in's user and session are rows in it", async () => {
			const { browser } = await open('databases-2', { DATABASE_URL: postgres.connectionString });
			const guide = named('databases-2');
			const db = new pg.Client({ connectionString: postgres.connectionString });
			await db.connect();
			try {
				const tables = (await db.query("select tablename from pg_tables where schemaname = 'public'")).rows.map((row) => row.tablename);
				expect(tables, guide).toEqual(expect.arrayContaining(['user', 'account', 'session', 'verificationToken']));
				await signIn(browser);
				expect(await browser.session(), guide).toMatchObject({ user: { email: USER.email } });
				const sessions = await db.query('select s."userId" from "session" s join "user" u on u.id = s."userId" where u.email = $1', [USER.email]);
				expect(sessions.rowCount, guide).toBe(1);
			} finally {
				await db.end();
			}
		});
	});

	describe('Rate limiting', () => {
		let redis: RedisServer;
		beforeAll(async () => {
			redis = await startRedis();
		});
		afterAll(() => redis?.stop());

		it("the guide's Redis store and rule answer the 21st failed password from one address with 429", async () => {
			const { browser } = await open('rate-limiting', { REDIS_URL: redis.url });
			const guide = named('rate-limiting');
			const attempt = (n: number, address: string) =>
				browser.postForm('callback/credentials', { email: `guess${n}@example.com`, password: 'wrong' }, { headers: { 'x-forwarded-for': address } });
			for (let n = 0; n < 20; n++) expect((await attempt(n, '203.0.113.7')).status, guide).not.toBe(429);
			expect((await attempt(20, '203.0.113.7')).status, guide).toBe(429);
			expect((await attempt(21, '203.0.113.8')).status, guide).not.toBe(429);
			// Counted in the guide's store, the Redis server.
			const redisClient = await createRedisClient({ url: redis.url }).connect();
			try {
				expect((await redisClient.keys('*')).length, guide).toBeGreaterThan(0);
			} finally {
				await redisClient.close();
			}
		});
	});

	it("Email: the guide's Nodemailer configuration mails a sign-in link through the SMTP server it names, and the link signs in", async () => {
		const mailbox = await startSmtp();
		try {
			const { browser } = await open('email', { AUTH_NODEMAILER_SERVER: mailbox.url, AUTH_NODEMAILER_FROM: 'Example <no-reply@example.com>' });
			const guide = named('email');
			const sent = await browser.postForm('signin/nodemailer', { email: USER.email });
			expect(sent.status, guide).toBe(302);
			expect(sent.headers.get('location'), guide).toContain('/auth/verify-request');
			const [message] = mailbox.to(USER.email);
			expect(message, guide).toBeDefined();
			const link = linkOf(message!);
			expect(link.origin, guide).toBe(browser.origin);
			// The link opens a page that asks to confirm (a mail scanner's GET signs no one in).
			const { signIn } = await followLink(browser, link);
			expect(signIn.status, guide).toBe(302);
			expect(await browser.session(), guide).toMatchObject({ user: { email: USER.email } });
		} finally {
			await mailbox.close();
		}
	});

	it("Passwords: the guide's pages sign up, ask for a reset, and set a new password from the mailed link; the new password signs in, the old one not", async () => {
		const mailbox = await startSmtp();
		try {
			const { browser } = await open('passwords', { SMTP_URL: mailbox.url });
			const guide = named('passwords');
			const email = 'grace@example.com';
			const [before, after] = ['correct horse battery staple', 'a longer passphrase, changed'];
			/**
			 * Fills in the form of one of the guide's pages as a browser without JavaScript does (its
			 * action and hidden fields, the typed ones added) and posts it: where it sends the browser.
			 */
			const submit = async (path: string, typed: Record<string, string>, client: Browser = browser) => {
				const page = await client.get(path);
				const html = await page.text();
				expect(page.status, `${guide}: ${path}: ${html}`).toBe(200);
				const action = /<form[^>]+action="\?([^"]*)"/.exec(html)?.[1]?.replaceAll('&amp;', '&');
				expect(action, `${guide}: ${path} has no form: ${html}`).toBeDefined();
				const res = await client.post(`${new URL(path, client.origin).pathname}?${action}`, { form: { ...hiddenFields(html), ...typed }, headers: HTML });
				expect(res.status, `${guide}: ${path}: ${await res.clone().text()}`).toBe(303);
				return res.headers.get('location')!.replace(client.origin, '');
			};
			/** A password sign-in through Getting started's sign-in page. */
			const signIn = (password: string) => browser.post('/signin?/signIn', { form: { providerId: 'password', email, password, redirectTo: '/account' }, headers: HTML });
			const signedIn = async (password: string) => {
				const res = await signIn(password);
				expect(res.headers.get('location')?.replace(browser.origin, ''), `${guide}: ${res.status} ${await res.text()}`).toBe('/account');
				expect(await browser.session(), guide).toMatchObject({ user: { email } });
			};
			// No sendSignUpEmail in the guide's configuration: sign-up lands on the sign-in page.
			expect(await submit('/signup', { email, password: before }), guide).toMatch(/^\/signin\b/);
			await signedIn(before);
			// Asked from another browser: the same answer for any address; the link comes by mail.
			const other = appBrowser(browser.origin, '/auth', 'another browser');
			expect(await submit('/forgot-password', { email }, other), guide).toContain('/auth/');
			await expect.poll(() => mailbox.to(email).length, { message: `${guide}: a reset message to ${email}` }).toBe(1);
			const link = new URL(/http:\/\/\S+/.exec(mailbox.to(email)[0]!.text ?? '')?.[0] ?? 'about:blank');
			// The guide's sendPasswordReset points the link at its own /reset-password page.
			expect(`${link.origin}${link.pathname}`, guide).toBe(`${browser.origin}/reset-password`);
			expect(await submit(`${link.pathname}${link.search}`, { password: after }, other), guide).toMatch(/^\/signin\b/);
			// The reset ended the user's sessions; the old password no longer signs in, the new one does.
			expect(await browser.session(), guide).toBeNull();
			expect((await signIn(before)).headers.get('location') ?? '', guide).not.toMatch(/\/account$/);
			expect(await browser.session(), guide).toBeNull();
			await signedIn(after);
		} finally {
			await mailbox.close();
		}
	});

	it("OAuth: the guide's OpenID Connect configuration takes its issuer, id and secret from the environment; a sign-in at that provider completes", async () => {
		const port = await freePort();
		const idp = await startTestIdp({ redirectUris: [`http://127.0.0.1:${port}/auth/callback/corp`] });
		try {
			const env = { PORT: String(port), AUTH_CORP_ISSUER: idp.issuer, AUTH_CORP_ID: idp.clientId, AUTH_CORP_SECRET: idp.clientSecret };
			const { browser } = await open('oauth-2', env);
			const guide = named('oauth-2');
			const start = await browser.postForm('signin/corp', {});
			expect(start.status, guide).toBe(302);
			const authorize = new URL(start.headers.get('location')!);
			expect(`${authorize.origin}${authorize.pathname}`, guide).toBe(`${idp.issuer}/auth`);
			expect(authorize.searchParams.get('client_id'), guide).toBe(idp.clientId);
			expect(authorize.searchParams.get('code_challenge_method'), guide).toBe('S256');
			const callback = await idp.completeInteraction(authorize, { login: 'alice' });
			const done = await browser.get(callback.href);
			expect(done.status, guide).toBe(302);
			expect(await browser.session(), guide).toMatchObject({ user: { email: DEFAULT_ACCOUNTS.alice!.email } });
		} finally {
			await idp.close();
		}
	});

	it("Passkeys: the guide's configuration signs up a new email with a passkey in Chromium's virtual authenticator, and signs in with it again", async () => {
		const { server } = await open('passkeys');
		const guide = named('passkeys');
		// On localhost: a relying party is a host name, never an IP address.
		const origin = server.origin.replace('127.0.0.1', 'localhost');
		const email = 'grace@example.com';
		const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
		try {
			// The protocol, as the proxy the server is told it is behind would say (PROTOCOL_HEADER).
			const page = await browser.newPage({ extraHTTPHeaders: { 'x-forwarded-proto': 'http' } });
			page.setDefaultTimeout(10_000);
			const cdp = await page.context().newCDPSession(page);
			await cdp.send('WebAuthn.enable', { enableUI: false });
			const authenticator = await addAuthenticator(cdp);
			const session = async () => (await page.request.get(`${origin}/auth/session`)).json();
			// Sign up: a new email and the passkey button register one, and sign in.
			await page.goto(`${origin}/signin?redirectTo=/account`);
			await page.locator('input[name="email"]').fill(email);
			await page.getByRole('button', { name: 'Continue with a passkey' }).click();
			await page.waitForURL((url) => url.pathname === '/account');
			expect(await session(), guide).toMatchObject({ user: { email } });
			expect(await credentials(cdp, authenticator), guide).toEqual([expect.objectContaining({ rpId: 'localhost', isResidentCredential: true })]);
			// Signed out, the sign-in page offers the passkey to the browser's autofill (the provider's
			// conditional UI), which the virtual authenticator, having no UI, answers at once.
			await page.context().clearCookies();
			expect(await session(), guide).toBeNull();
			await page.goto(`${origin}/signin?redirectTo=/account`);
			await page.waitForURL((url) => url.pathname === '/account');
			expect(await session(), guide).toMatchObject({ user: { email } });
		} finally {
			await browser.close();
		}
	});
}
