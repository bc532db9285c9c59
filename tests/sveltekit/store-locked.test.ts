/**
 * A locked database through the SvelteKit edge (issue: "A locked database must not freeze the
 * server"): tests/kit-app on its libSQL file (busy timeout 1 s), while another OS process holds
 * SQLite's write lock, then the WAL index's read-mark locks. Found by trying it: the form actions
 * answered `error: 'Configuration'` (sign-in with status 400), and a page whose load read the
 * session answered 500.
 *
 * Required: the `signIn` and `signOut` form actions answer `fail(503)` with `error: 'Unavailable'`,
 * a message naming the cause and `retryAfter`; a sign-in grants no cookie and stores no session;
 * `locals.auth()` on a page fails as a 503 with `Retry-After` and the message, rendered by the
 * app's error page; and once the lock is gone everything works again.
 */
import { type Client, createClient } from '@libsql/client';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { signInMessage } from '../../src/lib/shared/messages.js';
import { holdReadMarks, holdWriteLock, type Release } from '../support/lock-holders.js';
import { buildFixtureOnce, KIT3_APP, type RunningApp, startFixture } from './kit-app-server.js';
import { ACTION_HEADERS, type ActionResult, appBrowser, HTML, postEnhanced } from './kit-client.js';

const SESSION_COOKIE = 'authjs.session-token';
const SIGN_IN_FORM = { providerId: 'credentials', email: 'alice@example.com', password: 'correct horse battery staple', redirectTo: '/base/app/protected' };
const BUSY = signInMessage('Unavailable');

let app: RunningApp;
let db: Client;
let path: string;
const releases: Release[] = [];

beforeAll(async () => {
	await buildFixtureOnce(KIT3_APP);
	app = await startFixture(KIT3_APP, { KIT_APP_BUSY_TIMEOUT: '1000' });
	path = fileURLToPath(app.databaseUrl.replace(/^file:/, 'file://'));
	db = createClient({ url: app.databaseUrl });
	await db.execute('PRAGMA busy_timeout = 5000');
}, 120_000);

afterEach(async () => {
	for (const release of releases.splice(0)) await release();
});

afterAll(async () => {
	db?.close();
	await app?.stop();
});

async function sessionRows(): Promise<number> {
	const { rows } = await db.execute('SELECT count(*) AS n FROM "session"');
	return Number(rows[0]?.['n']);
}

async function signedIn() {
	const client = appBrowser(app.origin, '/base/api/auth', 'store-locked test');
	const { res } = await postEnhanced(client, '/base/form', 'signIn', SIGN_IN_FORM);
	expect(res.status).toBe(200);
	expect(client.cookie(SESSION_COOKIE)).toMatch(/^[0-9a-f]{64}$/);
	return client;
}

const protectedPage = (client: ReturnType<typeof appBrowser>) => client.get('/base/app/protected', { headers: HTML });

describe('another process holds the write lock', () => {
	test('the form actions answer fail(503) Unavailable with retryAfter; the sign-in grants and stores nothing; reads go on; afterwards both work', { timeout: 60_000 }, async () => {
		const client = await signedIn();
		const rows = await sessionRows();
		releases.push(await holdWriteLock(path, 'immediate'));

		const other = appBrowser(app.origin, '/base/api/auth', 'store-locked test');
		const signIn = await postEnhanced(other, '/base/form', 'signIn', SIGN_IN_FORM);
		expect(signIn.res.status).toBe(503);
		expect(signIn.body).toMatchObject({ type: 'failure', status: 503, data: { failed: true, error: 'Unavailable', formErrors: [BUSY], retryAfter: 1 } });
		expect(other.cookie(SESSION_COOKIE)).toBeUndefined();

		const signOut = await postEnhanced(client, '/base/form', 'signOut', {});
		expect(signOut.body).toMatchObject({ type: 'failure', status: 503, data: { failed: true, error: 'Unavailable', retryAfter: 1 } });
		// In WAL mode a writer does not hold readers up: the session still reads.
		expect((await protectedPage(client)).status).toBe(200);

		await releases.pop()!();
		expect(await sessionRows()).toBe(rows);
		expect((await postEnhanced(client, '/base/form', 'signOut', {})).body).toMatchObject({ type: 'redirect' });
		expect(await sessionRows()).toBe(rows - 1);
		await signedIn();
	});
});

describe('the client of a sign-in gives up while the database is locked', () => {
	/** The sign-in form action posted as `use:enhance` does, with `signal`; the action's result or the abort. */
	const postSignIn = (signal?: AbortSignal) =>
		fetch(`${app.origin}/base/form?/signIn`, {
			method: 'POST',
			headers: { ...ACTION_HEADERS, origin: app.origin, 'x-forwarded-proto': 'http', 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams(SIGN_IN_FORM),
			redirect: 'manual',
			signal
		});
	const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

	test('no session is stored, though the lock goes before the server’s deadline (where one that stayed gets its session)', { timeout: 60_000 }, async () => {
		const rows = await sessionRows();
		// The control: a client that stays gets its session once a short lock goes (busy timeout 1 s).
		releases.push(await holdWriteLock(path, 'immediate'));
		const staying = postSignIn();
		await pause(300);
		await releases.pop()!();
		const answer = (await (await staying).json()) as ActionResult;
		expect(answer).toMatchObject({ type: 'redirect' });
		expect(await sessionRows()).toBe(rows + 1);

		// The same sign-in, but its client hangs up before the lock goes.
		releases.push(await holdWriteLock(path, 'immediate'));
		const client = new AbortController();
		const leaving = postSignIn(client.signal);
		await pause(250);
		client.abort();
		await expect(leaving).rejects.toMatchObject({ name: 'AbortError' });
		await pause(50);
		await releases.pop()!();
		// Past the server's own deadline: whatever it was going to do is done.
		await pause(1500);
		expect(await sessionRows()).toBe(rows + 1);
	});
});

describe("another process holds the WAL index's read marks", () => {
	test('a page reading the session answers 503 with Retry-After and the message on the app’s error page, not a 500; afterwards it reads again', { timeout: 60_000 }, async () => {
		const client = await signedIn();
		releases.push(await holdReadMarks(path));
		// A call made before the app's watch notices the lock (~150 ms at most) would block that app
		// until the lock goes (docs/content/databases.md, libSQL adapter): give the watch its moment.
		await new Promise((resolve) => setTimeout(resolve, 500));

		const page = await protectedPage(client);
		const html = await page.text();
		expect(page.status, html.slice(0, 300)).toBe(503);
		expect(page.headers.get('retry-after')).toBe('1');
		expect(html).toContain(BUSY);
		const session = await client.get('session');
		expect(session.status).toBe(503);
		expect(session.headers.get('retry-after')).toBe('1');

		await releases.pop()!();
		const after = await protectedPage(client);
		expect(after.status).toBe(200);
	});
});

describe('the rate limiter fails closed (failOpen: false) while its store, the database, is locked', () => {
	let closed: RunningApp;
	beforeAll(async () => {
		closed = await startFixture(KIT3_APP, { AUTH_RATE_LIMIT: 'on', KIT_APP_RATE_LIMIT: 'closed', KIT_APP_BUSY_TIMEOUT: '300' });
	}, 60_000);
	afterAll(async () => {
		await closed?.stop();
	});

	test('sign-in answers 503 Unavailable with the limiter’s Retry-After, not 429; nothing is granted; afterwards it works', { timeout: 60_000 }, async () => {
		const lockedPath = fileURLToPath(closed.databaseUrl.replace(/^file:/, 'file://'));
		const client = appBrowser(closed.origin, '/base/api/auth', 'limiter fails closed');
		releases.push(await holdWriteLock(lockedPath, 'immediate'));

		const form = await postEnhanced(client, '/base/form', 'signIn', SIGN_IN_FORM);
		expect(form.res.status).toBe(503);
		// The limiter's own retry (10 s), not the adapter's (1 s): the store failed before the attempt was made.
		expect(form.body).toMatchObject({ type: 'failure', status: 503, data: { failed: true, error: 'Unavailable', formErrors: [BUSY], retryAfter: 10 } });
		const rest = await client.signInWithCredentials('credentials', { email: SIGN_IN_FORM.email, password: SIGN_IN_FORM.password });
		expect(rest.status).toBe(503);
		expect(rest.headers.get('retry-after')).toBe('10');
		expect(await rest.text()).toContain(BUSY);
		expect(client.cookie(SESSION_COOKIE)).toBeUndefined();

		await releases.pop()!();
		expect((await postEnhanced(client, '/base/form', 'signIn', SIGN_IN_FORM)).body).toMatchObject({ type: 'redirect' });
		expect(client.cookie(SESSION_COOKIE)).toMatch(/^[0-9a-f]{64}$/);
	});
});
