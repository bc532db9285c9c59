/**
 * The session store failing under `Auth()` with database sessions: a closed client, a database
 * file that cannot be opened, a file locked by another process, a read-only file (in a child
 * process run as an unprivileged user). The session endpoint answers 503 JSON without internals,
 * sign-in lands on the error page with `error=Configuration`, the error is logged, no session
 * cookie is ever set, and nothing hangs (the adapter's busy timeout bounds every wait).
 */
import { createClient } from '@libsql/client';
import { randomBytes } from 'node:crypto';
import { chmodSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { LibSQLAdapter, migrate } from '../../src/lib/adapters/libsql/index.js';
import { AdapterError } from '../../src/lib/core/index.js';
import type { Setup } from './fixtures.js';
import { tempDatabase } from '../adapter/support.js';
import { holdWriteLock } from '../support/lock-holders.js';
import { spawnNodeUnprivileged } from '../support/unprivileged.js';
import { dbSetup, openStore, sha256, STORE_KINDS, type Store } from './database-fixtures.js';
import { ALICE_LOGIN, ORIGIN, passwordProvider, SECRET, SESSION_COOKIE, sessionCookiesSet, setup, signedIn } from './fixtures.js';
import { TestClient } from '../support/client.js';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).reverse().forEach((cleanup) => cleanup()));

const UNAVAILABLE = { message: 'The session store is unavailable. Try again later.' };

/** A 503 with a JSON `{message}` that names nothing internal. */
async function expectUnavailable(res: Response, secrets: string[]): Promise<void> {
	expect(res.status).toBe(503);
	expect(res.headers.get('content-type')).toContain('application/json');
	expect(sessionCookiesSet(res)).toEqual([]);
	const text = await res.text();
	expect(JSON.parse(text)).toEqual(UNAVAILABLE);
	for (const internal of ['SELECT', 'select', 'sqlite', 'SQLITE', 'LibSQL', 'libsql', 'session"', 'file:', '/tmp', ...secrets]) {
		expect(text).not.toContain(internal);
	}
}

/** A sign-in that failed on the store: the error page, `Configuration`, no session cookie. */
function expectConfigurationError(res: Response, secrets: string[]): void {
	expect(res.status).toBe(302);
	expect(res.headers.get('location')).toBe(`${ORIGIN}/auth/error?error=Configuration`);
	expect(sessionCookiesSet(res)).toEqual([]);
	for (const internal of secrets) expect(res.headers.get('location')).not.toContain(internal);
}

/**
 * A sign-in that met a busy store: the error page itself, 503 with `Retry-After`, naming the cause
 * (not `Configuration`), no session cookie, no internals.
 */
async function expectBusyPage(res: Response, secrets: string[]): Promise<void> {
	expect(res.status).toBe(503);
	expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
	expect(sessionCookiesSet(res)).toEqual([]);
	const html = await res.text();
	expect(html).toContain('Temporarily unavailable');
	for (const internal of ['SQLITE', 'locked', 'Configuration', ...secrets]) expect(html).not.toContain(internal);
}

function expectLoggedAdapterError(s: Setup): void {
	expect(s.errors.length).toBeGreaterThan(0);
	const error = s.errors.find((e) => e instanceof AdapterError) as AdapterError | undefined;
	expect(error, s.errors.map((e) => e.message).join('\n')).toBeDefined();
	expect(error!.cause?.err?.name).toBe('LibSQLAdapterError');
}

describe.each(STORE_KINDS)('the libSQL client closed under a running app (%s)', (kind) => {
	test('GET /session → 503 without internals; sign-in → error=Configuration; both logged', async () => {
		const db: Store = await openStore(kind);
		cleanups.push(() => db.close());
		const s = dbSetup(db);
		const browser = await signedIn(s);
		const token = browser.cookie(SESSION_COOKIE)!;
		db.db.close();

		const secrets = [token, sha256(token), db.url.replace(/^file:/, '')];
		await expectUnavailable(await browser.get('session'), secrets);
		expectLoggedAdapterError(s);
		expect(browser.cookie(SESSION_COOKIE)).toBe(token); // a fault is not a sign-out

		const errorsBefore = s.errors.length;
		const fresh = s.client();
		expectConfigurationError(await fresh.signInWithCredentials('credentials', { ...ALICE_LOGIN }), secrets);
		expect(s.errors.length).toBeGreaterThan(errorsBefore);
		expect(fresh.cookie(SESSION_COOKIE)).toBeUndefined();

		// Signing in again over an existing session fails the same way.
		expectConfigurationError(await browser.signInWithCredentials('credentials', { ...ALICE_LOGIN }), secrets);

		// The session update endpoint is JSON too.
		const csrfToken = await browser.csrfToken();
		await expectUnavailable(await browser.post('session', { json: { csrfToken, data: {} } }), secrets);
	});
});

test('a database file that is not a database: 503 on GET /session, Configuration on sign-in', async () => {
	const temp = tempDatabase('kitauth-dbsession-corrupt-');
	cleanups.push(() => temp.remove());
	writeFileSync(temp.path, randomBytes(8192));
	const s = setup({ adapter: LibSQLAdapter({ url: temp.url }, { busyTimeout: 300 }) });
	const browser = s.client();
	const token = 'ab'.repeat(32);
	browser.setCookie(SESSION_COOKIE, token);
	const secrets = [token, sha256(token), temp.dir];

	await expectUnavailable(await browser.get('session'), secrets);
	expectLoggedAdapterError(s);
	expectConfigurationError(await s.client().signInWithCredentials('credentials', { ...ALICE_LOGIN }), secrets);
	// No cookie at all: nothing to look up, so the store is not even asked.
	expect(await s.client().session()).toBeNull();
});

describe('a database file locked by another process past the busy timeout', () => {
	test('sign-in (a write) answers 503 with Retry-After, without hanging; reads still work (WAL)', async () => {
		const temp = tempDatabase('kitauth-dbsession-locked-');
		cleanups.push(() => temp.remove());
		const setupClient = createClient({ url: temp.url });
		await migrate(setupClient);
		setupClient.close();
		const s = setup({ adapter: LibSQLAdapter({ url: temp.url }, { busyTimeout: 300 }) });
		const browser = await signedIn(s);
		const token = browser.cookie(SESSION_COOKIE)!;

		const release = await holdWriteLock(temp.path);
		cleanups.push(() => void release());

		const secrets = [token, sha256(token), temp.dir];
		await expectBusyPage(await s.client().signInWithCredentials('credentials', { ...ALICE_LOGIN }), secrets);
		expectLoggedAdapterError(s);
		expect(s.errors.some((e) => (e as AdapterError).cause?.err?.message.includes('locked'))).toBe(true);
		expect(((await browser.session()) as { user?: { email?: string } }).user?.email).toBe('alice@example.com');

		await release();
		// Once the lock is gone, sign-in works again.
		const later = await signedIn(s);
		expect(later.cookie(SESSION_COOKIE)).toMatch(/^[0-9a-f]{64}$/);
	});
});

describe('a read-only database file (child process, unprivileged)', () => {
	test('reads work; a read that must extend the session → 503; sign-in → Configuration', async () => {
		const temp = tempDatabase('kitauth-dbsession-ro-');
		cleanups.push(() => temp.remove());
		const client = createClient({ url: temp.url });
		await migrate(client);
		const s = setup({ adapter: LibSQLAdapter(client) });
		const browser = await signedIn(s);
		const token = browser.cookie(SESSION_COOKIE)!;
		client.close();
		chmodSync(temp.path, 0o444);
		chmodSync(temp.dir, 0o555);
		cleanups.push(() => chmodSync(temp.dir, 0o755));

		// Root ignores file modes: then run the app without root's capabilities.
		const worker = fileURLToPath(new URL('../support/dbsession-readonly-worker.ts', import.meta.url));
		const hook = fileURLToPath(new URL('../support/ts-svelte-import-hook.ts', import.meta.url));
		const flags = ['--no-warnings', '--experimental-transform-types', '--import', hook];
		const run = spawnNodeUnprivileged([...flags, worker, temp.url, token, SECRET], { timeout: 60_000 });
		expect(run.status, run.stderr).toBe(0);
		interface Answer {
			status: number;
			location: string | null;
			body: string;
			sessionCookies: string[];
		}
		const result = JSON.parse(run.stdout) as {
			read: Answer;
			readWithSlide: Answer;
			signIn: Answer;
			logged: { name: string; type?: string; message: string; cause?: string }[];
		};

		expect(result.read.status).toBe(200);
		expect(JSON.parse(result.read.body)).toMatchObject({ user: { email: 'alice@example.com' } });

		expect(result.readWithSlide.status).toBe(503);
		expect(JSON.parse(result.readWithSlide.body)).toEqual(UNAVAILABLE);
		expect(result.readWithSlide.sessionCookies).toEqual([]);

		expect(result.signIn.status).toBe(302);
		expect(result.signIn.location).toBe(`${ORIGIN}/auth/error?error=Configuration`);
		expect(result.signIn.sessionCookies).toEqual([]);

		for (const answer of [result.readWithSlide, result.signIn]) {
			const text = `${answer.body} ${answer.location ?? ''}`;
			for (const internal of [token, sha256(token), temp.dir, 'SQLITE', 'read-only']) expect(text).not.toContain(internal);
		}
		expect(result.logged.filter((e) => e.type === 'AdapterError')).toHaveLength(2);
		expect(result.logged.every((e) => e.cause?.includes('read-only'))).toBe(true);
	});
});

describe('the client gives up during its sign-in (the request’s signal aborts)', () => {
	test('no session is stored, with any adapter: the core does not call createSession once the signal aborted', async () => {
		const db: Store = await openStore('memory');
		cleanups.push(() => db.close());
		const client = new AbortController();
		// The store's counting adapter ignores createSession's second argument, as an Auth.js adapter does.
		const s = dbSetup(db, {
			providers: [passwordProvider({ authorize: (credentials) => (client.abort(), passwordProvider().authorize(credentials, new Request(ORIGIN))) })]
		});
		const browser = new TestClient((request) => s.handler(new Request(request, { signal: client.signal })), { origin: ORIGIN });
		const res = await browser.signInWithCredentials('credentials', { ...ALICE_LOGIN });

		expect(sessionCookiesSet(res)).toEqual([]);
		expect(db.calls.createSession).toBe(0);
		expect(await db.sessions()).toEqual([]);
		// A client that left is not a fault: nothing logged as an error (a debug line says it).
		expect(s.errors).toEqual([]);
		// A client that stays signs in as usual.
		const stays = await signedIn(dbSetup(db));
		expect(stays.cookie(SESSION_COOKIE)).toMatch(/^[0-9a-f]{64}$/);
		expect(db.calls.createSession).toBe(1);
	});
});
