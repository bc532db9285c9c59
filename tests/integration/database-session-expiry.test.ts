/**
 * Sliding and absolute expiry of database sessions, on a real LibSQLAdapter, with the clock set by
 * `vi.setSystemTime` (Date only; the database keeps its real timers).
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { Session } from '../../src/lib/core/types.js';
import { setCookies, type TestClient } from '../support/client.js';
import { dbSetup, openStore, sha256, STORE_KINDS, type Store } from './database-fixtures.js';
import { SESSION_COOKIE, sessionCookiesCleared, sessionCookiesSet, signedIn } from './fixtures.js';

const T0 = Date.parse('2031-06-01T00:00:00Z');
const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;

const stores: Store[] = [];
afterEach(() => {
	vi.useRealTimers();
	stores.splice(0).forEach((store) => store.close());
});

/** GET /session at `at`: the body, whether the session cookie was (re)set and to which expiry. */
async function readAt(client: TestClient, at: number) {
	vi.setSystemTime(at);
	const res = await client.get('session');
	expect(res.status).toBe(200);
	const body = (await res.json()) as Session | null;
	const cookie = setCookies(res).find((c) => c.name === SESSION_COOKIE);
	return {
		body,
		set: sessionCookiesSet(res).length > 0,
		cleared: sessionCookiesCleared(res).length > 0,
		cookieExpires: typeof cookie?.attributes.expires === 'string' ? Date.parse(cookie.attributes.expires) : undefined
	};
}

describe.each(STORE_KINDS)('expiry of database sessions (%s)', (kind) => {
	async function store(): Promise<Store> {
		const opened = await openStore(kind);
		stores.push(opened);
		return opened;
	}

	async function rowExpires(db: Store): Promise<number | undefined> {
		const rows = await db.sessions();
		expect(rows.length).toBeLessThanOrEqual(1);
		return rows[0]?.expires;
	}

	test('defaults (maxAge 30 days, updateAge 1 day): no write before updateAge, a slide after it', async () => {
		vi.setSystemTime(T0);
		const db = await store();
		const client = await signedIn(dbSetup(db));
		expect(await rowExpires(db)).toBe(T0 + 30 * DAY);

		const early = await readAt(client, T0 + 23 * HOUR);
		expect(early.body?.expires).toBe(new Date(T0 + 30 * DAY).toISOString());
		expect(early.set).toBe(false);
		expect(db.calls.updateSession).toBe(0);
		expect(await rowExpires(db)).toBe(T0 + 30 * DAY);

		const due = await readAt(client, T0 + DAY);
		expect(due.body?.expires).toBe(new Date(T0 + DAY + 30 * DAY).toISOString());
		expect(due.set).toBe(true);
		expect(due.cookieExpires).toBe(T0 + DAY + 30 * DAY);
		expect(db.calls.updateSession).toBe(1);
		expect(await rowExpires(db)).toBe(T0 + DAY + 30 * DAY);
		// The cookie keeps the same token: only the expiry moved.
		expect(sha256(client.cookie(SESSION_COOKIE)!)).toBe((await db.sessions())[0]!.sessionToken);

		// The next extension is due one updateAge after the last one, not after sign-in.
		const soon = await readAt(client, T0 + DAY + 12 * HOUR);
		expect(soon.set).toBe(false);
		expect(db.calls.updateSession).toBe(1);
		expect(soon.body?.expires).toBe(new Date(T0 + 31 * DAY).toISOString());
	});

	test('a session used every few days outlives maxAge', async () => {
		vi.setSystemTime(T0);
		const db = await store();
		const client = await signedIn(dbSetup(db, { session: { maxAge: 7 * 24 * 3600 } }));
		for (let day = 5; day <= 40; day += 5) {
			const read = await readAt(client, T0 + day * DAY);
			expect(read.body?.user?.id, `day ${day}`).toBeDefined();
			expect(await rowExpires(db)).toBe(T0 + (day + 7) * DAY);
		}
	});

	test('updateAge 0: every read extends the row and re-sets the cookie', async () => {
		vi.setSystemTime(T0);
		const db = await store();
		const client = await signedIn(dbSetup(db, { session: { maxAge: 3600, updateAge: 0 } }));
		for (const at of [T0 + SECOND, T0 + 2 * SECOND, T0 + 10 * SECOND]) {
			const read = await readAt(client, at);
			expect(read.set).toBe(true);
			expect(read.cookieExpires).toBe(at + HOUR);
			expect(await rowExpires(db)).toBe(at + HOUR);
		}
		expect(db.calls.updateSession).toBe(3);
	});

	test('an expired session: null, the row deleted, the cookie cleared', async () => {
		vi.setSystemTime(T0);
		const db = await store();
		const client = await signedIn(dbSetup(db, { session: { maxAge: 3600 } }));
		const token = client.cookie(SESSION_COOKIE)!;
		const read = await readAt(client, T0 + HOUR + SECOND);
		expect(read.body).toBeNull();
		expect(read.cleared).toBe(true);
		expect(read.set).toBe(false);
		expect(await db.sessions()).toEqual([]);
		expect(db.calls.updateSession).toBe(0);
		expect(client.cookie(SESSION_COOKIE)).toBeUndefined();

		// Even if the browser kept the cookie, it is gone for good.
		vi.setSystemTime(T0);
		const stubborn = dbSetup(db).client();
		stubborn.setCookie(SESSION_COOKIE, token);
		expect(await stubborn.session()).toBeNull();
	});

	test('expiry is exact: alive one second before expires, gone at expires', async () => {
		vi.setSystemTime(T0);
		const db = await store();
		const client = await signedIn(dbSetup(db, { session: { maxAge: 3600, updateAge: 7200 } }));
		expect((await readAt(client, T0 + HOUR - SECOND)).body?.user?.id).toBeDefined();
		expect((await readAt(client, T0 + HOUR)).body).toBeNull();
		expect(await db.sessions()).toEqual([]);
	});

	test('absoluteMaxAge: a busy session ends at createdAt + absoluteMaxAge; extensions are capped there', async () => {
		vi.setSystemTime(T0);
		const db = await store();
		const s = dbSetup(db, { session: { maxAge: DAY / SECOND, updateAge: 0, absoluteMaxAge: (3 * DAY) / SECOND } });
		const client = await signedIn(s);
		expect((await db.sessions())[0]!.createdAt).toBe(T0);

		const first = await readAt(client, T0 + 12 * HOUR);
		expect(await rowExpires(db)).toBe(T0 + 36 * HOUR);
		expect(first.cookieExpires).toBe(T0 + 36 * HOUR);

		const second = await readAt(client, T0 + 30 * HOUR);
		expect(await rowExpires(db)).toBe(T0 + 54 * HOUR);
		expect(second.body?.expires).toBe(new Date(T0 + 54 * HOUR).toISOString());

		// now + maxAge would be T0 + 78 hours: capped at T0 + 72 hours, in the row, body and cookie.
		const capped = await readAt(client, T0 + 54 * HOUR - SECOND);
		expect(await rowExpires(db)).toBe(T0 + 3 * DAY);
		expect(capped.body?.expires).toBe(new Date(T0 + 3 * DAY).toISOString());
		expect(capped.cookieExpires).toBe(T0 + 3 * DAY);

		const last = await readAt(client, T0 + 3 * DAY - SECOND);
		expect(last.body?.user?.id).toBeDefined();
		expect(await rowExpires(db)).toBe(T0 + 3 * DAY);

		const over = await readAt(client, T0 + 3 * DAY);
		expect(over.body).toBeNull();
		expect(over.cleared).toBe(true);
		expect(await db.sessions()).toEqual([]);
	});

	test('absoluteMaxAge: once the expiry is capped, updateSession still runs at most once per updateAge', async () => {
		vi.setSystemTime(T0);
		const db = await store();
		const s = dbSetup(db, { session: { maxAge: DAY / SECOND, updateAge: HOUR / SECOND, absoluteMaxAge: (3 * DAY) / SECOND } });
		const client = await signedIn(s);

		await readAt(client, T0 + 20 * HOUR);
		await readAt(client, T0 + 40 * HOUR);
		expect(await rowExpires(db)).toBe(T0 + 64 * HOUR);
		expect(db.calls.updateSession).toBe(2);

		const capped = await readAt(client, T0 + 60 * HOUR);
		expect(capped.set).toBe(true);
		expect(await rowExpires(db)).toBe(T0 + 3 * DAY);
		expect(db.calls.updateSession).toBe(3);

		// One minute later: less than updateAge since the last extension, and nothing to extend.
		const next = await readAt(client, T0 + 60 * HOUR + 60 * SECOND);
		expect(next.body?.expires).toBe(new Date(T0 + 3 * DAY).toISOString());
		expect(db.calls.updateSession).toBe(3);
		expect(next.set).toBe(false);
	});

	test('absoluteMaxAge caps a new session\'s expiry (row and cookie) and ends it there', async () => {
		vi.setSystemTime(T0);
		const db = await store();
		const s = dbSetup(db, { session: { maxAge: (30 * DAY) / SECOND, absoluteMaxAge: (2 * DAY) / SECOND } });
		const client = await signedIn(s);
		// maxAge says 30 days, the absolute lifetime 2: the row (and cookie) get the earlier one.
		expect(await rowExpires(db)).toBe(T0 + 2 * DAY);
		expect((await readAt(client, T0 + DAY)).body?.user?.id).toBeDefined();
		const over = await readAt(client, T0 + 2 * DAY + SECOND);
		expect(over.body).toBeNull();
		expect(over.cleared).toBe(true);
		expect(await db.sessions()).toEqual([]);
	});
});
