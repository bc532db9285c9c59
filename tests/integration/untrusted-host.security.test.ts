/**
 * A `Host` that is not trusted (production without `AUTH_URL` or `AUTH_TRUST_HOST`) is decided on
 * before anything is derived from the request: every route answers 400 — the error page for page
 * routes, JSON for JSON routes — with no `Location`, no cookie, and no URL made from its headers
 * (`evil.example` appears nowhere in the answer). The server API fails closed: no session, no URL.
 * The refusal is logged once, saying what to fix.
 */
import { createClient } from '@libsql/client';
import { describe, expect, test } from 'vitest';
import { LibSQLAdapter } from '../../src/lib/adapters/libsql/index.js';
import { createAuthServer, type Env, UntrustedHost } from '../../src/lib/core/index.js';
import { ROUTES } from '../../src/lib/core/router.js';
import { encode } from '../../src/lib/jwt.js';
import type { AuthConfig } from '../../src/lib/core/types.js';
import Passkey from '../../src/lib/providers/passkey.js';
import { ALICE, ALICE_LOGIN, passwordProvider, SECRET, SESSION_COOKIE } from './fixtures.js';

const EVIL = 'evil.example';
const PRODUCTION: Env = { NODE_ENV: 'production' };
const CONFIGURATION_MESSAGE = 'There was a problem with the server configuration. Check the server logs for more information.';

/** An app in production with neither AUTH_URL nor AUTH_TRUST_HOST, and what it logged. */
function untrustedApp(env: Env = PRODUCTION) {
	const errors: Error[] = [];
	const config: AuthConfig = {
		secret: SECRET,
		// JWT sessions: the adapter only stores passkeys (nothing reaches it here).
		adapter: LibSQLAdapter(createClient({ url: ':memory:' })),
		session: { strategy: 'jwt' },
		providers: [passwordProvider(), Passkey({})],
		experimental: { enableWebAuthn: true },
		logger: { error: (error) => void errors.push(error), warn: () => {}, debug: () => {} }
	};
	return { server: createAuthServer(config, { env }), errors };
}

async function sessionCookie(): Promise<string> {
	return encode({ token: { name: ALICE.name, email: ALICE.email, sub: ALICE.id }, secret: SECRET, salt: SESSION_COOKIE });
}

/** A request as a hostile client sends it: to evil.example, with every header naming it. */
async function hostile(method: string, path: string, headers: Record<string, string> = {}): Promise<Request> {
	const post = method === 'POST';
	return new Request(`http://${EVIL}/auth/${path}`, {
		method,
		headers: {
			host: EVIL,
			'x-forwarded-host': EVIL,
			'x-forwarded-proto': 'https',
			forwarded: `host=${EVIL};proto=https`,
			cookie: `${SESSION_COOKIE}=${await sessionCookie()}`,
			...(post ? { origin: `http://${EVIL}`, 'content-type': 'application/x-www-form-urlencoded' } : {}),
			...headers
		},
		body: post ? new URLSearchParams({ ...ALICE_LOGIN, callbackUrl: `https://${EVIL}/next` }).toString() : undefined
	});
}

/** Nothing of the request's host anywhere in the answer, and no redirect, cookie or session. */
async function expectNothingDerived(res: Response, what: string): Promise<string> {
	expect(res.status, what).toBe(400);
	expect(res.headers.get('location'), what).toBeNull();
	expect(res.headers.getSetCookie(), what).toEqual([]);
	const body = await res.text();
	for (const [name, value] of res.headers) expect(`${name}: ${value}`, what).not.toContain(EVIL);
	expect(body, what).not.toContain(EVIL);
	expect(body, what).not.toContain(ALICE.email);
	return body;
}

const paths = (action: string, provider: string): string[] => (provider === 'none' ? [action] : [action, `${action}/credentials`, `${action}/passkey`]);

describe('every route of the route table, GET and POST', () => {
	for (const [key, route] of Object.entries(ROUTES)) {
		const [method, action] = key.split(' ') as [string, string];
		test(`${key}: 400 ${route.errors === 'json' ? 'JSON' : 'error page'}, nothing derived from the Host`, async () => {
			const { server } = untrustedApp();
			for (const path of paths(action, route.provider)) {
				const res = await server.handle(await hostile(method, path));
				const body = await expectNothingDerived(res, `${method} ${path}`);
				if (route.errors === 'json') {
					expect(res.headers.get('content-type')).toBe('application/json');
					expect(JSON.parse(body)).toEqual({ message: CONFIGURATION_MESSAGE });
				} else {
					expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
					expect(body).toContain('There is a problem with the server configuration.');
					expect(body).toContain('href="/"');
				}
			}
		});
	}

	test('HEAD on a page: 400 without a body', async () => {
		const res = await untrustedApp().server.handle(await hostile('HEAD', 'signin'));
		expect(await expectNothingDerived(res, 'HEAD signin')).toBe('');
	});

	test('a client asking for JSON (X-Auth-Return-Redirect) gets JSON, without a url', async () => {
		const res = await untrustedApp().server.handle(await hostile('POST', 'signin/credentials', { 'x-auth-return-redirect': '1' }));
		expect(JSON.parse(await expectNothingDerived(res, 'POST signin'))).toEqual({ message: CONFIGURATION_MESSAGE });
	});

	test('an unknown action is the same 400', async () => {
		await expectNothingDerived(await untrustedApp().server.handle(await hostile('GET', 'nonsense')), 'GET nonsense');
	});

	test('AUTH_TRUST_HOST=false is untrusted too', async () => {
		const { server } = untrustedApp({ NODE_ENV: 'production', AUTH_TRUST_HOST: 'false' });
		await expectNothingDerived(await server.handle(await hostile('GET', 'signin')), 'GET signin');
	});

	test('control: trusted (AUTH_TRUST_HOST=true), the same request gets the sign-in page', async () => {
		const { server } = untrustedApp({ NODE_ENV: 'production', AUTH_TRUST_HOST: 'true' });
		const res = await server.handle(await hostile('GET', 'signin'));
		expect(res.status).toBe(200);
		expect(await res.text()).toContain(EVIL);
	});
});

test('logged once, saying what to fix and nothing of the request', async () => {
	const { server, errors } = untrustedApp();
	for (let i = 0; i < 5; i++) await server.handle(await hostile(i % 2 ? 'POST' : 'GET', i % 2 ? 'signin/credentials' : 'session'));
	expect(errors.map((e) => e.name)).toEqual(['UntrustedHost']);
	expect(errors[0]?.message).toMatch(/AUTH_URL/);
	expect(errors[0]?.message).toMatch(/AUTH_TRUST_HOST=true/);
	expect(errors[0]?.message).not.toContain(EVIL);
});

describe('the server API fails closed', () => {
	const request = async () => {
		const req = await hostile('GET', 'signin');
		return { url: new URL(req.url), request: req };
	};

	test('session(): throws UntrustedHost, never a session', async () => {
		await expect(untrustedApp().server.session(await request())).rejects.toBeInstanceOf(UntrustedHost);
	});

	test('signIn() without a provider (the sign-in page) and with one: throws, no URL', async () => {
		const { server } = untrustedApp();
		await expect(server.signIn(await request(), undefined)).rejects.toBeInstanceOf(UntrustedHost);
		await expect(server.signIn(await request(), 'credentials', { fields: { ...ALICE_LOGIN } })).rejects.toBeInstanceOf(UntrustedHost);
		expect(() => server.signInUrl({ url: new URL(`http://${EVIL}/x`), request: new Request(`http://${EVIL}/x`) }, '/x')).toThrow(UntrustedHost);
	});

	test('signOut(): throws, no URL', async () => {
		await expect(untrustedApp().server.signOut(await request())).rejects.toBeInstanceOf(UntrustedHost);
	});
});
