import { afterEach, describe, expect, test } from 'vitest';
import { Auth, MissingSecret, createActionURL, createAuthServer, type Env } from '../../src/lib/core/index.js';
import { encode } from '../../src/lib/jwt.js';
import type { AuthConfig, Session } from '../../src/lib/core/types.js';
import { TestClient, setCookies } from '../support/client.js';
import {
	ALICE,
	ALICE_LOGIN,
	SECRET,
	SESSION_COOKIE,
	expectNoSessionGranted,
	location,
	passwordProvider,
	setup
} from './fixtures.js';

const SITE = 'https://app.example';
const INTERNAL = 'http://10.0.0.7:3000';
const FORWARDED = { 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '6.6.6.6' };

/** A client on the internal address, with the forged forwarded headers on every request. */
function behindProxy(app: (request: Request) => Promise<Response>): TestClient {
	const handler = (request: Request) => {
		const headers = new Headers(request.headers);
		for (const [name, value] of Object.entries(FORWARDED)) headers.set(name, value);
		return app(new Request(request, { headers }));
	};
	return new TestClient(handler, { origin: INTERNAL });
}

/** The app's handler with the configuration resolved against `env`. */
function handlerWith(config: AuthConfig, env: Env): (request: Request) => Promise<Response> {
	return createAuthServer(config, { env }).handle;
}

describe('AUTH_URL', () => {
	test('every generated URL uses AUTH_URL, even with X-Forwarded-Host: evil', async () => {
		const s = setup({}, undefined, { AUTH_URL: SITE });
		const client = behindProxy(s.handler);

		const providers = (await (await client.get('providers')).json()) as Record<string, { signinUrl: string; callbackUrl: string }>;
		expect(providers.credentials).toMatchObject({
			signinUrl: `${SITE}/auth/signin/credentials`,
			callbackUrl: `${SITE}/auth/callback/credentials`
		});

		const page = await (await client.get('signin')).text();
		expect(page).toContain(`action="${SITE}/auth/callback/credentials"`);
		expect(page).not.toContain('evil.example');
		expect(page).not.toContain('10.0.0.7');

		const signin = await client.postForm('signin', { callbackUrl: '/next' });
		expect(signin.headers.get('location')).toBe(`${SITE}/auth/signin?callbackUrl=${encodeURIComponent(`${SITE}/next`)}`);

		const refused = await client.signInWithCredentials('credentials', { username: 'alice', password: 'x' });
		expect(refused.headers.get('location')).toBe(`${SITE}/auth/signin?error=CredentialsSignin&code=credentials`);

		const ok = await client.signInWithCredentials('credentials', { ...ALICE_LOGIN, callbackUrl: '/home' });
		expect(ok.headers.get('location')).toBe(`${SITE}/home`);
		const cookie = setCookies(ok).find((c) => c.name === `__Host-${SESSION_COOKIE}`);
		expect(cookie?.attributes.secure).toBe(true);
		expect(((await client.session()) as Session).user?.email).toBe(ALICE.email);

		const out = await client.postForm('signout');
		expect(location(out).origin).toBe(SITE);

		const back = location(await client.get('signin/credentials'));
		expect(back.origin + back.pathname).toBe(`${SITE}/auth/signin`);
	});

	test("the request's own (internal) origin is not a trusted callbackUrl origin", async () => {
		const s = setup({}, undefined, { AUTH_URL: SITE });
		const res = await behindProxy(s.handler).signInWithCredentials('credentials', { ...ALICE_LOGIN, callbackUrl: `${INTERNAL}/x` });
		expect(location(res).origin).toBe(SITE);
	});

	test('a path in AUTH_URL becomes the basePath', async () => {
		const s = setup({}, undefined, { AUTH_URL: `${SITE}/custom/auth` });
		const client = new TestClient(s.handler, { origin: INTERNAL, basePath: '/custom/auth' });
		const body = (await (await client.get('providers')).json()) as Record<string, { signinUrl: string }>;
		expect(body.credentials?.signinUrl).toBe(`${SITE}/custom/auth/signin/credentials`);
	});

	test('createActionURL follows AUTH_URL, never the forwarded host', () => {
		const url = createActionURL('signin', 'http', new Headers({ 'x-forwarded-host': 'evil.example', host: 'evil.example' }), { AUTH_URL: SITE }, {});
		expect(url.href).toBe(`${SITE}/auth/signin`);
	});

	test('without AUTH_URL the core ignores forwarded headers and uses the request URL', async () => {
		const client = behindProxy(setup().handler);
		const body = (await (await client.get('providers')).json()) as Record<string, { signinUrl: string }>;
		expect(body.credentials?.signinUrl).toBe(`${INTERNAL}/auth/signin/credentials`);
	});

	test('AUTH_SECRET from the environment is used when the config has none', async () => {
		const config: AuthConfig = { trustHost: true, providers: [passwordProvider()] };
		const client = new TestClient(handlerWith(config, { AUTH_SECRET: SECRET }));
		await client.signInWithCredentials('credentials', { ...ALICE_LOGIN });
		expect(((await client.session()) as Session).user?.name).toBe(ALICE.name);
	});
});

describe('missing secret', () => {
	const SECRET_VARS = ['AUTH_SECRET', 'AUTH_SECRET_1', 'AUTH_SECRET_2', 'AUTH_SECRET_3', 'NEXTAUTH_SECRET'] as const;
	const saved = new Map<string, string | undefined>();

	afterEach(() => {
		for (const [name, value] of saved) {
			if (value === undefined) delete process.env[name];
			else process.env[name] = value;
		}
		saved.clear();
	});

	test('Auth() rejects with MissingSecret', async () => {
		for (const name of SECRET_VARS) {
			saved.set(name, process.env[name]);
			delete process.env[name];
		}
		const config: AuthConfig = { trustHost: true, providers: [passwordProvider()] };
		await expect(Auth(new Request('http://localhost:3000/auth/session'), config)).rejects.toBeInstanceOf(MissingSecret);
		await expect(Auth(new Request('http://localhost:3000/auth/signin'), config)).rejects.toThrow(/AUTH_SECRET/);
	});

	test('an empty secret (or an array of empty strings) counts as missing', () => {
		const config: AuthConfig = { secret: ['', ''], trustHost: true, providers: [passwordProvider()] };
		expect(() => createAuthServer(config, { env: {} })).toThrow(MissingSecret);
	});
});

describe('trustHost: false (see untrusted-host.security.test.ts)', () => {
	async function validCookie(): Promise<string> {
		return encode({ token: { name: ALICE.name, email: ALICE.email, sub: ALICE.id }, secret: SECRET, salt: SESSION_COOKIE });
	}

	test('JSON actions answer 400 with the configuration message, never a session; logged once', async () => {
		const s = setup({ trustHost: false });
		const client = s.client();
		client.setCookie(SESSION_COOKIE, await validCookie());
		for (const action of ['session', 'csrf', 'providers']) {
			const res = await client.get(action);
			expect(res.status).toBe(400);
			expect(res.headers.get('cache-control')).toBe('private, no-cache, no-store');
			const text = await expectNoSessionGranted(res);
			expect(JSON.parse(text)).toEqual({
				message: 'There was a problem with the server configuration. Check the server logs for more information.'
			});
		}
		expect(s.errors.filter((e) => e.name === 'UntrustedHost')).toHaveLength(1);
	});

	test('page and form actions answer the error page (400), never a redirect or a session', async () => {
		const s = setup({ trustHost: false });
		const client = s.client();
		client.setCookie(SESSION_COOKIE, await validCookie());
		const requests: [string, string, Record<string, string>?][] = [
			['GET', 'signin'],
			['GET', 'signout'],
			['GET', 'verify-request'],
			['GET', 'error'],
			['POST', 'signin', {}],
			['POST', 'signout', {}],
			['POST', 'callback/credentials', { ...ALICE_LOGIN }]
		];
		for (const [method, path, form] of requests) {
			const res = await client.request(path, { method, form });
			expect(res.status, `${method} ${path}`).toBe(400);
			expect(res.headers.get('location')).toBeNull();
			expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
			expect(await expectNoSessionGranted(res)).toContain('There is a problem with the server configuration.');
		}
	});

	test('NODE_ENV=production without AUTH_TRUST_HOST is untrusted; AUTH_URL or AUTH_TRUST_HOST=true trusts', async () => {
		const untrusted: AuthConfig = { secret: SECRET, providers: [passwordProvider()], logger: { error: () => {} } };
		expect((await handlerWith(untrusted, { NODE_ENV: 'production' })(new Request('http://localhost:3000/auth/session'))).status).toBe(400);

		const falseFlag: AuthConfig = { secret: SECRET, providers: [passwordProvider()], logger: { error: () => {} } };
		const falseHandler = handlerWith(falseFlag, { NODE_ENV: 'production', AUTH_TRUST_HOST: 'false' });
		expect((await falseHandler(new Request('http://localhost:3000/auth/session'))).status).toBe(400);

		const byUrl: AuthConfig = { secret: SECRET, providers: [passwordProvider()] };
		expect((await handlerWith(byUrl, { NODE_ENV: 'production', AUTH_URL: SITE })(new Request(`${SITE}/auth/session`))).status).toBe(200);

		const byFlag: AuthConfig = { secret: SECRET, providers: [passwordProvider()] };
		const flagHandler = handlerWith(byFlag, { NODE_ENV: 'production', AUTH_TRUST_HOST: 'true' });
		expect((await flagHandler(new Request('http://localhost:3000/auth/session'))).status).toBe(200);
	});
});

describe('other configuration errors', () => {
	test('a credentials provider without authorize(): 500 JSON, not a crash', async () => {
		const errors: unknown[] = [];
		const original = console.error;
		console.error = (...args: unknown[]) => void errors.push(args);
		try {
			const config = {
				secret: SECRET,
				trustHost: true,
				providers: [{ id: 'broken', name: 'Broken', type: 'credentials', credentials: {} }]
			} as unknown as AuthConfig;
			const res = await Auth(new Request('http://localhost:3000/auth/session'), config);
			expect(res.status).toBe(500);
			await expectNoSessionGranted(res, { allow500: true });
		} finally {
			console.error = original;
		}
		expect(errors.length).toBeGreaterThan(0);
	});

	test('the user config object is never mutated', async () => {
		const s = setup();
		const before = JSON.stringify(s.config);
		const keys = Object.keys(s.config).sort();
		await s.client().signInWithCredentials('credentials', { ...ALICE_LOGIN });
		expect(JSON.stringify(s.config)).toBe(before);
		expect(Object.keys(s.config).sort()).toEqual(keys);
	});
});
