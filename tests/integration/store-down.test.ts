/**
 * A store that cannot be reached (its server is down or shutting down: the connection is refused,
 * reset or cut) is unavailable for a moment, not misconfigured: answered like a busy store (see
 * busy-store.test.ts) — JSON 503 with `Retry-After`, the 503 Unavailable page, or `pages.error`
 * with `error=Unavailable` — and never a session. Found by the soak (tests/soak/sessions.test.ts):
 * with PostgreSQL stopped, `@auth/drizzle-adapter`'s errors (ECONNREFUSED under drizzle's
 * DrizzleQueryError) sent sign-ins and sign-outs to `error=Configuration`, and JSON had no
 * `Retry-After`.
 *
 * The store here is real: `@auth/drizzle-adapter` on a `pg` pool whose server does not answer
 * (a port nothing listens on), and errors as PostgreSQL sends them while it shuts down.
 */
import { DrizzleAdapter } from '@auth/drizzle-adapter';
import { drizzle } from 'drizzle-orm/node-postgres';
import { createServer } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Adapter } from '../../src/lib/core/types.js';
import { ALICE_LOGIN, ORIGIN, sessionCookiesSet, setup } from './fixtures.js';

let pool: pg.Pool;

beforeAll(async () => {
	// A port that was free a moment ago: connecting to it is refused.
	const port = await new Promise<number>((resolve) => {
		const server = createServer().listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
		});
	});
	pool = new pg.Pool({ connectionString: `postgresql://postgres@127.0.0.1:${port}/postgres`, connectionTimeoutMillis: 2000 });
	pool.on('error', () => {});
});

afterAll(() => pool.end());

const unreachable = () => DrizzleAdapter(drizzle({ client: pool })) as Adapter;

/** An adapter whose every method fails as a driver does while its server shuts down. */
function shuttingDown(error: Error & { code?: string }): Adapter {
	const fail = async () => {
		throw error;
	};
	return new Proxy({} as Adapter, { get: () => fail, ownKeys: () => ['getUser', 'getUserByEmail', 'createUser', 'getSessionAndUser', 'createSession', 'updateSession', 'deleteSession', 'getUserByAccount', 'linkAccount'], getOwnPropertyDescriptor: () => ({ enumerable: true, configurable: true, value: fail }) });
}

describe('a store whose server is down', () => {
	test('JSON: 503 with Retry-After, without internals', async () => {
		const s = setup({ adapter: unreachable(), session: { strategy: 'database' } });
		const res = await s.client().get('session', { headers: { cookie: `authjs.session-token=${'a'.repeat(64)}` } });
		expect(res.status).toBe(503);
		expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
		const text = await res.text();
		expect(text).not.toMatch(/ECONNREFUSED|select|127\.0\.0\.1/i);
		expect(JSON.parse(text)).toEqual({ message: 'The session store is unavailable. Try again later.' });
		expect(s.errors.length).toBeGreaterThan(0);
	});

	test('a sign-in: the 503 Unavailable page, not a configuration error; no session', async () => {
		const s = setup({ adapter: unreachable(), session: { strategy: 'database' } });
		const res = await s.client().signInWithCredentials('credentials', { ...ALICE_LOGIN });
		expect(res.status, res.headers.get('location') ?? '').toBe(503);
		expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
		const html = await res.text();
		expect(html).toContain('Temporarily unavailable');
		expect(html).not.toMatch(/ECONNREFUSED|Configuration/);
		expect(sessionCookiesSet(res)).toEqual([]);
	});

	test('a sign-out: the 503 Unavailable page; the session cookie stays (the row could not be deleted)', async () => {
		const s = setup({ adapter: unreachable(), session: { strategy: 'database' } });
		const client = s.client();
		client.setCookie('authjs.session-token', 'b'.repeat(64));
		const res = await client.postForm('signout');
		expect(res.status, res.headers.get('location') ?? '').toBe(503);
		expect(await res.text()).toContain('Temporarily unavailable');
		expect(client.cookie('authjs.session-token')).toBe('b'.repeat(64));
	});

	test('with pages.error, the user is sent there with error=Unavailable', async () => {
		const s = setup({ adapter: unreachable(), session: { strategy: 'database' }, pages: { error: '/oops' } });
		const res = await s.client().signInWithCredentials('credentials', { ...ALICE_LOGIN });
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(`${ORIGIN}/oops?error=Unavailable`);
	});

	test.each([
		['the server shutting down (57P01)', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
		['the server starting up (57P03)', Object.assign(new Error('the database system is starting up'), { code: '57P03' })],
		['a connection failure (08006)', Object.assign(new Error('connection failure'), { code: '08006' })],
		['too many connections (53300)', Object.assign(new Error('sorry, too many clients already'), { code: '53300' })],
		['a reset connection (ECONNRESET)', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
		['a timed-out connection (ETIMEDOUT)', Object.assign(new Error('connect ETIMEDOUT'), { code: 'ETIMEDOUT' })]
	])('%s: unavailable too', async (_, error) => {
		const s = setup({ adapter: shuttingDown(error), session: { strategy: 'database' } });
		const res = await s.client().get('session', { headers: { cookie: `authjs.session-token=${'c'.repeat(64)}` } });
		expect(res.status).toBe(503);
		expect(res.headers.has('retry-after')).toBe(true);
	});

	test('a query the server refused (a missing table, 42P01) stays a configuration error', async () => {
		const s = setup({ adapter: shuttingDown(Object.assign(new Error('relation "session" does not exist'), { code: '42P01' })), session: { strategy: 'database' } });
		const res = await s.client().signInWithCredentials('credentials', { ...ALICE_LOGIN });
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(`${ORIGIN}/auth/error?error=Configuration`);
	});
});
