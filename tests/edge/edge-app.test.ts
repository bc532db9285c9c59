/**
 * kitauth on an edge runtime: tests/edge-app, a SvelteKit 3 app built with adapter-cloudflare
 * against kitauth as published, served by workerd (`wrangler dev`, both from npm) with Node.js
 * compatibility switched off — no node:* modules, no `process`, no `Buffer`, so the core runs on
 * its Web Crypto backend. Its config names no secret: kitauth reads AUTH_SECRET and AUTH_TRUST_HOST
 * from the Worker's bindings (SvelteKit 3's way: the `cloudflare:workers` module, and also with a
 * `platform` that carries no `env`); D1 comes from `platform.env` (SvelteKit 2's way, which
 * adapter-cloudflare 8 still passes). Over HTTP, as a browser: credentials sign-in through the
 * form action, the session read in `load`, sign-out; on JWT sessions, and on database sessions
 * kept in D1 through Auth.js's D1 adapter.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decode as authjsDecode } from '@auth/core/jwt';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { decode, encode } from '../../src/lib/core/session/jwt.js';
import { isDeletion, setCookies, type TestClient } from '../support/client.js';
import { packageLibraryOnce, type RunningApp, run, startDevServer } from '../sveltekit/kit-app-server.js';
import { appBrowser, HTML, pageState, postEnhanced } from '../sveltekit/kit-client.js';
import { offlineWrangler, type RunningWorker, startWorker } from './workerd.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const APP = join(ROOT, 'tests/edge-app');
const CONFIG = join(APP, 'wrangler.jsonc');
/** The Worker variable kitauth reads from the bindings (wrangler.jsonc). */
const SECRET = 'edge-app-secret-0123456789abcdef0123456789abcdef';
const SESSION_COOKIE = 'authjs.session-token';
const ALICE = { email: 'alice@example.com', password: 'correct horse battery staple' };

let state: string;
let jwtWorker: RunningWorker;
let databaseWorker: RunningWorker;
/** JWT sessions, each request's `platform` without `env` (the app's hook takes it away). */
let bareWorker: RunningWorker;

beforeAll(async () => {
	const started = performance.now();
	// Packaged once for this file and tests/docs/edge-guide.test.ts, which builds against it too.
	await packageLibraryOnce(join(APP, 'node_modules/kitauth'), { types: false });
	await run([join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'tests/edge-app/vite.config.ts'], ROOT, 'vite build of the edge app');
	const built = performance.now();
	state = mkdtempSync(join(tmpdir(), 'kitauth-edge-'));
	// One build, three Workers: the same app with JWT sessions, with database sessions in D1, and
	// with JWT sessions on a `platform` without `env`.
	[jwtWorker, databaseWorker, bareWorker] = await Promise.all([
		startWorker({ config: CONFIG, persistTo: join(state, 'jwt'), vars: { SESSIONS: 'jwt' } }),
		startWorker({ config: CONFIG, persistTo: join(state, 'database'), vars: { SESSIONS: 'database' } }),
		startWorker({ config: CONFIG, persistTo: join(state, 'bare'), vars: { SESSIONS: 'jwt', PLATFORM_ENV: 'hidden' } })
	]);
	console.info(
		`edge app: packaged and built in ${Math.round(built - started)} ms, three workerd Workers up in ${Math.round(performance.now() - built)} ms`
	);
}, 240_000);

afterAll(async () => {
	await Promise.all([jwtWorker?.stop(), databaseWorker?.stop(), bareWorker?.stop()]);
	if (state) rmSync(state, { recursive: true, force: true });
});

function browser(worker: RunningWorker): TestClient {
	return appBrowser(worker.origin, '/auth', 'edge app test');
}

async function page(client: TestClient, path: string) {
	const res = await client.get(path, { headers: HTML });
	expect(res.status).toBe(200);
	return pageState(await res.text()).data;
}

async function signIn(client: TestClient, app: { origin: string }): Promise<void> {
	const { body } = await postEnhanced(client, '/signin', 'signIn', { providerId: 'credentials', ...ALICE, redirectTo: '/protected' });
	expect(body).toEqual({ type: 'redirect', status: 303, location: `${app.origin}/protected` });
	expect(client.jar.has(SESSION_COOKIE)).toBe(true);
}

async function signOut(client: TestClient): Promise<void> {
	const { res, body } = await postEnhanced(client, '/signin', 'signOut', { redirectTo: '/' });
	expect(body).toMatchObject({ type: 'redirect', status: 303 });
	expect(setCookies(res).some((cookie) => cookie.name === SESSION_COOKIE && isDeletion(cookie))).toBe(true);
	expect(client.jar.has(SESSION_COOKIE)).toBe(false);
}

describe('JWT sessions on workerd', () => {
	test('the pages load on the Workers runtime, and the handle serves /auth/* through the core', async () => {
		const client = browser(jwtWorker);
		const data = await page(client, '/');
		expect(data).toEqual({ session: null, runtime: 'Cloudflare-Workers', sessions: 'jwt' });
		const providers = await client.get('providers');
		expect(providers.status).toBe(200);
		expect(await providers.json()).toMatchObject({ credentials: { id: 'credentials', type: 'credentials' } });
		// The CSRF cookie: a token and its SHA-256 under the secret, made with Web Crypto.
		const token = await client.csrfToken();
		const cookie = decodeURIComponent(client.jar.get('authjs.csrf-token') ?? '');
		expect(cookie).toBe(`${token}|${createHash('sha256').update(token + SECRET).digest('hex')}`);
	});

	test('credentials sign-in through the form action, the session read in load, then sign-out', async () => {
		const client = browser(jwtWorker);
		await signIn(client, jwtWorker);
		expect(await page(client, '/')).toMatchObject({
			session: { user: { email: ALICE.email, name: 'Alice' } },
			runtime: 'Cloudflare-Workers'
		});
		expect(await page(client, '/protected')).toMatchObject({ email: ALICE.email });
		await signOut(client);
		expect((await page(client, '/')).session).toBeNull();
		const protectedPage = await client.get('/protected', { headers: HTML });
		expect(protectedPage.status).toBe(303);
	});

	test('a wrong password signs nobody in', async () => {
		const client = browser(jwtWorker);
		const { body } = await postEnhanced(client, '/signin', 'signIn', { providerId: 'credentials', email: ALICE.email, password: 'wrong' });
		expect(body.type).not.toBe('redirect');
		expect(client.jar.has(SESSION_COOKIE)).toBe(false);
		expect((await page(client, '/')).session).toBeNull();
	});

	test('the REST API: credentials callback with a CSRF token, then GET /auth/session', async () => {
		const client = browser(jwtWorker);
		const res = await client.signInWithCredentials('credentials', ALICE);
		expect(res.status).toBe(302);
		expect(await client.session()).toMatchObject({ user: { email: ALICE.email } });
	});

	test('an origin-less POST counts only with the double-submit CSRF token (checked with Web Crypto)', async () => {
		const client = browser(jwtWorker);
		await signIn(client, jwtWorker);
		const csrfToken = await client.csrfToken();
		const update = (body: Record<string, unknown>) =>
			fetch(`${jwtWorker.origin}/auth/session`, {
				method: 'POST',
				headers: { cookie: client.cookieHeader(), 'content-type': 'application/json' },
				body: JSON.stringify(body),
				redirect: 'manual'
			});
		const accepted = await update({ csrfToken, data: {} });
		expect(accepted.status).toBe(200);
		expect(await accepted.json()).toMatchObject({ user: { email: ALICE.email } });
		for (const body of [{ data: {} }, { csrfToken: 'f'.repeat(64), data: {} }, { csrfToken: csrfToken.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')), data: {} }]) {
			const refused = await update(body);
			expect(refused.status, JSON.stringify(body)).toBe(400);
			expect(await refused.json()).toBeNull();
		}
	});

	test('session tokens are interchangeable with Node: sealed on the edge, opened by kitauth on Node and by Auth.js', async () => {
		const client = browser(jwtWorker);
		await signIn(client, jwtWorker);
		const token = decodeURIComponent(client.jar.get(SESSION_COOKIE) ?? '');
		expect(token.split('.')).toHaveLength(5);
		expect(await decode({ token, secret: SECRET, salt: SESSION_COOKIE })).toMatchObject({ email: ALICE.email });
		expect(await authjsDecode({ token, secret: SECRET, salt: SESSION_COOKIE })).toMatchObject({ email: ALICE.email });
	});

	test('session tokens are interchangeable with Node: sealed by kitauth on Node, read in load on the edge', async () => {
		const client = browser(jwtWorker);
		const token = await encode({ token: { name: 'Node', email: 'node@example.com', sub: 'node-user' }, secret: SECRET, salt: SESSION_COOKIE });
		client.jar.set(SESSION_COOKIE, encodeURIComponent(token));
		expect((await page(client, '/')).session).toMatchObject({ user: { email: 'node@example.com', name: 'Node' } });
		const other = await encode({ token: { email: 'x@example.com' }, secret: 'another-secret-another-secret-0123456789', salt: SESSION_COOKIE });
		client.jar.set(SESSION_COOKIE, encodeURIComponent(other));
		expect((await page(client, '/')).session).toBeNull();
	});
});

describe('the secret from the bindings, with no platform.env', () => {
	test('kitauth reads AUTH_SECRET and AUTH_TRUST_HOST from the cloudflare:workers module: CSRF, sign-in, the session in load', async () => {
		const client = browser(bareWorker);
		expect(await page(client, '/')).toEqual({ session: null, runtime: 'Cloudflare-Workers', sessions: null });
		const token = await client.csrfToken();
		const cookie = decodeURIComponent(client.jar.get('authjs.csrf-token') ?? '');
		expect(cookie).toBe(`${token}|${createHash('sha256').update(token + SECRET).digest('hex')}`);
		await signIn(client, bareWorker);
		const sealed = decodeURIComponent(client.jar.get(SESSION_COOKIE) ?? '');
		expect(await decode({ token: sealed, secret: SECRET, salt: SESSION_COOKIE })).toMatchObject({ email: ALICE.email });
		expect(await page(client, '/protected')).toMatchObject({ email: ALICE.email });
	});
});

describe('database sessions in D1 on workerd', () => {
	interface Tables {
		sessions: { sessionToken: string; userId: string; expires: string }[];
		users: { id: string; email: string }[];
	}
	const tables = async (): Promise<Tables> => {
		const res = await fetch(`${databaseWorker.origin}/debug/d1`);
		expect(res.status).toBe(200);
		return (await res.json()) as Tables;
	};

	beforeAll(async () => {
		const res = await fetch(`${databaseWorker.origin}/debug/d1`, { method: 'POST', headers: { origin: databaseWorker.origin } });
		expect(res.status).toBe(200);
	});

	test('sign in: one session row in D1 (stored as the SHA-256 of the cookie), the user created; load reads it; sign out: the row is gone', async () => {
		const client = browser(databaseWorker);
		expect(await page(client, '/')).toEqual({ session: null, runtime: 'Cloudflare-Workers', sessions: 'database' });
		await signIn(client, databaseWorker);
		const cookie = decodeURIComponent(client.jar.get(SESSION_COOKIE) ?? '');
		// A random token, not a JWE: the session lives in the database.
		expect(cookie).toMatch(/^[0-9a-f]{64}$/);
		const signedIn = await tables();
		expect(signedIn.users).toEqual([{ id: expect.any(String), email: ALICE.email }]);
		expect(signedIn.sessions).toEqual([
			{ sessionToken: createHash('sha256').update(cookie).digest('hex'), userId: signedIn.users[0]!.id, expires: expect.any(String) }
		]);
		expect(await page(client, '/')).toMatchObject({ session: { user: { email: ALICE.email } } });
		expect(await page(client, '/protected')).toMatchObject({ email: ALICE.email });

		await signOut(client);
		expect((await tables()).sessions).toEqual([]);
		expect((await page(client, '/')).session).toBeNull();
		// The old cookie is worthless now.
		client.jar.set(SESSION_COOKIE, encodeURIComponent(cookie));
		expect((await page(client, '/')).session).toBeNull();
	});

	test('a cookie that names no row reads no session, and adds none', async () => {
		const client = browser(databaseWorker);
		client.jar.set(SESSION_COOKIE, 'a'.repeat(64));
		expect((await page(client, '/')).session).toBeNull();
		expect((await tables()).sessions).toEqual([]);
	});
});

describe('vite dev: Node, with the platform adapter-cloudflare emulates', () => {
	let server: Omit<RunningApp, 'databaseUrl'>;

	beforeAll(async () => {
		// The same app under `vite dev`: no `cloudflare:workers` module in Node, so the bindings
		// come from `platform.env`, which the adapter fills from wrangler.jsonc (Wrangler's local
		// bindings, on a workerd of their own).
		server = await startDevServer(join(ROOT, 'node_modules/vite/bin/vite.js'), APP, '/auth/providers', offlineWrangler(join(state, 'dev')));
	}, 120_000);

	afterAll(async () => {
		await server?.stop();
	});

	test('kitauth reads AUTH_SECRET from platform.env: the CSRF cookie is made with it, and a sign-in seals with it', async () => {
		const client = appBrowser(server.origin, '/auth', 'edge app dev test');
		const token = await client.csrfToken();
		const cookie = decodeURIComponent(client.jar.get('authjs.csrf-token') ?? '');
		expect(cookie, server.output()).toBe(`${token}|${createHash('sha256').update(token + SECRET).digest('hex')}`);
		await signIn(client, server);
		const sealed = decodeURIComponent(client.jar.get(SESSION_COOKIE) ?? '');
		expect(await decode({ token: sealed, secret: SECRET, salt: SESSION_COOKIE })).toMatchObject({ email: ALICE.email });
	});
});
