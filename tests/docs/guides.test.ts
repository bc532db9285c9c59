/**
 * The guides' samples run (issue 32): each guide's samples, as the guide writes them, make an app
 * (tests/docs/guide-app.ts: one `vite build` hosts them all, a server per guide, what a guide
 * leaves to the reader filled in from Getting started and a small skeleton), and the test drives
 * over HTTP what the guide promises. tests/docs/samples.test.ts type-checks every sample; this runs
 * them. A sample changed so that it no longer works fails here, naming its guide and lines; one
 * that no longer builds fails the build, naming the sample.
 *
 * Run: Getting started (also built by `kitauth init`'s test, tests/package/cli.test.ts),
 * Components (both account pages), Databases (libSQL, and PostgreSQL on a real server: migrations
 * at start-up; on PostgreSQL a sign-in's user and session rows), Languages, Remote
 * functions, Rate limiting (on a real Redis), Email (Nodemailer through the real SMTP server),
 * Sessions and Two-factor (their lists of calls run in a request, the TOTP code from the secret;
 * Two-factor's events say the calls turned it on, then off), OAuth (GitHub's configuration up to
 * the redirect to GitHub, and its token calls; the OpenID Connect sample's, its issuer, id and
 * secret from the environment, through a sign-in at the real oidc-provider), Passkeys (its
 * configuration: a sign-up with a passkey and a sign-in with it in Chromium, the OS package, with
 * its virtual authenticator), Passwords (its `auth.ts` and pages: a sign-up through its /signup
 * action, a reset asked for on /forgot-password, the message through the given `mailer` to the real
 * SMTP server, its link rewritten to the guide's /reset-password page, whose action sets the new
 * password; then the new password signs in and the old one does not), REST and Errors (no
 * samples: what they promise, on the skeleton app). The guides that need a real server or a
 * browser are in tests/docs/guides-services.ts. Edge's samples make a Cloudflare Worker (a build
 * with adapter-cloudflare, D1, workerd): tests/docs/edge-guide.test.ts runs them.
 *
 * Type-checked only (tests/docs/samples.test.ts), and why:
 * - OAuth's GitHub sign-in past the redirect: GitHub cannot be reached here, so no sign-in with
 *   it completes and its access-token calls answer for a visitor without one.
 * - The Email guide's HTTP-API sender (`api.mail.example`), Credentials' password check (it reads
 *   the reader's user table through `findUserByEmail`).
 * - Passwords' other samples: the provider's options alone (`Password({ … })`, not a file), the
 *   confirmation and account flows (change password or email, delete) that its `auth.ts` does not
 *   configure; tests/integration and tests/sveltekit run those.
 * - Passkeys' browser and server calls (`kitauth/client`'s, `passkeys.rename`/`remove`): the
 *   sign-in page's components make those calls here; tests/e2e drives the rest.
 * - Configuration, Security, Architecture, CLI, Switching from Auth.js: option lists or prose, no
 *   samples; `kitauth init` is run by tests/package/cli.test.ts. The Core guide's framework-free
 *   samples run in tests/docs/core-guide.test.ts (no app: plain calls).
 */
import { createClient } from '@libsql/client';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../support/totp.ts';
import { appBrowser, HTML } from '../sveltekit/kit-client.ts';
import { buildGuideApp, guideApps, serveGuide, type Guide, type GuideServer } from './guide-app.ts';
import { servicesGuides } from './guides-services.ts';

const USER = { email: 'ada@example.com', password: 'correct horse battery staple' };

const guides: Guide[] = [
	...guideApps('getting-started'),
	...guideApps('components'),
	...guideApps('databases'),
	...guideApps('languages'),
	...guideApps('remote-functions'),
	...guideApps('rate-limiting', { 'auth.ts': "import { RedisStore } from 'kitauth/limit/redis'" }),
	...guideApps('email', { 'auth.ts': "import Nodemailer from 'kitauth/providers/nodemailer'" }),
	...guideApps('sessions', { 'calls/manage.ts': 'await sessions.list();', 'calls/accounts.ts': 'await accounts.list();', 'calls/end.ts': 'await sessions.endAll();' }),
	...guideApps('oauth', { 'auth.ts': "import GitHub from 'kitauth/providers/github'", 'calls/tokens.ts': "await getAccessToken('github')" }),
	...guideApps('two-factor', { 'auth.ts': "required: 'optional'", 'calls/api.ts': 'await twoFactor.status();' }),
	...guideApps('rest'),
	...guideApps('errors'),
	...guideApps('passkeys', { 'auth.ts': 'providers: [Passkey]' }),
	...guideApps('passwords')
];

let app: Awaited<ReturnType<typeof buildGuideApp>>;
const servers: GuideServer[] = [];

beforeAll(async () => {
	app = await buildGuideApp(guides);
}, 300_000);

afterAll(() => {
	for (const server of servers) {
		server.stop();
		rmSync(server.cwd, { recursive: true, force: true });
	}
	if (app) rmSync(app.dir, { recursive: true, force: true });
});

/** Starts the guide's server; a browser stand-in on it. */
async function open(slug: string, env: Record<string, string> = {}) {
	const server = await serveGuide(app.dir, slug, env);
	servers.push(server);
	return { server, browser: appBrowser(server.origin, '/auth', `guides-test ${slug}`) };
}

/** The guide an app is of, for failure messages: `docs/content/components.md (samples at lines 38, 49)`. */
const named = (slug: string) => {
	const guide = guides.find((g) => g.slug === slug)!;
	const lines = [...guide.files.values()].map((sample) => sample.at.slice(sample.at.lastIndexOf(':') + 1));
	return lines.length ? `${guide.file} (samples at lines ${lines.join(', ')})` : guide.file;
};

/** Signs in through the app's sign-in page's form action (the skeleton's or the guide's). */
async function signIn(browser: ReturnType<typeof appBrowser>, redirectTo = '/account') {
	const res = await browser.post('/signin?/signIn', { form: { providerId: 'credentials', ...USER, redirectTo }, headers: HTML });
	expect(res.status, await res.clone().text()).toBe(303);
	expect(res.headers.get('location')).toMatch(new RegExp(`^(${browser.origin})?${redirectTo}$`));
	return res;
}

describe('the guides, each an app of its samples', () => {
	it('Getting started: /account sends a visitor to /signin; the sign-in page signs in; /api/me reads the token', async () => {
		const { browser } = await open('getting-started');
		const guide = named('getting-started');
		const first = await browser.get('/account');
		expect(first.status, guide).toBe(303);
		expect(first.headers.get('location'), guide).toBe('/signin?redirectTo=%2Faccount');
		expect((await browser.get('/signin')).status, guide).toBe(200);
		await signIn(browser);
		expect((await browser.get('/account')).status, guide).toBe(200);
		expect(await (await browser.get('/api/me')).json(), guide).toMatchObject({ email: USER.email });
	});

	it('Components: the account page lists the sessions and linked accounts, and ends another session', async () => {
		const { server, browser } = await open('components');
		const guide = named('components');
		const other = appBrowser(server.origin, '/auth', 'another browser');
		await signIn(other);
		await signIn(browser);
		const page = await (await browser.get('/account')).text();
		expect(page, guide).toContain('Ways to sign in');
		expect(page, guide).toContain('another browser');
		expect(page, guide).toContain('?/revokeOtherSessions');
		const ended = await browser.post('/account?/revokeOtherSessions', { form: {} });
		expect(ended.status, guide).toBe(200);
		expect(await ended.text(), guide).toContain('Signed out of 1 other sessions.');
		expect(await other.session(), guide).toBeNull();
		expect(await browser.session(), guide).toMatchObject({ user: { email: USER.email } });
	});

	it("Components: the passkeys account page renders the user's (empty) passkey list", async () => {
		const { browser } = await open('components-2');
		const guide = named('components-2');
		await signIn(browser);
		const res = await browser.get('/account');
		expect(res.status, guide).toBe(200);
		expect(await res.text(), guide).toMatch(/>Passkeys<[\s\S]*No passkeys yet\./);
	});

	it('Databases: the schema is brought up to date at start-up, in the libSQL file the guide names', async () => {
		const { server, browser } = await open('databases');
		const guide = named('databases');
		expect(await browser.session(), guide).toBeNull();
		const db = createClient({ url: `file:${join(server.cwd, 'auth.db')}` });
		try {
			const tables = (await db.execute("select name from sqlite_master where type = 'table'")).rows.map((row) => row.name);
			expect(tables, guide).toEqual(expect.arrayContaining(['user', 'account', 'session', 'verificationToken']));
		} finally {
			db.close();
		}
	});

	it("Languages: the locale the guide's hook reads from the lang cookie renders the sign-in page in it", async () => {
		const { browser } = await open('languages');
		const guide = named('languages');
		const english = await (await browser.get('/signin')).text();
		const french = await (await browser.get('/signin', { headers: { cookie: 'lang=fr' } })).text();
		expect(english, guide).toMatch(/data-kitauth="signin" lang="en"[\s\S]*>Sign in</);
		expect(french, guide).toMatch(/data-kitauth="signin" lang="fr"[\s\S]*>Connexion</);
	});

	it("Remote functions: the sign-in page renders the remote form; the layout's session query answers with the signed-in user", async () => {
		const { browser } = await open('remote-functions');
		const guide = named('remote-functions');
		const page = await browser.get('/signin');
		expect(page.status, guide).toBe(200);
		const signedOut = await page.text();
		expect(signedOut, guide).toContain('action="?/remote=');
		// The layout's session() query runs on the server; the page carries its answer to the browser.
		expect(signedOut, guide).toMatch(/"\w+\/session\/":\{v:null\}/);
		await browser.postForm('callback/credentials', USER);
		expect(await (await browser.get('/signin')).text(), guide).toMatch(new RegExp(`"\\w+/session/":\\{v:\\{user:\\{[^}]*email:"${USER.email}"`));
	});

	it("Sessions: the guide's calls run in a request: sign out everywhere else, list and unlink accounts, end every session", async () => {
		const { server, browser } = await open('sessions');
		const guide = named('sessions');
		const other = appBrowser(server.origin, '/auth', 'another browser');
		await signIn(other);
		await signIn(browser);
		const run = async (calls: string, given: Record<string, unknown>) => {
			const res = await browser.post(`/run/${calls}`, { json: given });
			expect(res.status, `${guide}: ${await res.text()}`).toBe(200);
		};
		await run('manage', { limit: 10, cursor: null, id: 'no-such-session' });
		expect(await other.session(), guide).toBeNull();
		expect(await browser.session(), guide).toMatchObject({ user: { email: USER.email } });
		await run('accounts', { providerAccountId: 'no-such-account' });
		await run('end', { userId: 'user-ada' });
		expect(await browser.session(), guide).toBeNull();
	});

	it("Two-factor: the guide's configuration sets the issuer; its calls turn it on with a code from the secret, then off", async () => {
		const { browser } = await open('two-factor');
		const guide = named('two-factor');
		await signIn(browser);
		const setup = (await (await browser.get('/two-factor-setup')).json()) as { secret: string; issuer: string; uri: string };
		expect(setup.issuer, guide).toBe('Example');
		const res = await browser.post('/run/api', { json: { code: totpCode(setup.secret) } });
		expect(res.status, `${guide}: ${await res.clone().text()}`).toBe(200);
		// What the calls did: turned it on (enable), then off (disable).
		const raised = ((await res.json()) as { event: string; message: unknown }[]).filter(({ event }) => event.startsWith('twoFactor'));
		expect(raised, guide).toEqual([
			{ event: 'twoFactorEnabled', message: { userId: 'user-ada' } },
			{ event: 'twoFactorDisabled', message: { userId: 'user-ada' } }
		]);
		// The calls check what they are given: the same calls with a code not from the secret fail.
		const wrong = await open('two-factor');
		await signIn(wrong.browser);
		const refused = await wrong.browser.post('/run/api', { json: { code: '000000' } });
		expect(refused.status, guide).toBe(500);
		expect(await refused.text(), guide).toMatch(/code/i);
	});

	it("OAuth: the guide's GitHub configuration reads its id from the environment and starts the sign-in at GitHub; its token calls run", async () => {
		const { browser } = await open('oauth', { AUTH_GITHUB_ID: 'guide-client-id', AUTH_GITHUB_SECRET: 'guide-client-secret' });
		const guide = named('oauth');
		const start = await browser.postForm('signin/github', {});
		expect(start.status, guide).toBe(302);
		const authorize = new URL(start.headers.get('location')!);
		expect(`${authorize.origin}${authorize.pathname}`, guide).toBe('https://github.com/login/oauth/authorize');
		expect(authorize.searchParams.get('client_id'), guide).toBe('guide-client-id');
		expect(authorize.searchParams.get('redirect_uri'), guide).toBe(`${browser.origin}/auth/callback/github`);
		const res = await browser.post('/run/tokens', { json: {} });
		expect(res.status, `${guide}: ${await res.text()}`).toBe(200);
	});

	it('REST: /auth/csrf, /auth/providers and /auth/session answer as Auth.js does', async () => {
		const { browser } = await open('rest');
		const csrf = (await (await browser.get('/auth/csrf')).json()) as { csrfToken: string };
		expect(csrf.csrfToken).toMatch(/^[0-9a-f]{64}$/);
		expect(await (await browser.get('/auth/providers')).json()).toMatchObject({ credentials: { id: 'credentials', type: 'credentials' } });
		expect(await browser.session()).toBeNull();
		const redirect = await browser.postForm('callback/credentials', USER, { headers: { 'x-auth-return-redirect': '1' } });
		expect(redirect.status).toBe(200);
		expect(await redirect.json()).toHaveProperty('url');
		expect(await browser.session()).toMatchObject({ user: { email: USER.email } });
	});

	it('Errors: the error page never echoes an error name it does not know, an oversized body is a 413, a bad cookie no session', async () => {
		const { browser } = await open('errors');
		const page = await browser.get('/auth/error', { query: { error: 'SomethingSecret' } });
		expect(page.status).toBeLessThan(500);
		const text = await page.text();
		expect(text).toContain('Something went wrong while signing in.');
		expect(text).not.toContain('SomethingSecret');
		const big = await browser.post('/auth/callback/credentials', { form: { email: 'a', password: 'x'.repeat(70 * 1024) } });
		expect(big.status).toBe(413);
		const forged = await browser.get('/auth/session', { headers: { cookie: 'authjs.session-token=forged' } });
		expect(forged.status).toBe(200);
		expect(await forged.json()).toBeNull();
	});

	// The guides whose samples talk to a real server or browser: PostgreSQL, Redis, SMTP, an
	// OpenID Provider, Chromium.
	servicesGuides({ open, named, signIn, user: USER });
});
