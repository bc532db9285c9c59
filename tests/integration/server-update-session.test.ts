/**
 * The server API's `updateSession(request, data)` (what kitauth/remote's `updateSession` command
 * calls): the session updated as `POST /auth/session` updates it for the browser, for a
 * server-side caller, on JWT sessions (the token re-issued) and on database sessions.
 */
import { describe, expect, test } from 'vitest';
import { createAuthServer } from '../../src/lib/core/index.js';
import type { AuthConfig } from '../../src/lib/core/types.js';
import { decode } from '../../src/lib/jwt.js';
import type { TestClient } from '../support/client.js';
import { dbSetup, openStore } from './database-fixtures.js';
import { ALICE, ORIGIN, SECRET, SESSION_COOKIE, setup, signedIn } from './fixtures.js';

const nickname = (data: unknown): string | undefined => {
	const value = (data as { nickname?: unknown } | null | undefined)?.nickname;
	return typeof value === 'string' ? value : undefined;
};

/** Callbacks that keep a nickname an update sends: in the token (JWT), or in the answer (database). */
const callbacks: AuthConfig['callbacks'] = {
	jwt: ({ token, trigger, session }) => (trigger === 'update' && nickname(session) ? { ...token, nickname: nickname(session) } : token),
	session: ({ session, token, trigger, newSession }) => {
		const name = trigger === 'update' ? nickname(newSession) : nickname(token);
		return name ? { ...session, nickname: name } : session;
	}
};

function request(client: TestClient) {
	const url = `${ORIGIN}/profile`;
	return { url: new URL(url), request: new Request(url, { headers: { cookie: client.cookieHeader() } }) };
}

describe('updateSession(request, data)', () => {
	test('JWT sessions: the jwt callback gets trigger update and the data; the new token comes back as cookies, and holds', async () => {
		const app = setup({ callbacks });
		const server = createAuthServer(app.config);
		const client = await signedIn(app);
		const updated = await server.updateSession(request(client), { nickname: 'Al' });
		expect(updated.session).toMatchObject({ nickname: 'Al', user: { email: ALICE.email } });
		const cookie = updated.cookies.find((c) => c.name === SESSION_COOKIE);
		expect(await decode({ token: cookie?.value, secret: SECRET, salt: SESSION_COOKIE })).toMatchObject({ nickname: 'Al', sub: ALICE.id });
		// The browser that stores the cookie reads the updated session from then on.
		client.jar.set(SESSION_COOKIE, cookie!.value);
		expect((await server.session(request(client))).session).toMatchObject({ nickname: 'Al' });
	});

	test('database sessions: the session callback gets trigger update and newSession', async () => {
		const store = await openStore('memory');
		try {
			const app = dbSetup(store, { callbacks, session: { strategy: 'database' } });
			const server = createAuthServer(app.config);
			const client = await signedIn(app);
			expect((await server.updateSession(request(client), { nickname: 'Al' })).session).toMatchObject({ nickname: 'Al', user: { email: ALICE.email } });
		} finally {
			store.close();
		}
	});

	test('signed out: null, no callback, no cookie', async () => {
		let calls = 0;
		const app = setup({ callbacks: { jwt: ({ token }) => (calls++, token) } });
		const server = createAuthServer(app.config);
		expect(await server.updateSession(request(app.client()), { nickname: 'Al' })).toEqual({ session: null, cookies: [] });
		expect(calls).toBe(0);
	});
});
