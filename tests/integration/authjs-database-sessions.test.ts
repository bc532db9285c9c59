/**
 * Database sessions Auth.js wrote keep working after the switch: its rows hold the session token
 * itself, kitauth's hold the token's hash. kitauth finds such a session by the token, answers the
 * same session JSON Auth.js does, and moves the row to the hash in place (one row, no sign-out).
 * With `hashTokens: false` (a fleet running both during a rollout) nothing is moved and Auth.js
 * keeps reading every session.
 */
import { Auth as AuthJs } from '@auth/core';
import GitHubAuthJs from '@auth/core/providers/github';
import { DrizzleAdapter } from '@auth/drizzle-adapter';
import { createClient, type Client } from '@libsql/client';
import { generateSQLiteDrizzleJson, generateSQLiteMigration } from 'drizzle-kit/api';
import { drizzle } from 'drizzle-orm/libsql';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { defineTables } from '../../node_modules/@auth/drizzle-adapter/lib/sqlite.js';
import { LibSQLAdapter, migrate } from '../../src/lib/adapters/libsql/index.js';
import { Auth, type AuthConfig } from '../../src/lib/core/index.js';
import { ORIGIN, passwordProvider, SECRET, SESSION_COOKIE } from './fixtures.js';

const clients: Client[] = [];
afterEach(() => clients.splice(0).forEach((client) => client.close()));

/**
 * A database as Auth.js's drizzle adapter makes it, with one user and one session Auth.js wrote
 * (its token from Auth.js's default `generateSessionToken`, or the app's own).
 */
async function authJsWorld(generateSessionToken: () => string = randomUUID) {
	const client = createClient({ url: `file:${join(mkdtempSync(join(tmpdir(), 'kitauth-authjs-db-')), 'auth.db')}` });
	clients.push(client);
	const empty = await generateSQLiteDrizzleJson({});
	const tables = await generateSQLiteDrizzleJson({ ...defineTables() });
	for (const statement of await generateSQLiteMigration(empty, tables)) await client.execute(statement);
	const adapter = DrizzleAdapter(drizzle({ client }));
	const user = await adapter.createUser!({ id: '', name: 'Ada', email: 'ada@example.com', emailVerified: null, image: null });
	const token = generateSessionToken();
	await adapter.createSession!({ sessionToken: token, userId: user.id, expires: new Date(Date.now() + 30 * 24 * 3600 * 1000) });
	await migrate(client); // the app switches: kitauth adopts the database
	return { client, adapter, user, token };
}

function authJsConfig(adapter: ReturnType<typeof DrizzleAdapter>) {
	return { secret: SECRET, trustHost: true, adapter, providers: [GitHubAuthJs({ clientId: 'x', clientSecret: 'y' })] };
}

function kitauthConfig(client: Client, extra: Partial<AuthConfig> = {}): AuthConfig {
	return { secret: SECRET, trustHost: true, adapter: LibSQLAdapter(client), providers: [passwordProvider()], ...extra };
}

async function sessionJson(handler: (request: Request) => Promise<Response>, token: string) {
	const res = await handler(new Request(`${ORIGIN}/auth/session`, { headers: { cookie: `${SESSION_COOKIE}=${token}` } }));
	return { status: res.status, body: (await res.json()) as unknown, cleared: res.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=;`)) };
}

async function sessionKeys(client: Client): Promise<string[]> {
	return (await client.execute('SELECT sessionToken FROM session')).rows.map((row) => String(row.sessionToken));
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

describe('a database session Auth.js wrote', () => {
	test('reads as the same session JSON Auth.js answers, and is moved to the token’s hash in place', async () => {
		const { client, adapter, token } = await authJsWorld();
		const before = await sessionJson((r) => AuthJs(r, authJsConfig(adapter)), token);
		expect(before.body).toMatchObject({ user: { name: 'Ada', email: 'ada@example.com', image: null } });

		const config = kitauthConfig(client);
		const read = await sessionJson((r) => Auth(r, config), token);
		expect(read).toEqual({ ...before, cleared: false });
		expect(await sessionKeys(client)).toEqual([sha256(token)]);

		// Read again (now by the hash), and signed out like any session.
		expect((await sessionJson((r) => Auth(r, config), token)).body).toEqual(before.body);
		expect(await sessionKeys(client)).toEqual([sha256(token)]);
	});

	test.each([
		['base64url', () => randomBytes(32).toString('base64url')],
		['a prefixed id', () => `sess_${randomBytes(16).toString('hex')}`],
		['128 hex digits', () => randomBytes(64).toString('hex')]
	])("a token of the app's own generateSessionToken (%s) is carried over too", async (_shape, generate) => {
		const { client, adapter, token } = await authJsWorld(generate);
		const before = await sessionJson((r) => AuthJs(r, authJsConfig(adapter)), token);
		expect(before.body).toMatchObject({ user: { email: 'ada@example.com' } });
		const read = await sessionJson((r) => Auth(r, kitauthConfig(client)), token);
		expect(read).toEqual({ ...before, cleared: false });
		expect(await sessionKeys(client)).toEqual([sha256(token)]);
	});

	test('a token of 64 hex digits (the shape of a stored hash) is read only with hashTokens: false', async () => {
		const { client, token } = await authJsWorld(() => randomBytes(32).toString('hex'));
		const read = await sessionJson((r) => Auth(r, kitauthConfig(client)), token);
		expect(read).toEqual({ status: 200, body: null, cleared: true });
		expect(await sessionKeys(client)).toEqual([token]);
		const kept = await sessionJson((r) => Auth(r, kitauthConfig(client, { session: { hashTokens: false } })), token);
		expect(kept.body).toMatchObject({ user: { email: 'ada@example.com' } });
	});

	test('signing out before any read deletes it', async () => {
		const { client, token } = await authJsWorld();
		const config = kitauthConfig(client);
		const csrf = await Auth(new Request(`${ORIGIN}/auth/csrf`), config);
		const csrfCookie = csrf.headers.getSetCookie()[0]!.split(';')[0]!;
		const { csrfToken } = (await csrf.json()) as { csrfToken: string };
		const res = await Auth(
			new Request(`${ORIGIN}/auth/signout`, {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `${csrfCookie}; ${SESSION_COOKIE}=${token}`, origin: ORIGIN },
				body: new URLSearchParams({ csrfToken })
			}),
			config
		);
		expect(res.status).toBe(302);
		expect(await sessionKeys(client)).toEqual([]);
	});

	test('many requests at once with the same cookie: one row afterwards, every one signed in', async () => {
		const { client, token } = await authJsWorld();
		const config = kitauthConfig(client);
		const reads = await Promise.all(Array.from({ length: 8 }, () => sessionJson((r) => Auth(r, config), token)));
		for (const read of reads) expect(read.body).toMatchObject({ user: { email: 'ada@example.com' } });
		expect(await sessionKeys(client)).toEqual([sha256(token)]);
	});

	test('a cookie that is a stored hash is not a session (a leaked table’s hashes are no cookies)', async () => {
		const { client, token } = await authJsWorld();
		const config = kitauthConfig(client);
		await sessionJson((r) => Auth(r, config), token); // moved: the row's key is now sha256(token)
		const forged = await sessionJson((r) => Auth(r, config), sha256(token));
		expect(forged.body).toBeNull();
		expect(await sessionKeys(client)).toEqual([sha256(token)]);
	});
});

describe('the session callback', () => {
	test("gets what @auth/core gives it: the stored session ({ sessionToken, userId, expires: Date }) with its user", async () => {
		const { client, adapter, user, token } = await authJsWorld();
		type Params = Record<string, unknown> & { session: Record<string, unknown>; user: Record<string, unknown> };
		const seen: Params[] = [];
		const capture = (params: object) => {
			seen.push({ ...params } as Params);
			return { expires: new Date().toISOString() };
		};
		await sessionJson((r) => AuthJs(r, { ...authJsConfig(adapter), callbacks: { session: capture } }), token);
		await sessionJson((r) => Auth(r, kitauthConfig(client, { callbacks: { session: capture } })), token);
		const [theirs, ours] = seen;
		expect(theirs!.session).toMatchObject({ sessionToken: token, userId: user.id, expires: expect.any(Date), user: theirs!.user });
		expect(Object.keys(ours!).sort()).toEqual(Object.keys(theirs!).filter((key) => theirs![key] !== undefined).sort());
		expect(ours!.user).toEqual(theirs!.user);
		expect(ours!.session).toMatchObject({ userId: user.id, expires: expect.any(Date), user: theirs!.user });
		// The documented difference: the key the session is stored under (here moved to the token's hash).
		expect(ours!.session.sessionToken).toBe(sha256(token));
	});
});

describe("kitauth on Auth.js's own @auth/drizzle-adapter", () => {
	test('reads the sessions Auth.js wrote, leaving their rows as they are (no rekeySession), and stores its own hashed', async () => {
		const { client, adapter, token } = await authJsWorld();
		expect('rekeySession' in adapter).toBe(false);
		const config: AuthConfig = { secret: SECRET, trustHost: true, adapter, providers: [passwordProvider()] };
		expect((await sessionJson((r) => Auth(r, config), token)).body).toMatchObject({ user: { email: 'ada@example.com' } });
		expect(await sessionKeys(client)).toEqual([token]);

		const { TestClient } = await import('../support/client.js');
		const browser = new TestClient((r) => Auth(r, config), { origin: ORIGIN });
		await browser.signInWithCredentials('credentials', { username: 'alice', password: 'wonderland' });
		const ours = browser.cookie(SESSION_COOKIE)!;
		expect((await sessionKeys(client)).sort()).toEqual([token, sha256(ours)].sort());
		expect(((await browser.session()) as { user?: { email?: string } }).user?.email).toBe('alice@example.com');
	});
});

describe('hashTokens: false (both libraries running during a rollout)', () => {
	test('nothing is moved: Auth.js keeps reading the sessions, kitauth’s new ones included', async () => {
		const { client, adapter, token } = await authJsWorld();
		const config = kitauthConfig(client, { session: { hashTokens: false } });
		const authjs = (r: Request) => AuthJs(r, authJsConfig(adapter));
		expect((await sessionJson((r) => Auth(r, config), token)).body).toEqual((await sessionJson(authjs, token)).body);
		expect(await sessionKeys(client)).toEqual([token]);

		const signIn = await import('../support/client.js').then(({ TestClient }) => new TestClient((r) => Auth(r, config), { origin: ORIGIN }));
		await signIn.signInWithCredentials('credentials', { username: 'alice', password: 'wonderland' });
		const ours = signIn.cookie(SESSION_COOKIE)!;
		expect(await sessionKeys(client)).toContain(ours);
		expect((await sessionJson(authjs, ours)).body).toMatchObject({ user: { email: 'alice@example.com' } });
	});

	test('a session kitauth made during the rollout survives its end, and is moved to the hash like Auth.js’s', async () => {
		const { client } = await authJsWorld();
		const { TestClient } = await import('../support/client.js');
		const rollout = kitauthConfig(client, { session: { hashTokens: false } });
		const browser = new TestClient((r) => Auth(r, rollout), { origin: ORIGIN });
		await browser.signInWithCredentials('credentials', { username: 'alice', password: 'wonderland' });
		const token = browser.cookie(SESSION_COOKIE)!;

		// The rollout done: hashing back on (the default).
		const switched = kitauthConfig(client);
		expect((await sessionJson((r) => Auth(r, switched), token)).body).toMatchObject({ user: { email: 'alice@example.com' } });
		expect(await sessionKeys(client)).toContain(sha256(token));
		expect(await sessionKeys(client)).not.toContain(token);
	});
});

describe('the way back to Auth.js (hashTokens: false after the switch)', () => {
	test('a session moved to its hash moves back to the token on its next read, and Auth.js reads it again', async () => {
		const { client, adapter, token } = await authJsWorld();
		await sessionJson((r) => Auth(r, kitauthConfig(client)), token); // the switch: moved to the hash
		expect(await sessionKeys(client)).toEqual([sha256(token)]);
		const authjs = (r: Request) => AuthJs(r, authJsConfig(adapter));
		expect((await sessionJson(authjs, token)).body).toBeNull(); // what a rollback now would do

		const goingBack = kitauthConfig(client, { session: { hashTokens: false } });
		expect((await sessionJson((r) => Auth(r, goingBack), token)).body).toMatchObject({ user: { email: 'ada@example.com' } });
		expect(await sessionKeys(client)).toEqual([token]);
		expect((await sessionJson(authjs, token)).body).toMatchObject({ user: { email: 'ada@example.com' } });
	});

	test('signing out with hashTokens: false deletes a session stored under its hash', async () => {
		const { client, token } = await authJsWorld();
		await sessionJson((r) => Auth(r, kitauthConfig(client)), token);
		const goingBack = kitauthConfig(client, { session: { hashTokens: false } });
		const { TestClient } = await import('../support/client.js');
		const browser = new TestClient((r) => Auth(r, goingBack), { origin: ORIGIN });
		browser.setCookie(SESSION_COOKIE, token);
		expect((await browser.postForm('signout')).status).toBe(302);
		expect(await sessionKeys(client)).toEqual([]);
	});
});

describe('JWT sessions', () => {
	test('the same session JSON as Auth.js for the same cookie (name, email, image; null kept, no id)', async () => {
		const { encode } = await import('@auth/core/jwt');
		for (const claims of [
			{ name: 'Ada', email: 'ada@example.com', picture: 'https://img.example/ada.png', sub: 'u-1' },
			{ name: null, email: 'ada@example.com', picture: null, sub: 'u-1' },
			{ email: 'ada@example.com', sub: 'u-1' }
		]) {
			const token = await encode({ token: claims, secret: SECRET, salt: SESSION_COOKIE });
			const providers = [GitHubAuthJs({ clientId: 'x', clientSecret: 'y' })];
			const theirs = await sessionJson((r) => AuthJs(r, { secret: SECRET, trustHost: true, providers }), token);
			const config: AuthConfig = { secret: SECRET, trustHost: true, providers: [passwordProvider()] };
			const ours = await sessionJson((r) => Auth(r, config), token);
			const withoutExpiry = ({ expires: _expires, ...rest }: Record<string, unknown>) => rest;
			expect(withoutExpiry(ours.body as Record<string, unknown>)).toEqual(withoutExpiry(theirs.body as Record<string, unknown>));
			expect(Object.keys(ours.body as object).sort()).toEqual(Object.keys(theirs.body as object).sort());
		}
	});
});
