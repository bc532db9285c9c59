import { afterEach, describe, expect, test, vi } from 'vitest';
import { decode, encode } from '../../src/lib/jwt.js';
import type { Session } from '../../src/lib/core/types.js';
import { setCookies } from '../support/client.js';
import {
	ALICE,
	ALICE_LOGIN,
	SECRET,
	SESSION_COOKIE,
	sessionCookiesCleared,
	sessionCookiesSet,
	setup,
	signedIn
} from './fixtures.js';

const OLD = 'old-secret-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const NEW = 'new-secret-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const T0 = Date.parse('2031-03-01T12:00:00Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

afterEach(() => {
	vi.useRealTimers();
});

function kidOf(token: string): unknown {
	const header = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8')) as { kid?: unknown };
	return header.kid;
}

describe('secret rotation', () => {
	test('a session sealed with an older secret is read, and re-issued with the newest secret when due', async () => {
		vi.setSystemTime(T0);
		const old = await encode({ token: { name: ALICE.name, email: ALICE.email, sub: ALICE.id }, secret: OLD, salt: SESSION_COOKIE });
		const client = setup({ secret: [NEW, OLD] }).client();
		client.setCookie(SESSION_COOKIE, old);

		vi.setSystemTime(T0 + MINUTE);
		const fresh = await client.get('session');
		expect(((await fresh.json()) as Session).user).toEqual({ name: ALICE.name, email: ALICE.email });
		expect(sessionCookiesSet(fresh)).toEqual([]);

		vi.setSystemTime(T0 + 2 * DAY);
		const due = await client.get('session');
		expect(((await due.json()) as Session).user?.email).toBe(ALICE.email);
		expect(sessionCookiesSet(due)).toEqual([SESSION_COOKIE]);
		const reissued = client.cookie(SESSION_COOKIE)!;
		expect(reissued).not.toBe(old);
		expect(kidOf(reissued)).not.toBe(kidOf(old));
		expect(await decode({ token: reissued, secret: NEW, salt: SESSION_COOKIE })).toMatchObject({ sub: ALICE.id });
		expect(await decode({ token: reissued, secret: OLD, salt: SESSION_COOKIE })).toBeNull();
	});

	test('new sessions are sealed with the first secret', async () => {
		const client = await signedIn(setup({ secret: [NEW, OLD] }));
		const token = client.cookie(SESSION_COOKIE)!;
		expect(await decode({ token, secret: NEW, salt: SESSION_COOKIE })).toMatchObject({ sub: ALICE.id });
		expect(await decode({ token, secret: OLD, salt: SESSION_COOKIE })).toBeNull();
	});

	test('once the old secret is dropped, its sessions read as null and the cookie is cleared', async () => {
		const old = await encode({ token: { sub: ALICE.id }, secret: OLD, salt: SESSION_COOKIE });
		const client = setup({ secret: NEW }).client();
		client.setCookie(SESSION_COOKIE, old);
		const res = await client.get('session');
		expect(await res.json()).toBeNull();
		expect(sessionCookiesCleared(res)).toEqual([SESSION_COOKIE]);
	});
});

describe('updateAge', () => {
	test('a fresh read sets no session cookie; a read older than updateAge re-issues it with a new expiry', async () => {
		vi.setSystemTime(T0);
		const client = await signedIn(setup());

		vi.setSystemTime(T0 + HOUR);
		const fresh = await client.get('session');
		expect(sessionCookiesSet(fresh)).toEqual([]);
		expect(((await fresh.json()) as Session).expires).toBe(new Date(T0 + 30 * DAY).toISOString());

		const later = T0 + DAY + 1000;
		vi.setSystemTime(later);
		const due = await client.get('session');
		expect(sessionCookiesSet(due)).toEqual([SESSION_COOKIE]);
		const cookie = setCookies(due).find((c) => c.name === SESSION_COOKIE)!;
		expect(Date.parse(cookie.attributes.expires as string)).toBe(later + 30 * DAY);
		expect(((await due.json()) as Session).expires).toBe(new Date(later + 30 * DAY).toISOString());

		vi.setSystemTime(later + 2 * HOUR);
		expect(sessionCookiesSet(await client.get('session'))).toEqual([]);
	});

	test('a custom updateAge is honoured', async () => {
		vi.setSystemTime(T0);
		const client = await signedIn(setup({ session: { updateAge: 60 } }));
		vi.setSystemTime(T0 + 30_000);
		expect(sessionCookiesSet(await client.get('session'))).toEqual([]);
		vi.setSystemTime(T0 + 61_000);
		expect(sessionCookiesSet(await client.get('session'))).toEqual([SESSION_COOKIE]);
	});

	test('a session not read for longer than maxAge has expired: null, cookie cleared', async () => {
		vi.setSystemTime(T0);
		const client = await signedIn(setup({ session: { maxAge: 3600 } }));
		vi.setSystemTime(T0 + 2 * HOUR);
		const res = await client.get('session');
		expect(await res.json()).toBeNull();
		expect(sessionCookiesCleared(res)).toEqual([SESSION_COOKIE]);
	});

	test('session.maxAge sets the token lifetime and the cookie expiry', async () => {
		vi.setSystemTime(T0);
		const s = setup({ session: { maxAge: 3600 } });
		const res = await s.client().signInWithCredentials('credentials', { ...ALICE_LOGIN });
		const cookie = setCookies(res).find((c) => c.name === SESSION_COOKIE)!;
		expect(Date.parse(cookie.attributes.expires as string)).toBe(T0 + HOUR);
		const claims = await decode({ token: decodeURIComponent(cookie.value), secret: SECRET, salt: SESSION_COOKIE });
		expect(claims).toMatchObject({ iat: T0 / 1000, exp: T0 / 1000 + 3600 });
	});
});

describe('token changes made by the jwt callback on a read', () => {
	test('a new token object with changed claims is persisted at once', async () => {
		const s = setup({
			callbacks: {
				jwt: ({ token, trigger }) =>
					trigger ? token : { ...token, reads: (typeof token.reads === 'number' ? token.reads : 0) + 1 },
				session: ({ session, token }) => ({ ...session, reads: token?.reads })
			}
		});
		const client = await signedIn(s);
		const first = await client.get('session');
		expect(((await first.json()) as Session).reads).toBe(1);
		expect(sessionCookiesSet(first)).toEqual([SESSION_COOKIE]);
		expect(((await client.session()) as Session).reads).toBe(2);
	});

	test('a token updated in place (the common refresh-token pattern) is persisted too', async () => {
		const s = setup({
			callbacks: {
				jwt: ({ token, trigger }) => {
					if (!trigger) token.reads = (typeof token.reads === 'number' ? token.reads : 0) + 1;
					return token;
				},
				session: ({ session, token }) => ({ ...session, reads: token?.reads })
			}
		});
		const client = await signedIn(s);
		const first = await client.get('session');
		expect(((await first.json()) as Session).reads).toBe(1);
		expect(sessionCookiesSet(first)).toEqual([SESSION_COOKIE]);
		expect(((await client.session()) as Session).reads).toBe(2);
	});
});

describe('chunked session cookies', () => {
	const bigClaims = () =>
		setup({
			callbacks: {
				jwt: ({ token, trigger, session }) => {
					if (trigger === 'signIn') return { ...token, blob: 'b'.repeat(6000) };
					if (trigger === 'update' && session === 'shrink') {
						const { blob: _blob, ...rest } = token;
						return rest;
					}
					return token;
				},
				session: ({ session, token }) => ({
					...session,
					blobLength: typeof token?.blob === 'string' ? token.blob.length : 0
				})
			}
		});

	test('a session cookie over 3936 chars is split into name.0, name.1, … and reads back', async () => {
		const client = bigClaims().client();
		const res = await client.signInWithCredentials('credentials', { ...ALICE_LOGIN });
		expect(res.status).toBe(302);
		const chunks = setCookies(res).filter((c) => c.name.startsWith(SESSION_COOKIE));
		expect(chunks.length).toBeGreaterThanOrEqual(2);
		expect(chunks.map((c) => c.name)).toEqual(chunks.map((_, i) => `${SESSION_COOKIE}.${i}`));
		for (const chunk of chunks) {
			expect(chunk.value.length).toBeLessThanOrEqual(3936);
			expect(chunk.attributes).toMatchObject({ path: '/', httponly: true, samesite: 'Lax' });
		}
		expect(chunks.slice(0, -1).every((c) => c.value.length === 3936)).toBe(true);
		const joined = chunks.map((c) => decodeURIComponent(c.value)).join('');
		expect(await decode({ token: joined, secret: SECRET, salt: SESSION_COOKIE })).toMatchObject({ sub: ALICE.id });

		const session = (await client.session()) as Session;
		expect(session.blobLength).toBe(6000);
		expect(session.user?.name).toBe(ALICE.name);
	});

	test('shrinking back below the limit writes one cookie and deletes every chunk', async () => {
		const client = bigClaims().client();
		await client.signInWithCredentials('credentials', { ...ALICE_LOGIN });
		const chunkNames = [...client.jar.keys()].filter((n) => n.startsWith(`${SESSION_COOKIE}.`));
		expect(chunkNames.length).toBeGreaterThanOrEqual(2);
		const csrfToken = await client.csrfToken();
		const res = await client.post('session', { json: { csrfToken, data: 'shrink' } });
		expect(res.status).toBe(200);
		expect(sessionCookiesSet(res)).toEqual([SESSION_COOKIE]);
		expect(sessionCookiesCleared(res).sort()).toEqual(chunkNames.sort());
		expect([...client.jar.keys()].filter((n) => n.startsWith(SESSION_COOKIE))).toEqual([SESSION_COOKIE]);
		const session = (await client.session()) as Session;
		expect(session.blobLength).toBe(0);
		expect(session.user?.email).toBe(ALICE.email);
	});

	test('sign-out deletes every chunk', async () => {
		const client = bigClaims().client();
		await client.signInWithCredentials('credentials', { ...ALICE_LOGIN });
		const chunkNames = [...client.jar.keys()].filter((n) => n.startsWith(SESSION_COOKIE));
		const res = await client.postForm('signout');
		expect(sessionCookiesCleared(res).sort()).toEqual(chunkNames.sort());
		expect(await client.session()).toBeNull();
	});
});
