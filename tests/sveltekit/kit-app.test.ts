/**
 * kitauth's SvelteKit integration in a real SvelteKit 3 app (tests/kit-app), built with
 * `vite build` and served by adapter-node, driven over HTTP with `fetch` and a cookie jar.
 *
 * The fixture runs under `paths.base` `/base` with a user `basePath` of `/api/auth` (endpoints at
 * `/base/api/auth/*`), a lazy config on database sessions (libSQL, a temporary file), and two
 * misconfigured instances: `/base/broken/*` (a config function whose OIDC provider has neither
 * issuer nor endpoints) and `/base/untrusted/*` (the same store, `trustHost: false`).
 * (`/base/mailless/*`, an email provider without a server, is tests/sveltekit/dev-outbox.test.ts's.)
 */
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { Client } from '@libsql/client';
import { parse } from 'devalue';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_RULES } from '../../src/lib/core/limit/defaults.js';
import type { AddressRule } from '../../src/lib/core/types/limit.js';
import { isDeletion, setCookies, TestClient } from '../support/client.js';
import type { RogueIdp } from '../support/rogue-idp.js';
import { KIT3_APP, type RunningApp, startFixture } from './kit-app-server.js';
import { type KitAppWithIdp, startKitAppWithIdp } from './kit-app-idp.js';
import { ACTION_HEADERS, type ActionResult, appBrowser, HTML, pageState, postEnhanced } from './kit-client.js';

const SESSION_COOKIE = 'authjs.session-token';
const DEVICE_COOKIE = 'authjs.device';
const ADDRESS_LIMIT = (DEFAULT_RULES.credentials.address as AddressRule).limit;
const ALICE = { email: 'alice@example.com', password: 'correct horse battery staple' };
const DAY = 24 * 60 * 60 * 1000;
const CONFIGURATION_MESSAGE =
	'There was a problem with the server configuration. Check the server logs for more information.';

let fixture: KitAppWithIdp;
let app: RunningApp;
let db: Client;
/** The fixture's OpenID provider `rogue` (a real test IdP on 127.0.0.1). */
let rogue: RogueIdp;

beforeAll(async () => {
	fixture = await startKitAppWithIdp();
	({ app, rogue, db } = fixture);
}, 120_000);

afterAll(async () => {
	await fixture?.stop();
});

function browser(userAgent = 'kit-app test'): TestClient {
	return appBrowser(app.origin, '/base/api/auth', userAgent);
}

function enhancedAction(client: TestClient, name: string, form: Record<string, string>) {
	return postEnhanced(client, '/base/form', name, form);
}

function sessionSetCookie(res: Response) {
	return setCookies(res).find((cookie) => cookie.name === SESSION_COOKIE);
}

function sha256(value: string): string {
	return createHash('sha256').update(value).digest('hex');
}

async function storedSession(token: string): Promise<{ expires: number } | undefined> {
	const { rows } = await db.execute({ sql: 'SELECT expires FROM session WHERE sessionToken = ?', args: [sha256(token)] });
	const row = rows[0];
	return row ? { expires: Number(row.expires) } : undefined;
}

const SIGN_IN_FORM = { providerId: 'credentials', ...ALICE, redirectTo: '/base/app/protected' };

/** Signs `client` in through the form action; returns the session token. */
async function signIn(client: TestClient): Promise<string> {
	const { res, body } = await enhancedAction(client, 'signIn', SIGN_IN_FORM);
	expect(res.status, JSON.stringify(body)).toBe(200);
	expect(body.type).toBe('redirect');
	const token = client.cookie(SESSION_COOKIE);
	expect(token).toMatch(/^[0-9a-f]{64}$/);
	return token!;
}

/** A request with any Host header (`fetch` sends its own), answered in full. */
function rawRequest(method: string, path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
	return new Promise((resolve, reject) => {
		const post = method === 'POST' ? 'email=a%40example.com&password=x' : undefined;
		const url = new URL(path, app.origin);
		const req = httpRequest(
			{ method, host: url.hostname, port: url.port, path, headers: { ...headers, ...(post ? { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(post.length) } : {}) } },
			(res) => {
				let body = '';
				res.setEncoding('utf8');
				res.on('data', (chunk: string) => (body += chunk));
				res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
			}
		);
		req.on('error', reject);
		req.end(post);
	});
}

async function protectedPage(client: TestClient, zone = 'app', headers: Record<string, string> = HTML) {
	const res = await client.get(`/base/${zone}/protected`, { headers });
	return { res, html: await res.text() };
}

describe('routing: paths.base + the user basePath', () => {
	test('GET /base/api/auth/csrf is answered by kitauth (the app never sees it)', async () => {
		const res = await browser().get('/base/api/auth/csrf');
		expect(res.status).toBe(200);
		expect(res.headers.get('x-kit-app')).toBeNull();
		expect(((await res.json()) as { csrfToken: string }).csrfToken).toMatch(/^[0-9a-f]{64}$/);
	});

	test('GET /base/api/auth/providers lists URLs under /base/api/auth', async () => {
		const res = await browser().get('/base/api/auth/providers');
		expect(res.status).toBe(200);
		const entry = (id: string, name: string, type: string) => ({
			id,
			name,
			type,
			signinUrl: `${app.origin}/base/api/auth/signin/${id}`,
			callbackUrl: `${app.origin}/base/api/auth/callback/${id}`
		});
		expect(await res.json()).toEqual({ credentials: entry('credentials', 'Credentials', 'credentials'), rogue: entry('rogue', 'Rogue', 'oidc') });
	});

	test('GET /base/api/auth/session: null signed out, the session signed in', async () => {
		const client = browser();
		const out = await client.get('/base/api/auth/session');
		expect(out.status).toBe(200);
		expect(await out.json()).toBeNull();
		await signIn(client);
		const res = await client.get('/base/api/auth/session');
		expect(res.status).toBe(200);
		expect(await res.json()).toMatchObject({ user: { email: ALICE.email } });
	});

	test('/base/auth/* (default basePath) and /api/auth/* (no paths.base) are not kitauth: 404 from the app', async () => {
		const client = browser();
		await signIn(client);
		const defaultBase = await client.get('/base/auth/session');
		expect(defaultBase.status).toBe(404);
		expect(defaultBase.headers.get('x-kit-app')).toBe('resolved');
		expect(await defaultBase.text()).not.toContain(ALICE.email);
		const noKitBase = await client.get('/api/auth/session');
		expect(noKitBase.status).toBe(404);
		expect(await noKitBase.text()).not.toContain(ALICE.email);
	});

	test('every other request goes on through the sequence to the app', async () => {
		const client = browser();
		const page = await client.get('/base/form', { headers: HTML });
		expect(page.status).toBe(200);
		expect(page.headers.get('x-kit-app')).toBe('resolved');
		expect(pageState(await page.text()).data).toEqual({ email: null });
		const endpoint = await client.post('/base/fn/sessions', { json: {} });
		expect(endpoint.status).toBe(200);
		expect(endpoint.headers.get('x-kit-app')).toBe('resolved');
	});
});

describe('form actions (actions = { signIn, signOut })', () => {
	test('sign-in, as use:enhance sends it: redirect 303 to redirectTo, and a session cookie', async () => {
		const client = browser();
		const { res, body } = await enhancedAction(client, 'signIn', SIGN_IN_FORM);
		expect(res.status).toBe(200);
		expect(body).toEqual({ type: 'redirect', status: 303, location: `${app.origin}/base/app/protected` });
		const cookie = sessionSetCookie(res);
		expect(cookie?.attributes).toMatchObject({ path: '/', httponly: true, samesite: 'Lax' });
		expect(await storedSession(client.cookie(SESSION_COOKIE)!)).toBeDefined();
		const { res: page, html } = await protectedPage(client);
		expect(page.status).toBe(200);
		expect(pageState(html).data.secret).toBe(`protected-data-for-${ALICE.email}`);
	});

	test('sign-in, as a plain HTML form POST: 303 with Location, and a session cookie', async () => {
		const client = browser();
		const res = await client.post('/base/form?/signIn', { form: SIGN_IN_FORM, headers: HTML });
		expect(res.status).toBe(303);
		expect(res.headers.get('location')).toBe(`${app.origin}/base/app/protected`);
		expect(sessionSetCookie(res)?.value).toMatch(/^[0-9a-f]{64}$/);
	});

	test('validation failures: 400 with exactly {failed, fieldErrors, formErrors} (enhanced)', async () => {
		const client = browser();
		const { res, body } = await enhancedAction(client, 'signIn', {
			providerId: 'nope',
			redirectTo: 'https://evil.example/'
		});
		expect(res.status).toBe(400);
		expect(body.type).toBe('failure');
		expect(body.status).toBe(400);
		expect(body.data).toStrictEqual({
			failed: true,
			fieldErrors: { providerId: ['Unknown provider "nope".'], redirectTo: ['Must be a path on this site.'] },
			formErrors: []
		});
		expect(sessionSetCookie(res)).toBeUndefined();
	});

	test('validation failures: the page renders with status 400 and the same `form` (plain POST)', async () => {
		const client = browser();
		const res = await client.post('/base/form?/signIn', {
			form: { providerId: 'credentials', options: '[1, 2]' },
			headers: HTML
		});
		expect(res.status).toBe(400);
		expect(res.headers.get('content-type')).toContain('text/html');
		const state = pageState(await res.text());
		expect(state.status).toBe(400);
		expect(state.form).toStrictEqual({
			failed: true,
			fieldErrors: { options: ['Must be a JSON object of text values.'] },
			formErrors: []
		});
	});

	test('a file where text is expected is a form error, not a 500', async () => {
		const client = browser();
		const form = new FormData();
		form.set('providerId', 'credentials');
		form.set('email', new Blob(['x'], { type: 'text/plain' }), 'email.txt');
		const res = await client.post('/base/form?/signIn', { body: form, headers: ACTION_HEADERS });
		expect(res.status).toBe(400);
		const body = (await res.json()) as ActionResult;
		expect(parse(body.data as string)).toStrictEqual({
			failed: true,
			fieldErrors: {},
			formErrors: ['Field "email" must be text, not a file.']
		});
	});

	test('wrong password: 400 with error CredentialsSignin, its code, the email kept, no password echoed', async () => {
		const client = browser();
		const { res, body } = await enhancedAction(client, 'signIn', {
			providerId: 'credentials',
			email: ALICE.email,
			password: 'hunter2-wrong'
		});
		expect(res.status).toBe(400);
		expect(body.data).toMatchObject({
			failed: true,
			fieldErrors: {},
			error: 'CredentialsSignin',
			code: 'credentials',
			values: { email: ALICE.email }
		});
		expect((body.data as { formErrors: string[] }).formErrors).toHaveLength(1);
		expect(JSON.stringify(body)).not.toContain('hunter2-wrong');
		expect(sessionSetCookie(res)).toBeUndefined();
		expect(client.jar.has(SESSION_COOKIE)).toBe(false);
	});

	test('a foreign redirectTo is a field error even with the right password: no session', async () => {
		const client = browser();
		const { res, body } = await enhancedAction(client, 'signIn', { ...SIGN_IN_FORM, redirectTo: 'https://evil.example/x' });
		expect(res.status).toBe(400);
		expect(body.data).toStrictEqual({
			failed: true,
			fieldErrors: { redirectTo: ['Must be a path on this site.'] },
			formErrors: []
		});
		expect(client.jar.has(SESSION_COOKIE)).toBe(false);
	});

	test('a cross-site form POST (foreign Origin) is refused by SvelteKit: 403, no session', async () => {
		const client = browser();
		const res = await client.post('/base/form?/signIn', {
			form: SIGN_IN_FORM,
			headers: { ...HTML, origin: 'https://evil.example' }
		});
		expect(res.status).toBe(403);
		expect(await res.text()).toContain('Cross-site POST form submissions are forbidden');
		expect(sessionSetCookie(res)).toBeUndefined();
	});

	test('sign-out: 303 to redirectTo, the cookie cleared, the stored session gone', async () => {
		const client = browser();
		const token = await signIn(client);
		const { res, body } = await enhancedAction(client, 'signOut', { redirectTo: '/base/form' });
		expect(body).toEqual({ type: 'redirect', status: 303, location: `${app.origin}/base/form` });
		const cleared = sessionSetCookie(res);
		expect(cleared && isDeletion(cleared)).toBe(true);
		expect(client.jar.has(SESSION_COOKIE)).toBe(false);
		expect(await storedSession(token)).toBeUndefined();
		// The old token opens nothing.
		const replay = browser();
		replay.jar.set(SESSION_COOKIE, token);
		expect((await protectedPage(replay)).res.status).toBe(401);
	});

	test('sign-out with a foreign redirectTo: 400 fieldErrors.redirectTo, still signed in', async () => {
		const client = browser();
		const token = await signIn(client);
		const { res, body } = await enhancedAction(client, 'signOut', { redirectTo: '//evil.example/' });
		expect(res.status).toBe(400);
		expect(body.data).toStrictEqual({
			failed: true,
			fieldErrors: { redirectTo: ['Must be a path on this site.'] },
			formErrors: []
		});
		expect(await storedSession(token)).toBeDefined();
	});
});

describe('server functions (signIn/signOut from a +server.ts)', () => {
	const credentials = { ...ALICE, redirectTo: '/base/app/protected' };

	test('signIn("credentials", { redirect: false }) returns the URL and sets the session cookie', async () => {
		const client = browser();
		const res = await client.post('/base/fn/sign-in', { json: credentials });
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({ url: `${app.origin}/base/app/protected` });
		const token = client.cookie(SESSION_COOKIE);
		expect(token).toMatch(/^[0-9a-f]{64}$/);
		expect(await storedSession(token!)).toBeDefined();
	});

	test('signIn("credentials") redirects (303) to redirectTo, with the session cookie', async () => {
		const client = browser();
		const res = await client.post('/base/fn/sign-in-redirect', { json: credentials });
		expect(res.status).toBe(303);
		expect(res.headers.get('location')).toBe(`${app.origin}/base/app/protected`);
		expect(sessionSetCookie(res)?.value).toMatch(/^[0-9a-f]{64}$/);
	});

	test('wrong credentials throw an AuthError of type CredentialsSignin; no session', async () => {
		const client = browser();
		const res = await client.post('/base/fn/sign-in-throws', { json: { ...credentials, password: 'wrong' } });
		expect(res.status).toBe(401);
		expect(await res.json()).toMatchObject({ type: 'CredentialsSignin' });
		expect(sessionSetCookie(res)).toBeUndefined();
	});

	test('signIn() without a provider: the sign-in page URL under /base/api/auth, with callbackUrl', async () => {
		const client = browser();
		const res = await client.post('/base/fn/sign-in-page', { json: { redirectTo: '/base/after' } });
		expect(res.status).toBe(200);
		const url = new URL(((await res.json()) as { url: string }).url);
		expect(url.origin).toBe(app.origin);
		expect(url.pathname).toBe('/base/api/auth/signin');
		expect(url.searchParams.get('callbackUrl')).toBe('/base/after');
		// … and that page is served.
		const page = await client.get(url.href, { headers: HTML });
		expect(page.status).toBe(200);
		expect(page.headers.get('content-type')).toContain('text/html');
	});

	test('signIn() without a provider redirects to the sign-in page, callbackUrl = the current URL', async () => {
		const res = await browser().post('/base/fn/sign-in-page-redirect', { json: {} });
		expect(res.status).toBe(303);
		const location = new URL(res.headers.get('location')!);
		expect(location.origin + location.pathname).toBe(`${app.origin}/base/api/auth/signin`);
		expect(location.searchParams.get('callbackUrl')).toBe(`${app.origin}/base/fn/sign-in-page-redirect`);
	});

	test('signOut({ redirect: false }) returns the URL, clears the cookie and ends the stored session', async () => {
		const client = browser();
		const token = await signIn(client);
		const res = await client.post('/base/fn/sign-out', { json: {} });
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({ url: `${app.origin}/base/fn/sign-out` });
		expect(client.jar.has(SESSION_COOKIE)).toBe(false);
		expect(await storedSession(token)).toBeUndefined();
	});

	test('signOut({ redirectTo }) redirects (303) there and ends the session', async () => {
		const client = browser();
		const token = await signIn(client);
		const res = await client.post('/base/fn/sign-out-redirect', { json: {} });
		expect(res.status).toBe(303);
		expect(res.headers.get('location')).toBe(`${app.origin}/base/after`);
		const cleared = sessionSetCookie(res);
		expect(cleared && isDeletion(cleared)).toBe(true);
		expect(await storedSession(token)).toBeUndefined();
	});
});

describe('locals.auth()', () => {
	test('is read once per request however many times a load asks (and returns the same session)', async () => {
		const client = browser();
		await signIn(client);
		const { res, html } = await protectedPage(client);
		expect(res.status).toBe(200);
		expect(pageState(html).data).toMatchObject({
			secret: `protected-data-for-${ALICE.email}`,
			sameObject: true,
			reads: 1
		});
	});

	test('the session manager uses the same read (no second lookup)', async () => {
		const client = browser();
		await signIn(client);
		const res = await client.post('/base/fn/sessions', { json: {} });
		expect(res.status).toBe(200);
		expect(((await res.json()) as { reads: number }).reads).toBe(1);
	});

	test('signed out: no session, the protected page answers 401', async () => {
		const { res, html } = await protectedPage(browser());
		expect(res.status).toBe(401);
		expect(html).not.toContain('protected-data-for-');
	});

	test('re-issues the session cookie only when updateAge has passed (database sessions)', async () => {
		const client = browser();
		const token = await signIn(client);
		const fresh = await protectedPage(client);
		expect(fresh.res.status).toBe(200);
		expect(sessionSetCookie(fresh.res)).toBeUndefined();

		// Make the session look last extended two days ago (updateAge: one day).
		const before = (await storedSession(token))!.expires;
		await db.execute({
			sql: 'UPDATE session SET expires = ? WHERE sessionToken = ?',
			args: [before - 2 * DAY, sha256(token)]
		});
		const due = await protectedPage(client);
		expect(due.res.status).toBe(200);
		expect(pageState(due.html).data.reads).toBe(1);
		const reissued = sessionSetCookie(due.res);
		expect(reissued?.value).toBe(token);
		const expires = Date.parse(String(reissued?.attributes.expires));
		expect(expires).toBeGreaterThan(before - DAY);
		const stored = (await storedSession(token))!.expires;
		expect(stored).toBeGreaterThan(before - DAY);
		expect(Math.abs(stored - expires)).toBeLessThan(2000);

		const after = await protectedPage(client);
		expect(after.res.status).toBe(200);
		expect(sessionSetCookie(after.res)).toBeUndefined();
	});
});

describe('start-up', () => {
	test('the production build started without AUTH_SECRET stops at once: MissingSecret, naming AUTH_SECRET and how to make one', async () => {
		// The fixture's `untrusted` instance is a config object with no secret of its own.
		await expect(startFixture(KIT3_APP, { AUTH_SECRET: '' })).rejects.toThrow(/the server did not start[\s\S]*MissingSecret[\s\S]*AUTH_SECRET[\s\S]*openssl rand -base64 33/);
	});
});

describe('fail closed (GHSA-8fpg-xm3f-6cx3): a broken configuration never yields a session', () => {
	test('control: the same cookie opens the protected page of the working instance', async () => {
		const client = browser();
		await signIn(client);
		const { res, html } = await protectedPage(client, 'app');
		expect(res.status).toBe(200);
		expect(html).toContain(`protected-data-for-${ALICE.email}`);
	});

	test('OIDC provider without issuer or endpoints: the protected page is a 500 without protected data', async () => {
		const client = browser();
		await signIn(client);
		for (const headers of [HTML, { accept: 'application/json' }]) {
			const { res, html } = await protectedPage(client, 'broken', headers);
			expect(res.status).toBe(500);
			expect(html).not.toContain('protected-data-for-');
			expect(html).not.toContain(ALICE.email);
		}
	});

	test('OIDC provider without issuer or endpoints: its auth endpoints answer 500, never a session', async () => {
		const client = browser();
		await signIn(client);
		for (const path of ['session', 'providers', 'csrf']) {
			const res = await client.get(`/base/broken/auth/${path}`, { headers: { accept: 'application/json' } });
			expect(res.status).toBe(500);
			const body = (await res.json()) as Record<string, unknown>;
			expect(typeof body.message).toBe('string');
			expect(body.user).toBeUndefined();
			expect(JSON.stringify(body)).not.toContain(ALICE.email);
		}
	});

	test('untrusted host: locals.auth() throws, the protected page is a 500 without protected data', async () => {
		const client = browser();
		await signIn(client);
		const { res, html } = await protectedPage(client, 'untrusted');
		expect(res.status).toBe(500);
		expect(html).not.toContain('protected-data-for-');
		expect(html).not.toContain(ALICE.email);
	});

	test('untrusted host: /base/untrusted/auth/session answers 400 with the configuration message', async () => {
		const client = browser();
		await signIn(client);
		const res = await client.get('/base/untrusted/auth/session');
		expect(res.status).toBe(400);
		expect(await res.json()).toEqual({ message: CONFIGURATION_MESSAGE });
	});

	test('untrusted host: a page or form POST with Host: evil.example gets a 400 with nothing of that host in it', async () => {
		for (const [method, path] of [['GET', 'signin'], ['POST', 'signin/credentials'], ['GET', 'session']] as const) {
			// The browser's own Origin (of the page it was on), which SvelteKit's form check wants.
			const origin: Record<string, string> = method === 'POST' ? { origin: 'http://evil.example' } : {};
			const res = await rawRequest(method, `/base/untrusted/auth/${path}`, { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http', ...origin });
			expect(res.status, `${method} ${path}`).toBe(400);
			expect(res.headers.location).toBeUndefined();
			expect(JSON.stringify(res.headers) + res.body, `${method} ${path}`).not.toContain('evil.example');
		}
	});

	test('a broken config function: the first request fails, logged once; every request after it the same 500, not logged again', async () => {
		for (let i = 0; i < 3; i++) {
			const res = await browser().get(`/base/broken/protected?round=${i}`, { headers: HTML });
			expect(res.status).toBe(500);
			expect(await res.text()).not.toContain('protected-data-for-');
		}
		const logged = app.output().split('\n').filter((line) => line.includes('InvalidEndpoints'));
		// Once for the whole run (whichever request met it first), never with a stack of SvelteKit's.
		expect(logged).toHaveLength(1);
		expect(logged[0]).toMatch(/\[kitauth\]\[error\] InvalidEndpoints: Provider "nowhere" needs an issuer/);
	});
});

describe('sessions.page() and accounts.list() / unlink() over HTTP', () => {
	test('a page of sessions: the current one apart, the others bounded, a cursor to the rest', async () => {
		const laptop = browser('Laptop page kit-app');
		await signIn(laptop);
		for (const agent of ['A', 'B', 'C']) await signIn(browser(`Device ${agent} kit-app`));
		const first = (await (await laptop.post('/base/fn/session-page', { json: { limit: 2 } })).json()) as {
			current: { userAgent: string };
			others: { userAgent: string }[];
			totalOthers: number;
			nextCursor: string | null;
		};
		expect(first.current.userAgent).toBe('Laptop page kit-app');
		expect(first.others).toHaveLength(2);
		expect(first.totalOthers).toBeGreaterThanOrEqual(3);
		expect(first.nextCursor).toMatch(/^\d+\.[\w-]+$/);
		const second = (await (await laptop.post('/base/fn/session-page', { json: { limit: 2, cursor: first.nextCursor } })).json()) as typeof first;
		expect(second.others.map((s) => s.userAgent)).not.toContain(first.others[0]!.userAgent);
		const signedOut = await (await browser().post('/base/fn/session-page', { json: {} })).json();
		expect(signedOut).toEqual({ current: null, others: [], totalOthers: 0, nextCursor: null });
	});

	test('accounts: listed with unlinkable; the last one refused, unless the app vouches for another way', async () => {
		const client = browser();
		await signIn(client);
		await db.execute({ sql: 'INSERT OR IGNORE INTO "user" ("id", "email", "name") VALUES (?, ?, ?)', args: ['user-alice', ALICE.email, 'Alice'] });
		await db.execute({
			sql: 'INSERT INTO "account" ("userId", "type", "provider", "providerAccountId") VALUES (?, ?, ?, ?)',
			args: ['user-alice', 'oauth', 'github', 'kit-app-github']
		});
		const { accounts } = (await (await client.post('/base/fn/accounts', { json: {} })).json()) as { accounts: { provider: string; unlinkable: boolean }[] };
		expect(accounts).toEqual([expect.objectContaining({ provider: 'github', unlinkable: false })]);
		expect(await (await client.post('/base/fn/unlink', { json: { provider: 'github' } })).json()).toEqual({ ok: false, reason: 'last-sign-in-method' });
		const done = (await (await client.post('/base/fn/unlink', { json: { provider: 'github', otherSignIn: true } })).json()) as { ok: boolean };
		expect(done.ok).toBe(true);
		expect(await (await client.post('/base/fn/accounts', { json: {} })).json()).toEqual({ accounts: [] });
		expect(await (await browser().post('/base/fn/unlink', { json: { provider: 'github' } })).json()).toEqual({ ok: false, reason: 'signed-out' });
	});
});

describe('sessions.list() / revokeOthers() over HTTP', () => {
	test('lists the user\'s sessions without any token or token hash; revokeOthers ends the others', async () => {
		const laptop = browser('Laptop kit-app');
		const phone = browser('Phone kit-app');
		const laptopToken = await signIn(laptop);
		const phoneToken = await signIn(phone);

		const res = await laptop.post('/base/fn/sessions', { json: {} });
		expect(res.status).toBe(200);
		const text = await res.text();
		for (const secret of [laptopToken, phoneToken, sha256(laptopToken), sha256(phoneToken)]) {
			expect(text).not.toContain(secret);
		}
		const { sessions } = JSON.parse(text) as { sessions: Record<string, unknown>[] };
		for (const session of sessions) {
			expect(Object.keys(session).sort()).toEqual(['createdAt', 'current', 'expires', 'id', 'userAgent']);
			expect(String(session.id)).toMatch(/^[\w-]{22}$/);
		}
		expect(sessions.filter((s) => s.current)).toEqual([expect.objectContaining({ userAgent: 'Laptop kit-app' })]);
		expect(sessions.some((s) => !s.current && s.userAgent === 'Phone kit-app')).toBe(true);

		const revoked = await laptop.post('/base/fn/revoke-others', { json: {} });
		expect(revoked.status).toBe(200);
		expect(((await revoked.json()) as { revoked: number }).revoked).toBeGreaterThanOrEqual(1);
		expect(await storedSession(phoneToken)).toBeUndefined();
		expect((await protectedPage(phone)).res.status).toBe(401);

		const after = (await (await laptop.post('/base/fn/sessions', { json: {} })).json()) as { sessions: unknown[] };
		expect(after.sessions).toEqual([expect.objectContaining({ current: true, userAgent: 'Laptop kit-app' })]);
		expect((await protectedPage(laptop)).res.status).toBe(200);
	});

	test('signed out: an empty list, nothing revoked', async () => {
		const client = browser();
		expect(await (await client.post('/base/fn/sessions', { json: {} })).json()).toEqual({ sessions: [], reads: 0 });
		expect(await (await client.post('/base/fn/revoke-others', { json: {} })).json()).toEqual({ revoked: 0 });
	});
});

describe('getAccessToken(providerId) in a server route: the current request (database sessions)', () => {
	async function oauthSignedIn(): Promise<TestClient> {
		const client = browser();
		const start = await client.postForm('signin/rogue');
		expect(start.status).toBe(302);
		const callback = await rogue.completeInteraction(start.headers.get('location') ?? '');
		const res = await client.get(callback.href);
		expect(res.status, await res.clone().text()).toBe(302);
		expect(client.cookie(SESSION_COOKIE)).toMatch(/^[0-9a-f]{64}$/);
		return client;
	}

	async function accessToken(client: TestClient, fn = 'access-token'): Promise<{ token: string | null; error: string | null }> {
		const res = await client.post(`/base/fn/${fn}`, { json: { provider: 'rogue' } });
		expect(res.status).toBe(200);
		return (await res.json()) as { token: string | null; error: string | null };
	}

	async function storedTokens(): Promise<{ access_token: unknown; refresh_token: unknown }> {
		const { rows } = await db.execute({ sql: 'SELECT access_token, refresh_token FROM account WHERE provider = ?', args: ['rogue'] });
		expect(rows).toHaveLength(1);
		return { access_token: rows[0]?.access_token, refresh_token: rows[0]?.refresh_token };
	}

	/** The fixture runs on real time: its stored token is made to expire instead. */
	async function expireStoredToken(): Promise<void> {
		await db.execute({ sql: 'UPDATE account SET expires_at = 1 WHERE provider = ?', args: ['rogue'] });
	}

	test('after an OAuth sign-in: the stored access token; signed out: null', async () => {
		const client = await oauthSignedIn();
		expect(await accessToken(client)).toEqual({ token: (await storedTokens()).access_token, error: null });
		expect(await accessToken(browser())).toEqual({ token: null, error: null });
	});

	test('getAccessToken(event, provider), the older signature, still answers the same', async () => {
		const client = await oauthSignedIn();
		expect(await accessToken(client, 'access-token-of-event')).toEqual({ token: (await storedTokens()).access_token, error: null });
		expect(await accessToken(browser(), 'access-token-of-event')).toEqual({ token: null, error: null });
	});

	test('expired: refreshed and stored; refused (invalid_grant): null, RefreshTokenError on locals.auth(), the refresh token gone', async () => {
		const client = await oauthSignedIn();
		const before = await storedTokens();
		await expireStoredToken();
		rogue.resetCounts();
		const refreshed = await accessToken(client);
		expect(refreshed.error).toBeNull();
		expect(refreshed.token).toEqual(expect.any(String));
		expect(refreshed.token).not.toBe(before.access_token);
		expect((await storedTokens()).access_token).toBe(refreshed.token);
		expect(rogue.counts().token).toBe(1);

		await expireStoredToken();
		rogue.nextTokenResponse('error');
		expect(await accessToken(client)).toEqual({ token: null, error: 'RefreshTokenError' });
		expect((await storedTokens()).refresh_token).toBeNull();
		expect(await accessToken(client)).toEqual({ token: null, error: 'RefreshTokenError' });
		expect(rogue.counts().token).toBe(2);
	});
});

describe('the rate limiter through the SvelteKit edge (AUTH_RATE_LIMIT=on)', () => {
	let limited: RunningApp;
	beforeAll(async () => {
		limited = await startFixture(KIT3_APP, { AUTH_RATE_LIMIT: 'on' });
	}, 60_000);
	afterAll(async () => {
		await limited?.stop();
	});

	test('the signIn form action answers fail(429) with a form error and retryAfter; /auth answers 429 with Retry-After; a browser that signed in before still gets in', async () => {
		// A sign-in through the form action sets the device cookie beside the session, and uses up nothing.
		const known = appBrowser(limited.origin, '/base/api/auth', 'rate-limit test');
		expect((await postEnhanced(known, '/base/form', 'signIn', { ...SIGN_IN_FORM })).res.status).toBe(200);
		expect(known.cookie(SESSION_COOKIE)).toBeTruthy();
		expect(known.cookie(DEVICE_COOKIE)).toMatch(/^[\w-]{22}\.\d+\.[\w-]{43}$/);

		const client = appBrowser(limited.origin, '/base/api/auth', 'rate-limit test');
		const wrong = { providerId: 'credentials', email: ALICE.email, password: 'wrong-password' };
		// From one address (the socket's, as adapter-node's getClientAddress() reports it): its failures.
		const statuses: number[] = [];
		for (let attempt = 1; attempt <= ADDRESS_LIMIT; attempt++) {
			statuses.push((await postEnhanced(client, '/base/form', 'signIn', { ...wrong, email: `user${attempt}@example.com` })).res.status);
		}
		expect(statuses).toEqual(Array(ADDRESS_LIMIT).fill(400));
		const { res, body } = await postEnhanced(client, '/base/form', 'signIn', { ...SIGN_IN_FORM });
		expect(res.status).toBe(429);
		expect(body.data).toMatchObject({ failed: true, error: 'RateLimited', retryAfter: expect.any(Number) });
		expect((body.data as { formErrors: string[] }).formErrors).toEqual(['Too many attempts. Wait a little, then try again.']);
		expect(client.cookie(SESSION_COOKIE)).toBeUndefined();

		const rest = await client.signInWithCredentials('credentials', { email: ALICE.email, password: ALICE.password });
		expect(rest.status).toBe(429);
		expect(Number(rest.headers.get('retry-after'))).toBeGreaterThan(0);

		// The browser that signed in before has a budget of its own for Alice.
		const again = await postEnhanced(known, '/base/form', 'signIn', { ...SIGN_IN_FORM });
		expect(again.res.status).toBe(200);
		expect(again.body.type).toBe('redirect');
	});
});

describe('CSRF through the SvelteKit edge: a same-origin POST needs no token (as @auth/sveltekit clients send none)', () => {
	/** A POST to the app's auth endpoints exactly as given: no token unless the body has one. */
	async function rawPost(path: string, cookie: string, headers: Record<string, string>, body: { form?: Record<string, string>; json?: unknown }) {
		const sent = new Headers({ cookie, 'x-forwarded-proto': 'http', ...headers });
		sent.set('content-type', body.form ? 'application/x-www-form-urlencoded' : 'application/json');
		const payload = body.form ? new URLSearchParams(body.form).toString() : JSON.stringify(body.json);
		return fetch(`${app.origin}/base/api/auth/${path}`, { method: 'POST', headers: sent, body: payload, redirect: 'manual' });
	}

	async function signedInCookie(): Promise<{ cookie: string; token: string }> {
		const client = browser();
		const token = await signIn(client);
		return { cookie: client.cookieHeader(), token };
	}

	test('sign-out with this site’s Origin and no token: signed out, the row gone', async () => {
		const { cookie, token } = await signedInCookie();
		const res = await rawPost('signout', cookie, { origin: app.origin }, { form: { callbackUrl: '/base' } });
		expect(res.status).toBe(302);
		expect(await storedSession(token)).toBeUndefined();
	});

	test('a session update with this site’s Origin (or Sec-Fetch-Site: same-origin) and no token is accepted', async () => {
		const { cookie } = await signedInCookie();
		for (const headers of [{ origin: app.origin }, { 'sec-fetch-site': 'same-origin' }] as Record<string, string>[]) {
			const res = await rawPost('session', cookie, headers, { json: { data: {} } });
			expect(res.status, JSON.stringify(headers)).toBe(200);
			expect(await res.json()).toMatchObject({ user: { email: ALICE.email } });
		}
	});

	test('cross-site, a `null` Origin, or no Origin at all without a token: refused, the session kept', async () => {
		const { cookie, token } = await signedInCookie();
		for (const headers of [{ origin: 'https://evil.example' }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }] as Record<string, string>[]) {
			const json = await rawPost('session', cookie, headers, { json: { data: {} } });
			expect(json.status, JSON.stringify(headers)).toBe(403);
			const form = await rawPost('signout', cookie, headers, { form: {} });
			expect(form.status, JSON.stringify(headers)).toBe(403);
		}
		const anonymous = await rawPost('session', cookie, {}, { json: { data: {} } });
		expect(anonymous.status).toBe(400);
		expect(await anonymous.json()).toBeNull();
		expect(await storedSession(token)).toBeDefined();
	});
});
