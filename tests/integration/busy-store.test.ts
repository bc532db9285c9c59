/**
 * A store that is busy for a moment (its adapter's error says it may be retried, as the libSQL
 * adapter's do while another process holds the database's lock) is not a configuration problem:
 * JSON answers 503 with `Retry-After`, pages answer a 503 page that names the cause (or send the
 * user to `pages.error` with `error=Unavailable`), and no session is granted.
 */
import { expect, test } from 'vitest';
import type { Adapter } from '../../src/lib/core/types.js';
import { ALICE_LOGIN, ORIGIN, sessionCookiesSet, setup } from './fixtures.js';

/** An error like the libSQL adapter's when the database stayed locked past its busy timeout. */
class BusyStoreError extends Error {
	readonly retryable = true;
	readonly retryAfter = 7;
}

/** An adapter whose every method meets a locked database. */
function busyAdapter(): Adapter {
	const busy = async () => {
		throw new BusyStoreError('SQLITE_BUSY: database is locked');
	};
	return {
		createUser: busy,
		getUser: busy,
		getUserByEmail: busy,
		getUserByAccount: busy,
		linkAccount: busy,
		createSession: busy,
		getSessionAndUser: busy,
		updateSession: busy,
		deleteSession: busy
	};
}

test('JSON: 503 with Retry-After and a message without internals', async () => {
	const s = setup({ adapter: busyAdapter() });
	const res = await s.client().get('session', { headers: { cookie: 'authjs.session-token=abc' } });
	expect(res.status).toBe(503);
	expect(res.headers.get('retry-after')).toBe('7');
	const text = await res.text();
	expect(text).not.toMatch(/SQLITE|locked/);
	expect(JSON.parse(text)).toEqual({ message: 'The session store is unavailable. Try again later.' });
});

test('a sign-in: the 503 page names the cause and says when to retry; no session', async () => {
	const s = setup({ adapter: busyAdapter() });
	const res = await s.client().signInWithCredentials('credentials', { ...ALICE_LOGIN });
	expect(res.status).toBe(503);
	expect(res.headers.get('retry-after')).toBe('7');
	expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
	const html = await res.text();
	expect(html).toContain('Temporarily unavailable');
	expect(html).not.toMatch(/SQLITE|locked|Configuration/);
	expect(sessionCookiesSet(res)).toEqual([]);
	expect(s.errors.length).toBeGreaterThan(0);
});

test('with pages.error, the user is sent there with error=Unavailable', async () => {
	const s = setup({ adapter: busyAdapter(), pages: { error: '/oops' } });
	const res = await s.client().signInWithCredentials('credentials', { ...ALICE_LOGIN });
	expect(res.status).toBe(302);
	expect(res.headers.get('location')).toBe(`${ORIGIN}/oops?error=Unavailable`);
	expect(sessionCookiesSet(res)).toEqual([]);
});

test('the error page itself shows Unavailable for ?error=Unavailable (a link: 200, never a 5xx)', async () => {
	const s = setup();
	const res = await s.client().get('error', { query: { error: 'Unavailable' } });
	expect(res.status).toBe(200);
	expect(await res.text()).toContain('Temporarily unavailable');
});

test('an adapter error that is not retryable stays a configuration error', async () => {
	const broken: Adapter = { ...busyAdapter(), getUserByEmail: async () => { throw new Error('no such table: user'); }, getUser: async () => null };
	const s = setup({ adapter: broken });
	const res = await s.client().signInWithCredentials('credentials', { ...ALICE_LOGIN });
	expect(res.status).toBe(302);
	expect(res.headers.get('location')).toBe(`${ORIGIN}/auth/error?error=Configuration`);
});
