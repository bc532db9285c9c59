/**
 * Session hardening (OWASP ASVS 5.0 V7 and V3.3):
 * - the session cookie is `__Host-` on https (3.3.3), and Auth.js's `__Secure-` cookie is read once
 *   and replaced;
 * - a malformed, planted or foreign chunk set never signs a user out: a valid whole cookie wins,
 *   and what does not open is ignored, not deleted with it;
 * - JWT sessions have an absolute lifetime too (7.3.2), kept as the sign-in time in the token;
 * - every sign-in issues a new session token (7.2.4), on both strategies;
 * - every session of a user can be ended (7.4.2, 7.4.3, 7.4.5): `endAllSessions()`,
 *   `endSessionsOf(userId)`, `credentialsChanged()` — by default on a credential change — with
 *   JWT sessions revoked through a per-user cutoff in the adapter, and what JWT cannot do without one;
 * - no session value in URLs, logs or JSON (14.2.1, 3.3.4).
 */
import { createClient, type Client } from '@libsql/client';
import { encode as authjsEncode } from '@auth/core/jwt';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { LibSQLAdapter, migrate } from '../../src/lib/adapters/libsql/index.js';
import { createAuthServer, type CurrentSession } from '../../src/lib/core/index.js';
import { CHUNK_SIZE } from '../../src/lib/core/session/cookies.js';
import type { AuthConfig, CredentialsChangedMessage, Session, WarningCode } from '../../src/lib/core/types.js';
import { decode, encode } from '../../src/lib/jwt.js';
import { isDeletion, setCookies, type TestClient } from '../support/client.js';
import { openStore, sha256 } from './database-fixtures.js';
import { authenticate, authenticator as passkeyAuthenticator, passkeySetup, register } from './passkey-fixtures.js';
import {
	ALICE,
	ALICE_LOGIN,
	expectNoSessionGranted,
	location,
	SECRET,
	SESSION_COOKIE,
	sessionCookiesCleared,
	sessionCookiesSet,
	sessionWithUserId,
	setup,
	signedIn,
	type Setup
} from './fixtures.js';

const HTTPS = 'https://app.example';
const HOST_COOKIE = `__Host-${SESSION_COOKIE}`;
const SECURE_COOKIE = `__Secure-${SESSION_COOKIE}`;
const CLAIMS = { name: ALICE.name, email: ALICE.email, sub: ALICE.id };
const T0 = Date.parse('2031-05-01T08:00:00Z');
const MINUTE = 60_000;

afterEach(() => {
	vi.useRealTimers();
});

async function sessionOf(client: TestClient): Promise<Session | null> {
	return (await client.session()) as Session | null;
}

/** Every cookie a response sets or deletes, by name. */
function touched(res: Response): string[] {
	return setCookies(res).map((c) => c.name);
}

describe('__Host- session cookie on https (ASVS 3.3.3)', () => {
	test('https: __Host-authjs.session-token with Secure, Path=/ and no Domain; the CSRF cookie __Host- too', async () => {
		const s = setup({}, HTTPS);
		const client = s.client();
		const res = await client.signInWithCredentials('credentials', { ...ALICE_LOGIN });
		const cookie = setCookies(res).find((c) => c.name === HOST_COOKIE);
		expect(cookie, touched(res).join()).toBeDefined();
		expect(cookie!.attributes).toMatchObject({ secure: true, path: '/', httponly: true });
		expect(cookie!.attributes.domain).toBeUndefined();
		expect(touched(res)).not.toContain(SECURE_COOKIE);
		expect(client.jar.has('__Host-authjs.csrf-token')).toBe(true);
		expect((await sessionOf(client))?.user?.email).toBe(ALICE.email);
	});

	test('a cookie domain (shared across subdomains) keeps the __Secure- name, which a Domain allows', async () => {
		const s = setup({ cookies: { sessionToken: { options: { domain: 'app.example' } } } }, HTTPS);
		const res = await s.client().signInWithCredentials('credentials', { ...ALICE_LOGIN });
		const cookie = setCookies(res).find((c) => c.name === SECURE_COOKIE);
		expect(cookie?.attributes.domain).toBe('app.example');
		expect(touched(res)).not.toContain(HOST_COOKIE);
	});

	test('plain http keeps the plain name', async () => {
		const res = await setup().client().signInWithCredentials('credentials', { ...ALICE_LOGIN });
		expect(sessionCookiesSet(res)).toEqual([SESSION_COOKIE]);
	});

	test("JWT: Auth.js's __Secure- cookie is read once and replaced by the __Host- one", async () => {
		const legacy = await authjsEncode({ token: CLAIMS, secret: SECRET, salt: SECURE_COOKIE });
		const client = setup({}, HTTPS).client();
		client.setCookie(SECURE_COOKIE, legacy);
		const first = await client.get('session');
		expect(((await first.json()) as Session).user?.email).toBe(ALICE.email);
		expect(sessionCookiesSet(first, HOST_COOKIE)).toEqual([HOST_COOKIE]);
		expect(sessionCookiesCleared(first, SECURE_COOKIE)).toEqual([SECURE_COOKIE]);
		expect([...client.jar.keys()].filter((n) => n.includes('session-token'))).toEqual([HOST_COOKIE]);
		// Sealed under its own name now, and still the same user.
		expect(await decode({ token: client.cookie(HOST_COOKIE)!, secret: SECRET, salt: HOST_COOKIE })).toMatchObject({ sub: ALICE.id });
		const second = await client.get('session');
		expect(((await second.json()) as Session).user?.email).toBe(ALICE.email);
		expect(touched(second)).toEqual([]);
	});

	test("JWT: a token sealed for the __Secure- name does not open as the __Host- cookie (each name its own key)", async () => {
		const legacy = await authjsEncode({ token: CLAIMS, secret: SECRET, salt: SECURE_COOKIE });
		const client = setup({}, HTTPS).client();
		client.setCookie(HOST_COOKIE, legacy);
		expect(await sessionOf(client)).toBeNull();
	});

	test("database sessions: Auth.js's __Secure- cookie moves to __Host- with the same token; sign-out clears both", async () => {
		const store = await openStore('memory');
		try {
			const s = setup({ adapter: store.adapter, callbacks: { session: sessionWithUserId } }, HTTPS);
			const client = await signedIn(s);
			const token = client.cookie(HOST_COOKIE)!;
			expect(token).toMatch(/^[0-9a-f]{64}$/);
			// As Auth.js would have set it.
			client.jar.delete(HOST_COOKIE);
			client.setCookie(SECURE_COOKIE, token);
			const read = await client.get('session');
			expect(((await read.json()) as Session).user?.email).toBe(ALICE.email);
			expect(client.cookie(HOST_COOKIE)).toBe(token);
			expect(client.jar.has(SECURE_COOKIE)).toBe(false);
			expect(setCookies(read).find((c) => c.name === HOST_COOKIE)?.attributes.expires).toBeDefined();

			client.setCookie(SECURE_COOKIE, token);
			const out = await client.postForm('signout');
			expect(sessionCookiesCleared(out, HOST_COOKIE)).toEqual([HOST_COOKIE]);
			expect(sessionCookiesCleared(out, SECURE_COOKIE)).toEqual([SECURE_COOKIE]);
			expect(await store.sessions()).toEqual([]);
		} finally {
			store.close();
		}
	});

	test('a garbage __Secure- cookie beside a valid __Host- one changes nothing', async () => {
		const client = await signedIn(setup({}, HTTPS), HTTPS);
		const before = client.cookie(HOST_COOKIE);
		client.setCookie(SECURE_COOKIE, 'garbage');
		const res = await client.get('session');
		expect(((await res.json()) as Session).user?.email).toBe(ALICE.email);
		expect(touched(res)).toEqual([]);
		expect(client.cookie(HOST_COOKIE)).toBe(before);
	});
});

describe('chunks never lock a user out: a valid whole cookie wins, garbage is ignored', () => {
	const GARBAGE = ['garbage', 'eyJhbGciOiJkaXIifQ..AAAA.BBBB.CCCC', '%', 'x'.repeat(CHUNK_SIZE)];

	test.each(GARBAGE.map((g) => [g.slice(0, 24), g]))('a planted %s as authjs.session-token.0: still signed in, nothing deleted', async (_label, garbage) => {
		const client = await signedIn(setup());
		const valid = client.cookie(SESSION_COOKIE)!;
		client.setCookie(`${SESSION_COOKIE}.0`, garbage);
		const res = await client.get('session');
		expect(((await res.json()) as Session).user?.email).toBe(ALICE.email);
		expect(sessionCookiesCleared(res)).toEqual([]);
		expect(client.cookie(SESSION_COOKIE)).toBe(valid);
		// Still signed in on every later request too.
		expect((await sessionOf(client))?.user?.email).toBe(ALICE.email);
	});

	test('a foreign chunk set (another secret, several chunks, a gap) beside the valid cookie: still signed in', async () => {
		const client = await signedIn(setup());
		const foreign = await encode({ token: { sub: 'mallory', pad: 'p'.repeat(CHUNK_SIZE) }, secret: 'another-secret-0123456789abcdef0123456789', salt: SESSION_COOKIE });
		client.setCookie(`${SESSION_COOKIE}.0`, foreign.slice(0, CHUNK_SIZE));
		client.setCookie(`${SESSION_COOKIE}.1`, foreign.slice(CHUNK_SIZE));
		client.setCookie(`${SESSION_COOKIE}.3`, 'gap');
		const res = await client.get('session');
		expect(((await res.json()) as Session).user?.email).toBe(ALICE.email);
		expect(sessionCookiesCleared(res)).toEqual([]);
	});

	test("an attacker's own valid session tossed in as chunks does not replace the victim's cookie (login CSRF)", async () => {
		const s = setup();
		const victim = await signedIn(s);
		const mallory = await encode({ token: { name: 'Mallory', email: 'mallory@example.com', sub: 'mallory' }, secret: SECRET, salt: SESSION_COOKIE });
		victim.setCookie(`${SESSION_COOKIE}.0`, mallory);
		expect((await sessionOf(victim))?.user?.email).toBe(ALICE.email);
	});

	test('valid chunks beside a garbage whole cookie: signed in through the chunks', async () => {
		const s = setup({ callbacks: { jwt: ({ token }) => ({ ...token, blob: 'b'.repeat(CHUNK_SIZE) }) } });
		const client = await signedIn(s);
		expect(client.jar.has(`${SESSION_COOKIE}.0`)).toBe(true);
		client.setCookie(SESSION_COOKIE, 'garbage');
		const res = await client.get('session');
		expect(((await res.json()) as Session).user?.email).toBe(ALICE.email);
		expect(sessionCookiesCleared(res).filter((n) => n !== SESSION_COOKIE)).toEqual([]);
	});

	test('on https, the __Host- cookie with a planted chunk: still signed in', async () => {
		const client = await signedIn(setup({}, HTTPS), HTTPS);
		client.setCookie(`${HOST_COOKIE}.0`, 'garbage');
		const res = await client.get('session');
		expect(((await res.json()) as Session).user?.email).toBe(ALICE.email);
		expect(touched(res)).toEqual([]);
	});

	test('control: nothing valid at all → no session, and the unreadable cookies are cleared', async () => {
		const client = setup().client();
		client.setCookie(SESSION_COOKIE, 'garbage');
		client.setCookie(`${SESSION_COOKIE}.0`, 'more');
		const res = await client.get('session');
		expect(await res.json()).toBeNull();
		expect(sessionCookiesCleared(res).sort()).toEqual([SESSION_COOKIE, `${SESSION_COOKIE}.0`]);
	});
});

describe('JWT sessions have an absolute lifetime too (session.absoluteMaxAge, ASVS 7.3.2)', () => {
	const config: Partial<AuthConfig> = { session: { strategy: 'jwt', maxAge: 24 * 3600, updateAge: 0, absoluteMaxAge: 3600 } };

	test('kept busy, the session still ends an hour after sign-in; every cookie expires by then', async () => {
		vi.setSystemTime(T0);
		const client = await signedIn(setup(config));
		const authTime = Math.floor(T0 / 1000);
		expect((await decode({ token: client.cookie(SESSION_COOKIE)!, secret: SECRET, salt: SESSION_COOKIE }))?.exp).toBe(authTime + 3600);
		for (const minutes of [10, 30, 59]) {
			vi.setSystemTime(T0 + minutes * MINUTE);
			const res = await client.get('session');
			const session = (await res.json()) as Session;
			expect(session.user?.email, `${minutes} min`).toBe(ALICE.email);
			expect(Date.parse(session.expires)).toBe((authTime + 3600) * 1000);
			const claims = await decode({ token: client.cookie(SESSION_COOKIE)!, secret: SECRET, salt: SESSION_COOKIE });
			expect(claims).toMatchObject({ auth_time: authTime, exp: authTime + 3600 });
		}
		vi.setSystemTime(T0 + 61 * MINUTE);
		// The browser would have dropped the cookie; one replayed anyway opens no more.
		const res = await client.get('session');
		expect(await res.json()).toBeNull();
	});

	test('the check is the server\'s: a token whose exp was forged past it (custom encode, long exp) still ends', async () => {
		vi.setSystemTime(T0);
		const long = await encode({ token: { ...CLAIMS, auth_time: Math.floor(T0 / 1000) }, secret: SECRET, salt: SESSION_COOKIE, maxAge: 30 * 24 * 3600 });
		const client = setup(config).client();
		client.setCookie(SESSION_COOKIE, long);
		vi.setSystemTime(T0 + 30 * MINUTE);
		expect((await sessionOf(client))?.user?.email).toBe(ALICE.email);
		// The cookie the browser got back above expires with the absolute end; the original does not.
		vi.setSystemTime(T0 + 61 * MINUTE);
		client.setCookie(SESSION_COOKIE, long);
		const res = await client.get('session');
		expect(await res.json()).toBeNull();
		expect(sessionCookiesCleared(res)).toEqual([SESSION_COOKIE]);
	});

	test("an Auth.js token (no auth_time) ends absoluteMaxAge after it was issued, however often it is replayed; it is no sign-in for sudo mode", async () => {
		vi.setSystemTime(T0);
		const legacy = await authjsEncode({ token: CLAIMS, secret: SECRET, salt: SESSION_COOKIE });
		const s = setup(config);
		const client = s.client();
		client.setCookie(SESSION_COOKIE, legacy);
		vi.setSystemTime(T0 + 10 * MINUTE);
		const first = await client.get('session');
		expect(sessionCookiesSet(first)).toEqual([SESSION_COOKIE]);
		const claims = await decode({ token: client.cookie(SESSION_COOKIE)!, secret: SECRET, salt: SESSION_COOKIE });
		expect(claims).toMatchObject({ kitauth_session_start: Math.floor(T0 / 1000), exp: Math.floor(T0 / 1000) + 3600 });
		expect(claims?.auth_time).toBeUndefined();
		expect((await currentOf(s, client)).authenticatedAt).toBeNull();
		vi.setSystemTime(T0 + 59 * MINUTE);
		expect((await sessionOf(client))?.user?.email).toBe(ALICE.email);
		// The original, replayed after the end: the same start is found in it (its iat).
		vi.setSystemTime(T0 + 61 * MINUTE);
		const replay = s.client();
		replay.setCookie(SESSION_COOKIE, legacy);
		expect(await sessionOf(replay)).toBeNull();
	});

	test('control: without absoluteMaxAge a busy JWT session goes on', async () => {
		vi.setSystemTime(T0);
		const client = await signedIn(setup({ session: { strategy: 'jwt', maxAge: 24 * 3600, updateAge: 0 } }));
		for (const hours of [2, 20, 40]) {
			vi.setSystemTime(T0 + hours * 60 * MINUTE);
			expect((await sessionOf(client))?.user?.email, `${hours} h`).toBe(ALICE.email);
		}
	});
});

describe('every sign-in issues a new session token (ASVS 7.2.4)', () => {
	test('JWT: a second sign-in in the same browser gets a new token (new jti, iat, auth_time)', async () => {
		vi.setSystemTime(T0);
		const client = await signedIn(setup());
		const first = client.cookie(SESSION_COOKIE)!;
		vi.setSystemTime(T0 + MINUTE);
		expect((await client.signInWithCredentials('credentials', { ...ALICE_LOGIN })).status).toBe(302);
		const second = client.cookie(SESSION_COOKIE)!;
		expect(second).not.toBe(first);
		const [a, b] = await Promise.all([first, second].map((token) => decode({ token, secret: SECRET, salt: SESSION_COOKIE })));
		expect(b!.jti).not.toBe(a!.jti);
		expect(Number(b!.auth_time)).toBe(Number(a!.auth_time) + 60);
	});

	test('database: a second sign-in ends the first session; a planted pre-login cookie is never adopted', async () => {
		const store = await openStore('memory');
		try {
			const s = setup({ adapter: store.adapter, callbacks: { session: sessionWithUserId } });
			const client = await signedIn(s);
			const first = client.cookie(SESSION_COOKIE)!;
			expect((await client.signInWithCredentials('credentials', { ...ALICE_LOGIN })).status).toBe(302);
			const second = client.cookie(SESSION_COOKIE)!;
			expect(second).not.toBe(first);
			expect((await store.sessions()).map((row) => row.sessionToken)).toEqual([sha256(second)]);
			const old = s.client();
			old.setCookie(SESSION_COOKIE, first);
			expect(await sessionOf(old)).toBeNull();

			// Session fixation: a value planted before sign-in is replaced, and never becomes a session.
			const victim = s.client();
			victim.setCookie(SESSION_COOKIE, 'a'.repeat(64));
			await victim.signInWithCredentials('credentials', { ...ALICE_LOGIN });
			expect(victim.cookie(SESSION_COOKIE)).not.toBe('a'.repeat(64));
			expect((await store.sessions()).some((row) => row.sessionToken === sha256('a'.repeat(64)) || row.sessionToken === 'a'.repeat(64))).toBe(false);
		} finally {
			store.close();
		}
	});
});

/** A libSQL database for the suites that end sessions; `adapter()` makes another adapter on it. */
async function database() {
	const db: Client = createClient({ url: ':memory:' });
	await migrate(db);
	return { db, adapter: LibSQLAdapter(db), close: () => db.close() };
}

/** The server API's view of a browser's session. */
function currentOf(s: Setup, client: TestClient): Promise<CurrentSession> {
	return createAuthServer(s.config).session({
		url: new URL(`${client.origin}/account`),
		request: new Request(`${client.origin}/account`, { headers: { cookie: client.cookieHeader() } })
	});
}

/** Applies cookies a server-API call answered to the browser's jar, as an integration does. */
function apply(client: TestClient, cookies: readonly { name: string; value: string; options: { maxAge?: number } }[]): void {
	for (const cookie of cookies) {
		if (cookie.options.maxAge === 0) client.jar.delete(cookie.name);
		else client.setCookie(cookie.name, cookie.value);
	}
}

describe.each(['database', 'jwt'] as const)('ending every session of a user (%s sessions, libSQL adapter)', (strategy) => {
	async function world(extra: Partial<AuthConfig> = {}) {
		const data = await database();
		const events: CredentialsChangedMessage[] = [];
		const warnings: WarningCode[] = [];
		const s = setup({
			adapter: data.adapter,
			session: { strategy },
			callbacks: { session: sessionWithUserId },
			events: { credentialsChanged: (message) => void events.push(message) },
			...extra
		});
		s.config.logger = { ...s.config.logger, warn: (code) => void warnings.push(code) };
		const [laptop, phone, tablet] = [await signedIn(s), await signedIn(s), await signedIn(s)];
		return { ...data, s, events, warnings, laptop, phone, tablet };
	}

	test('credentialsChanged("password") from one browser: the others are signed out, it stays; the event says so', async () => {
		const w = await world();
		try {
			vi.setSystemTime(Date.now() + 1500);
			const ended = await (await currentOf(w.s, w.laptop)).credentialsChanged('password');
			apply(w.laptop, ended.cookies);
			expect(ended).toMatchObject(strategy === 'database' ? { deleted: 2, jwtRevoked: false } : { deleted: 0, jwtRevoked: true });
			expect((await sessionOf(w.laptop))?.user?.email).toBe(ALICE.email);
			expect(await sessionOf(w.phone)).toBeNull();
			expect(await sessionOf(w.tablet)).toBeNull();
			expect(w.events).toEqual([{ userId: ALICE.id, change: 'password', ended: 'others', deleted: ended.deleted, jwtRevoked: ended.jwtRevoked }]);
			// A new sign-in afterwards is unaffected.
			expect((await sessionOf(await signedIn(w.s)))?.user?.email).toBe(ALICE.email);
		} finally {
			w.close();
		}
	});

	test('endAllSessions(): this browser too (its cookie cleared), and a new sign-in works', async () => {
		const w = await world();
		try {
			vi.setSystemTime(Date.now() + 1500);
			const ended = await (await currentOf(w.s, w.laptop)).endAllSessions();
			expect(ended.cookies.map((c) => c.name)).toContain(SESSION_COOKIE);
			const replay = w.s.client();
			replay.setCookie(SESSION_COOKIE, w.laptop.cookie(SESSION_COOKIE)!);
			apply(w.laptop, ended.cookies);
			for (const client of [w.laptop, w.phone, w.tablet, replay]) expect(await sessionOf(client)).toBeNull();
			expect((await sessionOf(await signedIn(w.s)))?.user?.email).toBe(ALICE.email);
		} finally {
			w.close();
		}
	});

	test('server.endSessionsOf(userId) (an admin tool): every browser, also through another instance on the same database', async () => {
		const w = await world({ session: { strategy, revocationCheckInterval: 0 } });
		try {
			// Another app instance: its own process memory, the same database.
			const other = setup({ ...w.s.config, adapter: LibSQLAdapter(w.db) });
			const elsewhere = w.s.client();
			elsewhere.jar.set(SESSION_COOKIE, w.tablet.jar.get(SESSION_COOKIE)!);
			const elsewhereClient = other.client();
			for (const [name, value] of elsewhere.jar) elsewhereClient.jar.set(name, value);
			expect((await sessionOf(elsewhereClient))?.user?.email).toBe(ALICE.email);

			vi.setSystemTime(Date.now() + 1500);
			const ended = await createAuthServer(w.s.config).endSessionsOf(ALICE.id);
			expect(ended).toEqual(strategy === 'database' ? { deleted: 3, jwtRevoked: false } : { deleted: 0, jwtRevoked: true });
			for (const client of [w.laptop, w.phone, w.tablet, elsewhereClient]) expect(await sessionOf(client)).toBeNull();
		} finally {
			w.close();
		}
	});

	test('session.endOnCredentialChange: false — nothing ends, the event still fires', async () => {
		const w = await world({ session: { strategy, endOnCredentialChange: false } });
		try {
			const ended = await (await currentOf(w.s, w.laptop)).credentialsChanged('email');
			expect(ended).toEqual({ deleted: 0, jwtRevoked: false, cookies: [] });
			for (const client of [w.laptop, w.phone]) expect((await sessionOf(client))?.user?.email).toBe(ALICE.email);
			expect(w.events).toMatchObject([{ change: 'email', ended: 'none' }]);
		} finally {
			w.close();
		}
	});

	test('server.credentialsChanged(userId) without a session (a reset by emailed link): all sessions end', async () => {
		const w = await world();
		try {
			vi.setSystemTime(Date.now() + 1500);
			await createAuthServer(w.s.config).credentialsChanged(ALICE.id, 'password');
			for (const client of [w.laptop, w.phone, w.tablet]) expect(await sessionOf(client)).toBeNull();
			expect(w.events).toMatchObject([{ userId: ALICE.id, change: 'password', ended: 'all' }]);
		} finally {
			w.close();
		}
	});
});

describe('JWT sessions without a cutoff store: what can and cannot be ended', () => {
	test('the asking browser is signed out; the others cannot be (jwtRevoked: false, a warning) and live until they expire', async () => {
		const warnings: WarningCode[] = [];
		const s = setup({ logger: { warn: (code) => void warnings.push(code), error: () => {}, debug: () => {} } });
		const [laptop, phone] = [await signedIn(s), await signedIn(s)];
		const ended = await (await currentOf(s, laptop)).endAllSessions();
		expect(ended).toMatchObject({ deleted: 0, jwtRevoked: false });
		apply(laptop, ended.cookies);
		expect(await sessionOf(laptop)).toBeNull();
		expect((await sessionOf(phone))?.user?.email).toBe(ALICE.email);
		expect(warnings).toContain('jwt-sessions-not-revocable');
		expect(await createAuthServer(s.config).endSessionsOf(ALICE.id)).toEqual({ deleted: 0, jwtRevoked: false });
	});
});

describe('no session value in URLs, logs or JSON (ASVS 14.2.1, 3.3.4)', () => {
	test.each(['jwt', 'database'] as const)('%s: sign-in, reads, lists and sign-out never show the token', async (strategy) => {
		const store = await openStore('memory');
		const logged: string[] = [];
		const log = (...parts: unknown[]) => void logged.push(parts.map((p) => (p instanceof Error ? `${p.message} ${String(p.cause)}` : JSON.stringify(p) ?? String(p))).join(' '));
		try {
			const s = setup({
				adapter: store.adapter,
				session: { strategy },
				debug: true,
				logger: { error: log, warn: log, debug: log },
				callbacks: { session: sessionWithUserId }
			});
			const client = s.client();
			const signIn = await client.signInWithCredentials('credentials', { ...ALICE_LOGIN });
			const token = client.cookie(SESSION_COOKIE)!;
			expect(token.length).toBeGreaterThan(32);
			const secrets = [token, sha256(token)];
			const shown: string[] = [location(signIn).href];
			for (const path of ['session', 'csrf', 'providers', 'signin', 'signout']) {
				const res = await client.get(path);
				shown.push(res.headers.get('location') ?? '', await res.text());
			}
			const current = await currentOf(s, client);
			shown.push(JSON.stringify(current.session));
			if (strategy === 'database') shown.push(JSON.stringify(await current.listSessions()), JSON.stringify(await current.listSessionPage()));
			const out = await client.postForm('signout');
			shown.push(location(out).href);
			await expectNoSessionGranted(out);
			expect(logged.length).toBeGreaterThan(0);
			for (const text of [...shown, ...logged]) for (const secret of secrets) expect(text).not.toContain(secret);
		} finally {
			store.close();
		}
	});
});

describe("the libSQL adapter's session cutoffs", () => {
	test('null until set; only ever moves forward; for any user id, stored or not, and kept when the user is deleted', async () => {
		const { adapter, db, close } = await database();
		try {
			expect(await adapter.getSessionsValidAfter('nobody')).toBeNull();
			const later = new Date('2031-06-01T00:00:00.123Z');
			await adapter.setSessionsValidAfter('u1', later);
			expect(await adapter.getSessionsValidAfter('u1')).toEqual(later);
			await adapter.setSessionsValidAfter('u1', new Date('2030-01-01T00:00:00Z'));
			expect(await adapter.getSessionsValidAfter('u1')).toEqual(later);
			const user = await adapter.createUser({ id: 'u2', email: 'u2@example.com', emailVerified: null });
			await adapter.setSessionsValidAfter(user.id, later);
			await adapter.deleteUser(user.id);
			expect(await adapter.getSessionsValidAfter(user.id)).toEqual(later);
			await expect(adapter.setSessionsValidAfter('u1', new Date(Number.NaN))).rejects.toThrow(/valid Date/);
			expect((await db.execute('SELECT count(*) AS n FROM "sessionCutoff"')).rows[0]!.n).toBe(2);
		} finally {
			close();
		}
	});
});

describe.each(['database', 'jwt'] as const)("kitauth's own credential changes end the user's other sessions (%s sessions)", (strategy) => {
	test('removing a passkey: the browser that removed it stays, one signed in with another passkey is signed out', async () => {
		const events: CredentialsChangedMessage[] = [];
		// `s.current()` is another server instance than the one answering the browsers (in an app,
		// the SvelteKit edge uses one for both): the browsers' instance asks the store on every read.
		const s = await passkeySetup(strategy, {
			session: { strategy, revocationCheckInterval: 0 },
			callbacks: { session: sessionWithUserId },
			events: { credentialsChanged: (message) => void events.push(message) }
		});
		const [first, second] = [passkeyAuthenticator(), passkeyAuthenticator()];
		const laptop = s.client();
		expect((await register(laptop, first, { email: 'pat@example.com' })).status).toBe(302);
		expect((await register(laptop, second, {})).status).toBe(302);
		const phone = s.client();
		expect((await authenticate(phone, second)).status).toBe(302);
		expect(await sessionOf(phone)).not.toBeNull();

		vi.setSystemTime(Date.now() + 1500);
		const current = await s.current(laptop);
		const passkeys = await current.passkeys.list();
		expect(passkeys).toHaveLength(2);
		const result = await current.passkeys.remove(passkeys.at(-1)!.id);
		expect(result.removed).toBe(true);
		if (result.removed) apply(laptop, result.sessionsEnded?.cookies ?? []);
		expect(await sessionOf(laptop)).not.toBeNull();
		expect(await sessionOf(phone)).toBeNull();
		expect(events).toMatchObject([{ change: 'passkey-removed', ended: 'others' }]);
	});
});
