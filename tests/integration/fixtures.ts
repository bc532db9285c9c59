/**
 * Shared set-up for the integration suites: a real configuration (credentials provider, a secret,
 * a logger that records instead of printing) and a cookie-jar client driving the real `Auth()`.
 */
import { expect } from 'vitest';
import { Auth, createAuthServer, type Env } from '../../src/lib/core/index.js';
import type { AuthConfig, WarningCode } from '../../src/lib/core/types.js';
import Credentials from '../../src/lib/providers/credentials.js';
import { isDeletion, setCookies, TestClient } from '../support/client.js';

export const SECRET = 'integration-secret-0123456789abcdef0123456789';
export const ORIGIN = 'http://localhost:3000';
export const SESSION_COOKIE = 'authjs.session-token';
export const CSRF_COOKIE = 'authjs.csrf-token';
export const CALLBACK_COOKIE = 'authjs.callback-url';

export const ALICE = { id: 'user-1', name: 'Alice', email: 'alice@example.com' } as const;
export const ALICE_LOGIN = { username: 'alice', password: 'wonderland' } as const;

/** The credentials provider of most tests: alice/wonderland is Alice, anything else is refused. */
export function passwordProvider(overrides: Partial<Parameters<typeof Credentials>[0]> = {}) {
	return Credentials({
		credentials: {
			username: { label: 'Username' },
			password: { label: 'Password', type: 'password' }
		},
		authorize: ({ username, password }) =>
			username === ALICE_LOGIN.username && password === ALICE_LOGIN.password ? { ...ALICE } : null,
		...overrides
	});
}

export interface Setup {
	config: AuthConfig;
	errors: Error[];
	warnings: WarningCode[];
	handler: (request: Request) => Promise<Response>;
	client: (origin?: string) => TestClient;
}

/**
 * A fresh configuration object (options are cached per object) and a client factory. With `env`,
 * the app runs on the server API resolved against that environment instead of the process's.
 */
export function setup(overrides: Partial<AuthConfig> = {}, origin = ORIGIN, env?: Env): Setup {
	const errors: Error[] = [];
	const warnings: WarningCode[] = [];
	const config: AuthConfig = {
		secret: SECRET,
		trustHost: true,
		providers: [passwordProvider()],
		logger: { error: (error) => errors.push(error), warn: (code) => warnings.push(code), debug: () => {} },
		...overrides
	};
	const handler = env ? createAuthServer(config, { env }).handle : (request: Request) => Auth(request, config);
	return { config, errors, warnings, handler, client: (o = origin) => new TestClient(handler, { origin: o }) };
}

/**
 * A `session` callback that puts the user's id in the session (the default, as Auth.js's, has
 * only name, email and image): for the suites that look at ids. With database sessions it picks
 * its fields, since the `session` it is given is the stored one (`userId`, `createdAt`, …).
 */
export const sessionWithUserId: NonNullable<NonNullable<AuthConfig['callbacks']>['session']> = ({ session, user, token }) =>
	user
		? { user: { id: user.id, name: user.name, email: user.email, image: user.image }, expires: session.expires }
		: { ...session, user: { ...session.user, id: token?.sub } };

/** Signs Alice in through the real credentials callback; returns the client holding the session. */
export async function signedIn(s: Setup, origin?: string): Promise<TestClient> {
	const client = s.client(origin);
	const res = await client.signInWithCredentials('credentials', { ...ALICE_LOGIN });
	expect(res.status).toBe(302);
	return client;
}

/** Session cookies (whole or chunks) this response sets to a non-empty value. */
export function sessionCookiesSet(res: Response, name = SESSION_COOKIE): string[] {
	return setCookies(res)
		.filter((c) => (c.name === name || c.name.startsWith(`${name}.`)) && !isDeletion(c) && c.value !== '')
		.map((c) => c.name);
}

/** Session cookies (whole or chunks) this response deletes. */
export function sessionCookiesCleared(res: Response, name = SESSION_COOKIE): string[] {
	return setCookies(res)
		.filter((c) => (c.name === name || c.name.startsWith(`${name}.`)) && isDeletion(c))
		.map((c) => c.name);
}

/**
 * What every hostile request must get: an answer (never a 500 unless `allow500`), no session
 * cookie, and no session in the body. Returns the body text for further checks.
 */
export async function expectNoSessionGranted(res: Response, opts: { allow500?: boolean } = {}): Promise<string> {
	if (!opts.allow500) expect(res.status).toBeLessThan(500);
	expect(sessionCookiesSet(res)).toEqual([]);
	expect(sessionCookiesSet(res, `__Secure-${SESSION_COOKIE}`)).toEqual([]);
	expect(sessionCookiesSet(res, `__Host-${SESSION_COOKIE}`)).toEqual([]);
	const text = await res.text();
	if ((res.headers.get('content-type') ?? '').includes('application/json')) {
		const body: unknown = JSON.parse(text);
		if (body && typeof body === 'object' && !('url' in body) && !('csrfToken' in body)) {
			expect(body).not.toHaveProperty('user');
			expect(body).not.toHaveProperty('expires');
		}
	}
	return text;
}

/** Location of a redirect, parsed. */
export function location(res: Response): URL {
	const value = res.headers.get('location');
	expect(value, `status ${res.status} without Location`).not.toBeNull();
	return new URL(value as string);
}
