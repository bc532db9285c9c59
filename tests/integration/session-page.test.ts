/**
 * `listSessionPage()`: the signed-in user's sessions one bounded page at a time (the current one
 * apart, then the others newest first), over real database sessions made by real sign-ins, with
 * hostile cursors and limits.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { createAuthServer, type SessionInfo } from '../../src/lib/core/index.js';
import type { AuthConfig } from '../../src/lib/core/types.js';
import type { TestClient } from '../support/client.js';
import { dbSetup, openStore, sha256, type Store } from './database-fixtures.js';
import { ALICE_LOGIN, ORIGIN, SESSION_COOKIE } from './fixtures.js';

const stores: Store[] = [];
afterEach(() => stores.splice(0).forEach((store) => store.close()));

function current(config: AuthConfig, browser: TestClient | undefined) {
	const url = `${ORIGIN}/account`;
	const headers = new Headers(browser ? { cookie: browser.cookieHeader() } : {});
	return createAuthServer(config).session({ url: new URL(url), request: new Request(url, { headers }) });
}

/** Alice signed in from `count` browsers; each session started at a distinct, known time. */
async function signedInFrom(count: number) {
	const db = await openStore('memory');
	stores.push(db);
	const s = dbSetup(db);
	const browsers: TestClient[] = [];
	for (let i = 0; i < count; i++) {
		const browser = s.client();
		const res = await browser.signInWithCredentials('credentials', { ...ALICE_LOGIN }, { headers: { 'user-agent': `Agent ${i}` } });
		expect(res.status).toBe(302);
		browsers.push(browser);
	}
	// Sign-ins within one millisecond would tie: space them a minute apart (Agent 0 the oldest).
	const base = Date.UTC(2026, 0, 1);
	for (const [i, browser] of browsers.entries()) {
		await db.db.execute({
			sql: 'UPDATE "session" SET "createdAt" = ? WHERE "sessionToken" = ?',
			args: [base + i * 60_000, sha256(browser.cookie(SESSION_COOKIE)!)]
		});
	}
	return { db, s, browsers };
}

async function allPages(config: AuthConfig, browser: TestClient, limit: number) {
	const pages = [];
	let cursor: string | null = null;
	do {
		const page = await (await current(config, browser)).listSessionPage({ limit, cursor });
		pages.push(page);
		cursor = page.nextCursor;
	} while (cursor && pages.length < 50);
	return pages;
}

const agents = (list: SessionInfo[]) => list.map((s) => s.userAgent);

describe('listSessionPage', () => {
	test('pages through the other sessions newest first, the current one apart on every page', async () => {
		const { s, browsers } = await signedInFrom(8);
		const me = browsers[3]!;
		const pages = await allPages(s.config, me, 3);
		expect(pages.map((p) => p.others.length)).toEqual([3, 3, 1]);
		for (const page of pages) {
			expect(page.current?.userAgent).toBe('Agent 3');
			expect(page.current?.current).toBe(true);
			expect(page.totalOthers).toBe(7);
			expect(page.others.every((s) => !s.current)).toBe(true);
		}
		expect(pages.flatMap((p) => agents(p.others))).toEqual(['Agent 7', 'Agent 6', 'Agent 5', 'Agent 4', 'Agent 2', 'Agent 1', 'Agent 0']);
		expect(pages.at(-1)!.nextCursor).toBeNull();
		// A cursor names no token or hash.
		const cursors = pages.map((p) => p.nextCursor).filter(Boolean).join(' ');
		for (const browser of browsers) {
			expect(cursors).not.toContain(browser.cookie(SESSION_COOKIE));
			expect(cursors).not.toContain(sha256(browser.cookie(SESSION_COOKIE)!));
		}
	});

	test('a cursor whose session was revoked meanwhile still continues after it', async () => {
		const { s, browsers } = await signedInFrom(6);
		const me = browsers[0]!;
		const first = await (await current(s.config, me)).listSessionPage({ limit: 2 });
		expect(agents(first.others)).toEqual(['Agent 5', 'Agent 4']);
		expect(await (await current(s.config, me)).revokeSession(first.others[1]!.id)).toBe(true);
		const second = await (await current(s.config, me)).listSessionPage({ limit: 2, cursor: first.nextCursor });
		expect(agents(second.others)).toEqual(['Agent 3', 'Agent 2']);
		expect(second.totalOthers).toBe(4);
	});

	test.each([
		['absent', undefined],
		['empty', ''],
		['garbage', 'not a cursor'],
		['markup', '<script>alert(1)</script>'],
		['too long', `${'9'.repeat(17)}.abc`],
		['no id', '1767225600000.'],
		['huge', 'x'.repeat(100_000)]
	])('a %s cursor is the first page', async (_name, cursor) => {
		const { s, browsers } = await signedInFrom(4);
		const page = await (await current(s.config, browsers[0]!)).listSessionPage({ limit: 2, cursor });
		expect(agents(page.others)).toEqual(['Agent 3', 'Agent 2']);
	});

	test('a well-formed cursor before every session is an empty last page', async () => {
		const { s, browsers } = await signedInFrom(3);
		const page = await (await current(s.config, browsers[0]!)).listSessionPage({ cursor: '1.aaaa' });
		expect(page.others).toEqual([]);
		expect(page.nextCursor).toBeNull();
		expect(page.totalOthers).toBe(2);
	});

	test.each([
		[0, 1],
		[-5, 1],
		[2.9, 2],
		[1000, 100],
		[Number.NaN, 20],
		[Number.POSITIVE_INFINITY, 20],
		[undefined, 20]
	])('limit %s gives pages of %s', async (limit, size) => {
		const { s, browsers } = await signedInFrom(3);
		const page = await (await current(s.config, browsers[0]!)).listSessionPage({ limit });
		expect(page.others.length).toBe(Math.min(size, 2));
		expect(page.nextCursor === null).toBe(size >= 2);
	});

	test('signed out: no current session, nothing listed', async () => {
		const { s } = await signedInFrom(2);
		const page = await (await current(s.config, undefined)).listSessionPage();
		expect(page).toEqual({ current: null, others: [], totalOthers: 0, nextCursor: null });
	});
});
