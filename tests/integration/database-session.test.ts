/**
 * Database sessions through the real `Auth()`, on a real LibSQLAdapter (`:memory:` and a `file:`
 * database): strategy choice, credentials sign-in (which Auth.js refuses), tokens hashed at rest,
 * which user a credentials sign-in lands on, the session endpoint, update, sign-out, fixation,
 * and hostile session cookies.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createAuthServer } from '../../src/lib/core/index.js';
import { encode } from '../../src/lib/jwt.js';
import type { AdapterUser, EventCallbacks, Session, SessionCallbackParams } from '../../src/lib/core/types.js';
import { setCookies } from '../support/client.js';
import { dbSetup, openStore, sha256, STORE_KINDS, type Store } from './database-fixtures.js';
import {
	ALICE,
	ALICE_LOGIN,
	ORIGIN,
	passwordProvider,
	SECRET,
	SESSION_COOKIE,
	sessionCookiesCleared,
	sessionCookiesSet,
	signedIn
} from './fixtures.js';

const T0 = Date.parse('2031-05-01T08:00:00Z');
const DAY = 24 * 60 * 60 * 1000;

const stores: Store[] = [];
afterEach(() => {
	vi.useRealTimers();
	stores.splice(0).forEach((store) => store.close());
});

describe.each(STORE_KINDS)('database sessions on libSQL (%s)', (kind) => {
	async function store(): Promise<Store> {
		const opened = await openStore(kind);
		stores.push(opened);
		return opened;
	}

	describe('strategy', () => {
		test('with an adapter the default strategy is database: an opaque token, a session row', async () => {
			const db = await store();
			const client = await signedIn(dbSetup(db));
			const token = client.cookie(SESSION_COOKIE)!;
			expect(token).toMatch(/^[0-9a-f]{64}$/);
			const rows = await db.sessions();
			expect(rows).toHaveLength(1);
			expect(rows[0]!.userId).toBe(ALICE.id);
		});

		test('explicit strategy jwt with an adapter: a JWE cookie, no session row, no stored user', async () => {
			const db = await store();
			const s = dbSetup(db, { session: { strategy: 'jwt' } });
			const client = await signedIn(s);
			const token = client.cookie(SESSION_COOKIE)!;
			expect(token.split('.')).toHaveLength(5);
			expect(JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8'))).toMatchObject({
				alg: 'dir',
				enc: 'A256CBC-HS512'
			});
			expect(await db.sessions()).toEqual([]);
			expect(await db.users()).toEqual([]);
			expect(db.calls.createSession).toBe(0);
			expect(((await client.session()) as Session).user?.email).toBe(ALICE.email);
			expect(db.calls.getSessionAndUser).toBe(0);
		});
	});

	describe('credentials sign-in with database sessions', () => {
		test('the row holds SHA-256 of the cookie, never the cookie; 256-bit token; cookie attributes', async () => {
			vi.setSystemTime(T0);
			const db = await store();
			const client = dbSetup(db).client();
			const res = await client.signInWithCredentials('credentials', { ...ALICE_LOGIN }, { headers: { 'user-agent': 'TestBrowser/1.0' } });
			expect(res.status).toBe(302);
			expect(res.headers.get('location')).toBe(ORIGIN);
			const cookie = setCookies(res).find((c) => c.name === SESSION_COOKIE)!;
			const token = decodeURIComponent(cookie.value);
			expect(token).toMatch(/^[0-9a-f]{64}$/); // 32 random bytes
			expect(cookie.attributes).toMatchObject({ httponly: true, samesite: 'Lax', path: '/' });
			expect(Date.parse(cookie.attributes.expires as string)).toBe(T0 + 30 * DAY);

			const rows = await db.sessions();
			expect(rows).toEqual([
				{ sessionToken: sha256(token), userId: ALICE.id, expires: T0 + 30 * DAY, createdAt: T0, userAgent: 'TestBrowser/1.0' }
			]);
			const everything = JSON.stringify((await db.db.execute('SELECT * FROM "session"')).rows);
			expect(everything).not.toContain(token);

			const again = await signedIn(dbSetup(db));
			expect(again.cookie(SESSION_COOKIE)).not.toBe(token);
		});

		test('with hashTokens: false the row holds the raw token (Auth.js tables)', async () => {
			const db = await store();
			const client = await signedIn(dbSetup(db, { session: { hashTokens: false } }));
			const token = client.cookie(SESSION_COOKIE)!;
			expect((await db.sessions()).map((row) => row.sessionToken)).toEqual([token]);
			expect(((await client.session()) as Session).user?.email).toBe(ALICE.email);
		});

		test('generateSessionToken is honoured; the row holds its hash', async () => {
			const db = await store();
			const made: string[] = [];
			const generateSessionToken = () => {
				const token = `custom_${randomBytes(40).toString('base64url')}`;
				made.push(token);
				return token;
			};
			const client = await signedIn(dbSetup(db, { session: { generateSessionToken } }));
			expect(made).toHaveLength(1);
			expect(client.cookie(SESSION_COOKIE)).toBe(made[0]);
			expect((await db.sessions()).map((row) => row.sessionToken)).toEqual([sha256(made[0]!)]);
			expect(((await client.session()) as Session).user?.id).toBe(ALICE.id);
		});
	});

	describe('which user a credentials sign-in lands on', () => {
		test('authorize returns a stored user: found by id, nothing created', async () => {
			const db = await store();
			const stored = await db.adapter.createUser({
				id: 'stored-7',
				name: 'Alice (stored)',
				email: 'alice.stored@example.com',
				emailVerified: null,
				image: 'https://img.example/a.png'
			});
			const createUser = vi.fn();
			const s = dbSetup(db, {
				providers: [passwordProvider({ authorize: () => ({ id: 'stored-7', name: 'Whatever', email: 'other@example.com' }) })],
				events: { createUser }
			});
			const client = await signedIn(s);
			expect(createUser).not.toHaveBeenCalled();
			expect(await db.users()).toHaveLength(1);
			expect((await db.sessions()).map((row) => row.userId)).toEqual(['stored-7']);
			expect(await client.session()).toMatchObject({
				user: { id: stored.id, name: 'Alice (stored)', email: 'alice.stored@example.com', image: 'https://img.example/a.png' }
			});
		});

		test('authorize returns an unknown id with a stored email: found by email (case-insensitively)', async () => {
			const db = await store();
			await db.adapter.createUser({ id: 'db-alice', name: 'Alice DB', email: 'alice@example.com', emailVerified: null });
			const createUser = vi.fn();
			const s = dbSetup(db, {
				providers: [passwordProvider({ authorize: () => ({ id: 'app-alice', name: 'Alice App', email: 'Alice@Example.COM' }) })],
				events: { createUser }
			});
			const client = await signedIn(s);
			expect(createUser).not.toHaveBeenCalled();
			expect((await db.users()).map((u) => u.id)).toEqual(['db-alice']);
			expect((await db.sessions()).map((row) => row.userId)).toEqual(['db-alice']);
			expect(await client.session()).toMatchObject({ user: { id: 'db-alice', name: 'Alice DB' } });
		});

		test('otherwise the user is created under the id authorize returned, with the createUser event, once', async () => {
			const db = await store();
			const createUser = vi.fn();
			const signIn = vi.fn();
			const s = dbSetup(db, { events: { createUser, signIn } });
			await signedIn(s);
			expect(await db.users()).toEqual([
				{ id: ALICE.id, name: ALICE.name, email: ALICE.email, emailVerified: null, image: null }
			]);
			expect(createUser).toHaveBeenCalledTimes(1);
			expect(createUser.mock.calls[0]![0]).toMatchObject({ user: { id: ALICE.id, email: ALICE.email } });
			expect(signIn.mock.calls[0]![0]).toMatchObject({ isNewUser: true, user: { id: ALICE.id } });

			await signedIn(s);
			expect(createUser).toHaveBeenCalledTimes(1);
			expect(signIn.mock.calls[1]![0]).toMatchObject({ isNewUser: false, user: { id: ALICE.id } });
			expect(await db.users()).toHaveLength(1);
			expect(await db.sessions()).toHaveLength(2);
		});

		test('the same new user signing in twice at once: both succeed, one user', async () => {
			const db = await store();
			// Both requests look the user up before either creates it (a barrier on the adapter object
			// we pass in makes that interleaving certain; a timer opens it if only one ever arrives).
			let arrived = 0;
			let release: () => void = () => {};
			const bothLooked = new Promise<void>((resolve) => (release = resolve));
			const fallback = setTimeout(release, 3000);
			const adapter = {
				...db.adapter,
				getUserByEmail: async (email: string) => {
					const found = await db.adapter.getUserByEmail(email);
					if (++arrived === 2) release();
					await bothLooked;
					return found;
				}
			};
			const s = dbSetup(db, { adapter });
			const [a, b] = [s.client(), s.client()];
			const [resA, resB] = await Promise.all([
				a.signInWithCredentials('credentials', { ...ALICE_LOGIN }),
				b.signInWithCredentials('credentials', { ...ALICE_LOGIN })
			]);
			clearTimeout(fallback);
			expect(await db.users()).toHaveLength(1);
			expect([resA.headers.get('location'), resB.headers.get('location')]).toEqual([ORIGIN, ORIGIN]);
			expect(await db.sessions()).toHaveLength(2);
		});

		test('authorize returns no id: a fresh id, and the session points at the created user', async () => {
			const db = await store();
			const s = dbSetup(db, { providers: [passwordProvider({ authorize: () => ({ name: 'Nobody', email: 'nobody@example.com' }) })] });
			const client = await signedIn(s);
			const [user] = await db.users();
			expect(user!.id).toMatch(/^[0-9a-f-]{36}$/);
			expect((await db.sessions()).map((row) => row.userId)).toEqual([user!.id]);
			expect(await client.session()).toMatchObject({ user: { id: user!.id, email: 'nobody@example.com' } });
		});
	});

	describe('GET /session', () => {
		test('answers {user: {id, name, email, image}, expires} and never the token or its hash', async () => {
			vi.setSystemTime(T0);
			const db = await store();
			await db.adapter.createUser({ ...ALICE, emailVerified: null, image: 'https://img.example/alice.png' });
			const client = await signedIn(dbSetup(db));
			const token = client.cookie(SESSION_COOKIE)!;
			vi.setSystemTime(T0 + 60_000);
			const res = await client.get('session');
			expect(res.status).toBe(200);
			const text = await res.text();
			expect(JSON.parse(text)).toEqual({
				user: { id: ALICE.id, name: ALICE.name, email: ALICE.email, image: 'https://img.example/alice.png' },
				expires: new Date(T0 + 30 * DAY).toISOString()
			});
			expect(text).not.toContain(token);
			expect(text).not.toContain(sha256(token));
			expect(text).not.toContain('sessionToken');
			expect(res.headers.get('cache-control') ?? '').toMatch(/no-store|private/);
		});

		test('the session callback gets the stored user; its result is the body; the session event fires', async () => {
			const db = await store();
			const seen: SessionCallbackParams[] = [];
			const events: Session[] = [];
			const s = dbSetup(db, {
				callbacks: {
					session: (params) => {
						seen.push(params);
						return { ...params.session, role: 'admin' };
					}
				},
				events: { session: ({ session }) => void events.push(session) }
			});
			const client = await signedIn(s);
			const token = client.cookie(SESSION_COOKIE)!;
			const body = (await client.session()) as Session;
			expect(body).toMatchObject({ role: 'admin', user: { id: ALICE.id } });
			expect(seen).toHaveLength(1);
			const user = seen[0]!.user as AdapterUser;
			expect(user).toEqual({ id: ALICE.id, name: ALICE.name, email: ALICE.email, emailVerified: null, image: null });
			expect(seen[0]!.trigger).toBeUndefined();
			expect(seen[0]!.token).toBeUndefined();
			// Auth.js's shape: the stored session and its user; the key it is stored under, never the cookie.
			expect(seen[0]!.session).toMatchObject({ sessionToken: sha256(token), userId: ALICE.id, expires: expect.any(Date), user });
			expect(JSON.stringify(seen[0]!.session)).not.toContain(token);
			expect(events).toHaveLength(1);
			expect(JSON.parse(JSON.stringify(events[0]))).toEqual(body);
			expect(events[0]).not.toHaveProperty('sessionToken');
		});

		test('a callback that returns the session it was given (Auth.js docs) sends no sessionToken, and expires as a string', async () => {
			vi.setSystemTime(T0);
			const db = await store();
			const s = dbSetup(db, { callbacks: { session: ({ session }) => session } });
			const client = await signedIn(s);
			const token = client.cookie(SESSION_COOKIE)!;
			const res = await client.get('session');
			const text = await res.text();
			expect(JSON.parse(text)).toMatchObject({
				userId: ALICE.id,
				expires: new Date(T0 + 30 * DAY).toISOString(),
				user: { id: ALICE.id, email: ALICE.email }
			});
			expect(text).not.toContain('sessionToken');
			expect(text).not.toContain(token);
			expect(text).not.toContain(sha256(token));
			const current = await createAuthServer(s.config).session({
				url: new URL(`${ORIGIN}/account`),
				request: new Request(`${ORIGIN}/account`, { headers: { cookie: client.cookieHeader() } })
			});
			expect(current.session).toMatchObject({ userId: ALICE.id, expires: new Date(T0 + 30 * DAY).toISOString() });
			expect(current.session && 'sessionToken' in current.session).toBe(false);
		});

		test('no cookie: null without asking the adapter', async () => {
			const db = await store();
			const client = dbSetup(db).client();
			expect(await client.session()).toBeNull();
			expect(db.calls.getSessionAndUser).toBe(0);
		});

		test('a user deleted from the store: null and the cookie cleared', async () => {
			const db = await store();
			const client = await signedIn(dbSetup(db));
			await db.adapter.deleteUser(ALICE.id);
			const res = await client.get('session');
			expect(await res.json()).toBeNull();
			expect(sessionCookiesCleared(res)).toEqual([SESSION_COOKIE]);
		});
	});

	test('POST /session: the session callback runs with trigger update and newSession', async () => {
		const db = await store();
		const seen: SessionCallbackParams[] = [];
		const s = dbSetup(db, {
			callbacks: {
				session: (params) => {
					seen.push(params);
					const wanted = (params.newSession as { name?: unknown } | undefined)?.name;
					return typeof wanted === 'string' ? { ...params.session, user: { ...params.session.user, name: wanted } } : params.session;
				}
			}
		});
		const client = await signedIn(s);
		const csrfToken = await client.csrfToken();
		const res = await client.post('session', { json: { csrfToken, data: { name: 'Alice Renamed' } } });
		expect(res.status).toBe(200);
		expect(await res.json()).toMatchObject({ user: { id: ALICE.id, name: 'Alice Renamed' } });
		expect(seen).toHaveLength(1);
		expect(seen[0]).toMatchObject({ trigger: 'update', newSession: { name: 'Alice Renamed' }, user: { id: ALICE.id } });
		// Persisting is the app's job: the stored user is unchanged.
		expect((await db.users())[0]!.name).toBe(ALICE.name);

		const refused = await client.post('session', { json: { data: { name: 'x' } } });
		expect(refused.status).toBe(400);
		expect(seen).toHaveLength(1);
	});

	test('sign-out deletes the row and the cookie; the signOut event gets the deleted session', async () => {
		const db = await store();
		const signOut = vi.fn<EventCallbacks['signOut']>();
		const s = dbSetup(db, { events: { signOut } });
		const client = await signedIn(s);
		const token = client.cookie(SESSION_COOKIE)!;
		const res = await client.postForm('signout');
		expect(res.status).toBe(302);
		expect(sessionCookiesCleared(res)).toEqual([SESSION_COOKIE]);
		expect(await db.sessions()).toEqual([]);
		expect(signOut).toHaveBeenCalledTimes(1);
		const message = signOut.mock.calls[0]![0];
		expect('session' in message && message.session).toMatchObject({ sessionToken: sha256(token), userId: ALICE.id });
		expect(await client.session()).toBeNull();

		// A copy of the old cookie is worth nothing now.
		const replay = s.client();
		replay.setCookie(SESSION_COOKIE, token);
		expect(await replay.session()).toBeNull();
	});

	test('signing in again while signed in ends the old session (no fixation)', async () => {
		const db = await store();
		const s = dbSetup(db);
		const client = await signedIn(s);
		const first = client.cookie(SESSION_COOKIE)!;
		const res = await client.signInWithCredentials('credentials', { ...ALICE_LOGIN });
		expect(res.status).toBe(302);
		const second = client.cookie(SESSION_COOKIE)!;
		expect(second).not.toBe(first);
		expect((await db.sessions()).map((row) => row.sessionToken)).toEqual([sha256(second)]);
		expect(((await client.session()) as Session).user?.id).toBe(ALICE.id);

		const old = s.client();
		old.setCookie(SESSION_COOKIE, first);
		expect(await old.session()).toBeNull();
	});

	test('a cookie planted before sign-in (fixation attempt) is not adopted', async () => {
		const db = await store();
		const s = dbSetup(db);
		const planted = 'a'.repeat(64);
		const client = s.client();
		client.setCookie(SESSION_COOKIE, planted);
		const res = await client.signInWithCredentials('credentials', { ...ALICE_LOGIN });
		expect(res.status).toBe(302);
		expect(client.cookie(SESSION_COOKIE)).not.toBe(planted);
		expect((await db.sessions()).map((row) => row.sessionToken)).not.toContain(sha256(planted));
		expect((await db.sessions()).map((row) => row.sessionToken)).not.toContain(planted);
		const attacker = s.client();
		attacker.setCookie(SESSION_COOKIE, planted);
		expect(await attacker.session()).toBeNull();
	});

	describe('hostile session cookies', () => {
		async function probe(db: Store, value: string) {
			const client = dbSetup(db).client();
			client.setCookie(SESSION_COOKIE, value);
			const before = db.calls.getSessionAndUser;
			const res = await client.get('session');
			expect(res.status).toBe(200);
			expect(await res.json()).toBeNull();
			expect(sessionCookiesCleared(res)).toEqual([SESSION_COOKIE]);
			expect(sessionCookiesSet(res)).toEqual([]);
			return db.calls.getSessionAndUser - before;
		}

		test('garbage: null, cookie cleared; one lookup in our shape, two in any other (it may be a token Auth.js stored)', async () => {
			const db = await store();
			await signedIn(dbSetup(db));
			expect(await probe(db, randomBytes(32).toString('hex'))).toBe(1);
			for (const value of ['garbage', "' OR 1=1 --", '%00%ff', '{"a":1}']) {
				expect(await probe(db, value)).toBe(2);
			}
		});

		test('oversized (over 512 characters): no lookup at all', async () => {
			const db = await store();
			expect(await probe(db, 'x'.repeat(513))).toBe(0);
			expect(await probe(db, randomBytes(4000).toString('hex').slice(0, 3900))).toBe(0);
			expect(await probe(db, 'x'.repeat(512))).toBe(2);
		});

		test('a foreign cookie (a JWE of the same secret): null, two lookups at most', async () => {
			const db = await store();
			const jwe = await encode({ token: { sub: ALICE.id, email: ALICE.email }, secret: SECRET, salt: SESSION_COOKIE });
			expect(await probe(db, jwe)).toBeLessThanOrEqual(2);
		});

		test('the stored hash itself (a leaked table) is not a session', async () => {
			const db = await store();
			const client = await signedIn(dbSetup(db));
			const [row] = await db.sessions();
			expect(row!.sessionToken).toBe(sha256(client.cookie(SESSION_COOKIE)!));
			expect(await probe(db, row!.sessionToken)).toBe(1);
			// Nor in capitals (a database that compares without case would find it).
			expect(await probe(db, row!.sessionToken.toUpperCase())).toBe(1);
			expect(await db.sessions()).toHaveLength(1);
		});

		test('sign-out with an oversized cookie: no deletion attempted, cookie cleared', async () => {
			const db = await store();
			const s = dbSetup(db);
			await signedIn(s);
			const client = s.client();
			client.setCookie(SESSION_COOKIE, 'y'.repeat(2000));
			const res = await client.postForm('signout');
			expect(res.status).toBe(302);
			expect(sessionCookiesCleared(res)).toEqual([SESSION_COOKIE]);
			expect(db.calls.deleteSession).toBe(0);
			expect(await db.sessions()).toHaveLength(1);
		});
	});
});
