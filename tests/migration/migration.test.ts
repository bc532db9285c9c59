/**
 * Switching from Auth.js, end to end: one app written for Auth.js (tests/migration/app:
 * `@auth/sveltekit` 1.11.3 on SvelteKit 2, `@auth/drizzle-adapter` on libSQL), built as it is and
 * once more with its imports switched to kitauth as published (tests/migration/kitauth: the same
 * source, the aliases in its vite.config.ts, on SvelteKit 3), both served by adapter-node on one
 * secret and one database, behind one site address (`x-forwarded-host`, as a load balancer in
 * front of instances of either build).
 *
 * - The switch: users signed in by Auth.js are still signed in after it, on JWT and on database
 *   sessions (the row Auth.js wrote is moved to the token's hash in place), and sign out through
 *   the app's form action or as `@auth/sveltekit/client` does (a same-origin POST, no CSRF token).
 * - The rollout: with `session.hashTokens: false`, both builds serve at the same time; a session
 *   made by either is read by both, and signing out through either ends it for both. The way
 *   back: `hashTokens: false` again moves the sessions kitauth reads back to Auth.js's form.
 * - What the app's form actions answer, in each.
 */
import { createClient } from '@libsql/client';
import { generateSQLiteDrizzleJson, generateSQLiteMigration } from 'drizzle-kit/api';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { defineTables } from '../../node_modules/@auth/drizzle-adapter/lib/sqlite.js';
import { migrate } from '../../src/lib/adapters/libsql/index.js';
import { isDeletion, setCookies, TestClient } from '../support/client.js';
import { startTestIdp, type TestIdp } from '../support/oidc-provider.js';
import { buildFixture, type Fixture, packageLibrary, type RunningApp, startFixture } from '../sveltekit/kit-app-server.js';
import { HTML, pageState } from '../sveltekit/kit-client.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const APP_DIR = join(ROOT, 'tests/migration/app');
const SWITCHED_DIR = join(ROOT, 'tests/migration/kitauth');

/** The app as written: Auth.js on SvelteKit 2.20 (a workspace: `npm ci` installs its kit). */
const AUTHJS_APP: Fixture = {
	cwd: APP_DIR,
	build: [join(APP_DIR, 'node_modules/vite/bin/vite.js'), 'build'],
	out: join(APP_DIR, '.build'),
	probe: '/'
};

/** The same source, its imports switched to kitauth as published, on SvelteKit 3. */
const KITAUTH_APP: Fixture = {
	cwd: ROOT,
	build: [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'tests/migration/kitauth/vite.config.ts'],
	out: join(SWITCHED_DIR, '.build'),
	probe: '/',
	prepare: () => packageLibrary(join(SWITCHED_DIR, 'node_modules/kitauth'), { types: false })
};

/** The site's address: every instance, of either build, serves it. */
const SITE = 'http://app.example.test';
const SESSION_COOKIE = 'authjs.session-token';
const ALICE = { email: 'alice@example.com', password: 'correct horse battery staple' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

let idp: TestIdp;

beforeAll(async () => {
	idp = await startTestIdp({
		redirectUris: [`${SITE}/auth/callback/idp`],
		accounts: {
			carol: { sub: 'sub-carol-5a1f07', email: 'carol@example.test', email_verified: true, name: 'Carol' },
			dave: { sub: 'sub-dave-93be22', email: 'dave@example.test', email_verified: true, name: 'Dave' }
		}
	});
	for (const [name, fixture] of [
		['Auth.js', AUTHJS_APP],
		['kitauth', KITAUTH_APP]
	] as const) {
		const { ms } = await buildFixture(fixture);
		console.info(`migration: the ${name} build took ${ms} ms`);
	}
}, 360_000);

afterAll(async () => {
	await idp?.close();
});

// ---------------------------------------------------------------------------------------------
// Apps, databases and browsers

type Library = 'Auth.js' | 'kitauth';

interface App extends RunningApp {
	library: Library;
}

interface AppOptions {
	session: 'jwt' | 'database';
	/** A libSQL URL (database sessions). */
	database?: string;
	/** kitauth's rollout setting `session.hashTokens: false`. */
	rollout?: boolean;
}

const running: App[] = [];
const cleanups: (() => void)[] = [];

/** Stops every app still running and removes the temporary databases. */
async function stopAll(): Promise<void> {
	await Promise.all(running.splice(0).map((app) => app.stop()));
	for (const cleanup of cleanups.splice(0)) cleanup();
}

async function start(library: Library, options: AppOptions): Promise<App> {
	const app = await startFixture(library === 'Auth.js' ? AUTHJS_APP : KITAUTH_APP, {
		HOST_HEADER: 'x-forwarded-host',
		MIGRATION_APP: library,
		MIGRATION_SESSION: options.session,
		...(options.database ? { MIGRATION_DATABASE_URL: options.database } : {}),
		...(options.rollout ? { MIGRATION_HASH_TOKENS: 'false' } : {}),
		AUTH_IDP_ISSUER: idp.issuer,
		AUTH_IDP_ID: idp.clientId,
		AUTH_IDP_SECRET: idp.clientSecret
	});
	const started = { ...app, library };
	running.push(started);
	return started;
}

async function stop(app: App): Promise<void> {
	running.splice(running.indexOf(app), 1);
	await app.stop();
}

/** A database as the Auth.js app has it: `@auth/drizzle-adapter`'s SQLite tables. */
async function authJsDatabase(): Promise<string> {
	const dir = mkdtempSync(join(tmpdir(), 'kitauth-migration-'));
	cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
	const url = `file:${join(dir, 'auth.db')}`;
	const client = createClient({ url });
	try {
		const empty = await generateSQLiteDrizzleJson({});
		const tables = await generateSQLiteDrizzleJson({ ...defineTables() });
		for (const statement of await generateSQLiteMigration(empty, tables)) await client.execute(statement);
	} finally {
		client.close();
	}
	return url;
}

/** The switch's deploy step for database sessions: kitauth's migrations adopt Auth.js's tables. */
async function migrateForKitauth(url: string): Promise<void> {
	const client = createClient({ url });
	try {
		await migrate(client);
	} finally {
		client.close();
	}
}

/** The session table's keys. */
async function sessionKeys(url: string): Promise<string[]> {
	const client = createClient({ url });
	try {
		const rows = (await client.execute('SELECT sessionToken FROM session ORDER BY sessionToken')).rows;
		return rows.map((row) => String(row.sessionToken));
	} finally {
		client.close();
	}
}

interface Browser extends TestClient {
	/** Sends the next requests to this instance (the site's address stays the same). */
	through(app: App): Browser;
	/** The instance it talks to. */
	app(): App | undefined;
	/** The session cookie. */
	token(): string | undefined;
}

/** One browser on the site: one cookie jar, whichever instance answers. */
function browser(): Browser {
	let target: App | undefined;
	const client = new TestClient(
		async (request) => {
			if (!target) throw new Error('through(app) first');
			const url = new URL(request.url);
			const headers = new Headers(request.headers);
			headers.set('x-forwarded-proto', 'http');
			headers.set('x-forwarded-host', new URL(SITE).host);
			headers.set('user-agent', 'migration test');
			const body = request.body ? await request.arrayBuffer() : undefined;
			return fetch(`${target.origin}${url.pathname}${url.search}`, { method: request.method, headers, body, redirect: 'manual' });
		},
		{ origin: SITE, basePath: '/auth' }
	);
	return Object.assign(client, {
		through(app: App) {
			target = app;
			return client as Browser;
		},
		app: () => target,
		token: () => client.cookie(SESSION_COOKIE)
	});
}

/** Who the app's pages see (`locals.auth()` in the layout), and what `/auth/session` answers. */
async function signedInAs(client: Browser): Promise<{ page: string | null; session: unknown }> {
	const res = await client.get('/', { headers: HTML });
	expect(res.status).toBe(200);
	expect(res.headers.get('x-migration-app')).toBe(client.app()?.library);
	const session = pageState(await res.text()).data.session as { user?: { email?: string } } | null;
	return { page: session?.user?.email ?? null, session: await client.session() };
}

/** The app's sign-in form (credentials), posted without JavaScript. */
function postSignInForm(client: Browser, password = ALICE.password): Promise<Response> {
	return client.post('/signin', {
		form: { providerId: 'credentials', email: ALICE.email, password, redirectTo: '/protected' },
		headers: HTML
	});
}

/** The app's sign-out button (its form action), posted without JavaScript. */
function postSignOutForm(client: Browser): Promise<Response> {
	return client.post('/signout', { form: { redirectTo: '/' }, headers: HTML });
}

/** What `@auth/sveltekit/client`'s `signOut()` sends: a same-origin POST without a CSRF token. */
function clientSignOut(client: Browser): Promise<Response> {
	return client.post('/auth/signout', {
		form: { callbackUrl: `${SITE}/` },
		headers: { 'x-auth-return-redirect': '1' }
	});
}

/**
 * `@auth/sveltekit/client`'s `signIn('idp')` (a same-origin POST, no CSRF token), then the IdP's
 * login: the callback URL the IdP sends the browser back to.
 */
async function idpRoundTrip(client: Browser, login: string): Promise<string> {
	const started = await client.post('/auth/signin/idp', {
		form: { callbackUrl: `${SITE}/protected` },
		headers: { 'x-auth-return-redirect': '1' }
	});
	expect(started.status).toBe(200);
	const { url } = (await started.json()) as { url: string };
	expect(url.startsWith(idp.issuer)).toBe(true);
	return (await idp.completeInteraction(url, { login })).toString();
}

/** A sign-in through the IdP, start to end. */
async function signInWithIdp(client: Browser, login: string): Promise<void> {
	const callback = await client.get(await idpRoundTrip(client, login));
	expect(callback.status).toBe(302);
	expect(callback.headers.get('location')).toBe(`${SITE}/protected`);
	expect(client.token()).toBeDefined();
}

function sessionCleared(res: Response): boolean {
	const cookie = setCookies(res).find((c) => c.name === SESSION_COOKIE);
	return !!cookie && isDeletion(cookie);
}

/** A session's JSON without its expiry (JWT sessions slide on every read in Auth.js). */
function withoutExpiry(session: unknown): unknown {
	if (!session || typeof session !== 'object') return session;
	const { expires: _expires, ...rest } = session as Record<string, unknown>;
	return rest;
}

// ---------------------------------------------------------------------------------------------

describe('JWT sessions', () => {
	// JWT sessions live in the cookie alone: both builds serve the site at once for every test here,
	// and "the switch" is the site sending a browser to the kitauth build from then on.
	let authjs: App;
	let kitauth: App;

	beforeAll(async () => {
		[authjs, kitauth] = await Promise.all([start('Auth.js', { session: 'jwt' }), start('kitauth', { session: 'jwt' })]);
	}, 120_000);

	afterAll(stopAll);

	test('the switch: users Auth.js signed in stay signed in, and sign out through the form action or the Auth.js client', async () => {
		const [first, second] = [browser().through(authjs), browser().through(authjs)];
		for (const client of [first, second]) expect((await postSignInForm(client)).status).toBe(302);
		const before = await signedInAs(first);
		expect(before.page).toBe(ALICE.email);

		for (const client of [first, second]) {
			const after = await signedInAs(client.through(kitauth));
			expect(after.page).toBe(ALICE.email);
			expect(withoutExpiry(after.session)).toEqual(withoutExpiry(before.session));
			const page = await client.get('/protected', { headers: HTML });
			expect(page.status).toBe(200);
			expect(await page.text()).toContain(`Protected: ${ALICE.email}`);
		}

		const signedOut = await postSignOutForm(first);
		expect(signedOut.status).toBe(303);
		expect(signedOut.headers.get('location')).toBe(`${SITE}/`);
		expect(sessionCleared(signedOut)).toBe(true);
		expect(await signedInAs(first)).toEqual({ page: null, session: null });

		// A foreign Origin is refused (and ends nothing); the site's own, without a token, is not.
		const crossSite = await second.post('/auth/signout', { form: { callbackUrl: '/' }, headers: { origin: 'https://evil.example' } });
		expect(crossSite.status).toBe(403);
		expect((await signedInAs(second)).page).toBe(ALICE.email);
		const viaClient = await clientSignOut(second);
		expect(viaClient.status).toBe(200);
		expect(await viaClient.json()).toEqual({ url: `${SITE}/` });
		expect(sessionCleared(viaClient)).toBe(true);
		expect(await signedInAs(second)).toEqual({ page: null, session: null });
	});

	test('the rollout: a session made by either build is read by both, and signing out through either ends it', async () => {
		const byAuthJs = browser().through(authjs);
		expect((await postSignInForm(byAuthJs)).status).toBe(302);
		const byKitauth = browser().through(kitauth);
		expect((await postSignInForm(byKitauth)).status).toBe(303);

		for (const client of [byAuthJs, byKitauth]) {
			const [there, here] = [await signedInAs(client.through(authjs)), await signedInAs(client.through(kitauth))];
			expect([there.page, here.page]).toEqual([ALICE.email, ALICE.email]);
			expect(withoutExpiry(here.session)).toEqual(withoutExpiry(there.session));
		}

		// Auth.js's sign-out ends the session kitauth made, and kitauth's the one Auth.js made.
		expect(sessionCleared(await postSignOutForm(byKitauth.through(authjs)))).toBe(true);
		expect(sessionCleared(await postSignOutForm(byAuthJs.through(kitauth)))).toBe(true);
		for (const client of [byAuthJs, byKitauth]) {
			expect((await signedInAs(client.through(authjs))).page).toBeNull();
			expect((await signedInAs(client.through(kitauth))).page).toBeNull();
		}
	});

	test("the Auth.js client's credentials sign-in (a same-origin POST, no CSRF token) is answered alike", async () => {
		for (const app of [authjs, kitauth]) {
			const client = browser().through(app);
			const res = await client.post('/auth/callback/credentials', {
				form: { email: ALICE.email, password: ALICE.password, callbackUrl: `${SITE}/protected` },
				headers: { 'x-auth-return-redirect': '1' }
			});
			expect(res.status).toBe(200);
			expect(await res.json()).toEqual({ url: `${SITE}/protected` });
			expect((await signedInAs(client)).page).toBe(ALICE.email);
		}
	});

	test("the form actions' answers: kitauth redirects with 303 where Auth.js uses 302, and returns fail(400) where Auth.js throws", async () => {
		const answers = async (app: App) => {
			const client = browser().through(app);
			const refused = await postSignInForm(client, 'wrong');
			const signedIn = await postSignInForm(client);
			const signedOut = await postSignOutForm(client);
			return {
				refused: { status: refused.status, form: pageState(await refused.text()).form },
				signedIn: { status: signedIn.status, location: signedIn.headers.get('location') },
				signedOut: { status: signedOut.status, location: signedOut.headers.get('location') }
			};
		};
		// Auth.js's action lets `CredentialsSignin` escape: SvelteKit's error page, status 500.
		expect(await answers(authjs)).toEqual({
			refused: { status: 500, form: null },
			signedIn: { status: 302, location: `${SITE}/protected` },
			signedOut: { status: 302, location: `${SITE}/` }
		});
		expect(await answers(kitauth)).toEqual({
			refused: {
				status: 400,
				form: {
					failed: true,
					providerId: 'credentials',
					fieldErrors: {},
					formErrors: [expect.any(String)],
					error: 'CredentialsSignin',
					code: 'credentials',
					values: { email: ALICE.email }
				}
			},
			signedIn: { status: 303, location: `${SITE}/protected` },
			signedOut: { status: 303, location: `${SITE}/` }
		});
	});
});

describe('database sessions', () => {
	afterEach(stopAll);

	test('the switch: sessions Auth.js wrote stay signed in, are moved to the hash in place, and sign out both ways', async () => {
		const database = await authJsDatabase();
		const authjs = await start('Auth.js', { session: 'database', database });
		const [alice, bob] = [browser().through(authjs), browser().through(authjs)];
		await signInWithIdp(alice, 'alice');
		await signInWithIdp(bob, 'bob');
		const [aliceToken, bobToken] = [alice.token()!, bob.token()!];
		expect(aliceToken).toMatch(UUID);
		expect(await sessionKeys(database)).toEqual([aliceToken, bobToken].sort());
		const before = await signedInAs(alice);
		expect(before.page).toBe('alice@example.test');
		await stop(authjs);

		await migrateForKitauth(database);
		const kitauth = await start('kitauth', { session: 'database', database });
		const after = await signedInAs(alice.through(kitauth));
		expect(after).toEqual(before);
		// Alice's row now holds her token's hash; Bob's, not read yet, is as Auth.js wrote it.
		expect(await sessionKeys(database)).toEqual([sha256(aliceToken), bobToken].sort());
		expect(alice.token()).toBe(aliceToken);
		expect((await signedInAs(alice)).page).toBe('alice@example.test');

		const signedOut = await postSignOutForm(alice);
		expect(signedOut.status).toBe(303);
		expect(sessionCleared(signedOut)).toBe(true);
		expect(await sessionKeys(database)).toEqual([bobToken]);
		expect(await signedInAs(alice)).toEqual({ page: null, session: null });

		// Bob signs out before kitauth ever read his session: the row Auth.js wrote goes too.
		const viaClient = await clientSignOut(bob.through(kitauth));
		expect(viaClient.status).toBe(200);
		expect(sessionCleared(viaClient)).toBe(true);
		expect(await sessionKeys(database)).toEqual([]);
		expect(await signedInAs(bob)).toEqual({ page: null, session: null });
	}, 120_000);

	test('the rollout (hashTokens: false): both builds on one database at once; then the switch completes, and the way back', async () => {
		const database = await authJsDatabase();
		const authjs = await start('Auth.js', { session: 'database', database });
		const alice = browser().through(authjs);
		await signInWithIdp(alice, 'alice');

		// The rollout's deploy: kitauth's migrations, then kitauth beside the running Auth.js.
		await migrateForKitauth(database);
		const kitauth = await start('kitauth', { session: 'database', database, rollout: true });
		const [bob, carol] = [browser().through(kitauth), browser().through(kitauth)];
		const dave = browser().through(authjs);
		await signInWithIdp(bob, 'bob'); // by kitauth
		await signInWithIdp(carol, 'carol'); // by kitauth
		await signInWithIdp(dave, 'dave'); // by Auth.js, on the migrated tables

		for (const client of [alice, bob, carol, dave]) {
			const [there, here] = [await signedInAs(client.through(authjs)), await signedInAs(client.through(kitauth))];
			expect(there.page).not.toBeNull();
			expect(here).toEqual(there);
		}
		// An OAuth round-trip is one build's: started on one and finished on the other, it fails
		// (each seals its own check cookies), and the user starts again.
		for (const [from, to, error] of [
			[authjs, kitauth, '/auth/signin?error=OAuthCallbackError'],
			[kitauth, authjs, '/auth/error?error=Configuration']
		] as const) {
			const erin = browser().through(from);
			const back = await idpRoundTrip(erin, 'alice');
			const res = await erin.through(to).get(back);
			expect([res.status, res.headers.get('location'), erin.token()]).toEqual([302, `${SITE}${error}`, undefined]);
		}
		// Every row keeps the token as its key: what Auth.js looks sessions up by.
		const [aliceToken, carolToken] = [alice.token()!, carol.token()!];
		expect(await sessionKeys(database)).toEqual([aliceToken, bob.token(), carolToken, dave.token()].sort());

		// Auth.js's sign-out (its client's POST) ends kitauth's session; kitauth's form action, Auth.js's.
		expect(sessionCleared(await clientSignOut(bob.through(authjs)))).toBe(true);
		expect(sessionCleared(await postSignOutForm(dave.through(kitauth)))).toBe(true);
		expect(await sessionKeys(database)).toEqual([aliceToken, carolToken].sort());
		for (const client of [bob, dave]) {
			expect((await signedInAs(client.through(authjs))).page).toBeNull();
			expect((await signedInAs(client.through(kitauth))).page).toBeNull();
		}

		// The rollout done: Auth.js stopped, kitauth without the rollout setting. Alice, signed in by
		// Auth.js, and Carol, signed in by kitauth during the rollout, are still in; their rows move
		// to the hash as they are read.
		await Promise.all([stop(authjs), stop(kitauth)]);
		const switched = await start('kitauth', { session: 'database', database });
		expect((await signedInAs(alice.through(switched))).page).toBe('alice@example.test');
		expect((await signedInAs(carol.through(switched))).page).toBe('carol@example.test');
		expect(await sessionKeys(database)).toEqual([sha256(aliceToken), sha256(carolToken)].sort());

		// The way back, Auth.js beside kitauth with hashTokens: false again, which moves each session
		// it reads back to its token: Alice, who comes by there, is still in with Auth.js; Carol, who
		// does not, must sign in again.
		await stop(switched);
		const [goingBack, authjsAgain] = await Promise.all([
			start('kitauth', { session: 'database', database, rollout: true }),
			start('Auth.js', { session: 'database', database })
		]);
		expect((await signedInAs(alice.through(goingBack))).page).toBe('alice@example.test');
		expect(await sessionKeys(database)).toEqual([aliceToken, sha256(carolToken)].sort());
		expect((await signedInAs(alice.through(authjsAgain))).page).toBe('alice@example.test');
		expect((await signedInAs(carol.through(authjsAgain))).page).toBeNull();
	}, 180_000);
});
