/**
 * Start-up and host trust through kitauth's real SvelteKit integration (`SvelteKitAuth`, its
 * `handle`, `locals.auth()` and the `signIn` form action), called in process with a request event
 * as SvelteKit builds one. The environment is the process's, as in a deployment: production, no
 * `AUTH_*` variable unless a test sets one.
 *
 * - A static config with a mistake (no secret, a provider without its client secret) makes
 *   `SvelteKitAuth()` throw: the server does not start.
 * - A config function's mistake fails the first request: logged once, then every request (auth
 *   routes or not) is the same 500, which SvelteKit shows without logging it again.
 * - An untrusted `Host` gets 400s with nothing derived from it, and `locals.auth()` fails closed.
 */
import { isActionFailure, isHttpError, type RequestEvent } from '@sveltejs/kit';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { MissingSecret, UntrustedHost } from '../../src/lib/core/index.js';
import { SvelteKitAuth } from '../../src/lib/index.js';
import Credentials from '../../src/lib/providers/credentials.js';
import OIDC from '../../src/lib/providers/oidc.js';
import type { SvelteKitAuthConfig } from '../../src/lib/sveltekit/types.js';

const SECRET = 'sveltekit-startup-secret-0123456789abcdef0123';
const EVIL = 'evil.example';
const CONFIGURATION_MESSAGE = 'There was a problem with the server configuration. Check the server logs for more information.';
const VARIABLES = ['NODE_ENV', 'AUTH_SECRET', 'AUTH_URL', 'AUTH_TRUST_HOST', 'AUTH_CORP_SECRET', 'VERCEL', 'CF_PAGES', 'SVELTEKIT_FORK'];

let saved: Record<string, string | undefined> = {};
beforeEach(() => {
	saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
	for (const name of VARIABLES) delete process.env[name];
	process.env.NODE_ENV = 'production';
});
afterEach(() => {
	for (const [name, value] of Object.entries(saved)) {
		if (value === undefined) delete process.env[name];
		else process.env[name] = value;
	}
});

const credentials = Credentials({
	credentials: { email: { label: 'Email' }, password: { label: 'Password', type: 'password' } },
	authorize: () => null
});

/** The config's own logger, recording. */
function recording() {
	const errors: Error[] = [];
	return { errors, logger: { error: (error: Error) => void errors.push(error), warn: () => {}, debug: () => {} } };
}

/** A request event as SvelteKit makes one (cookies in a jar, the client's address). */
function event(url: string, init: RequestInit = {}): RequestEvent {
	const jar = new Map<string, string>();
	const request = new Request(url, init);
	return {
		request,
		url: new URL(url),
		locals: {},
		params: {},
		route: { id: null },
		platform: undefined,
		isDataRequest: false,
		isSubRequest: false,
		getClientAddress: () => '203.0.113.9',
		setHeaders: () => {},
		fetch: globalThis.fetch,
		cookies: {
			get: (name: string) => jar.get(name),
			getAll: () => [...jar].map(([name, value]) => ({ name, value })),
			set: (name: string, value: string) => void jar.set(name, value),
			delete: (name: string) => void jar.delete(name),
			serialize: () => ''
		}
	} as unknown as RequestEvent;
}

/** What the handle answered, or threw (SvelteKit turns an `HttpError` into its error page). */
async function answer(handle: ReturnType<typeof SvelteKitAuth>['handle'], e: RequestEvent, reached: string[] = []) {
	try {
		return await handle({ event: e, resolve: async () => (reached.push(e.url.pathname), new Response('the app')) });
	} catch (error) {
		return error;
	}
}

describe('a static config: SvelteKitAuth() throws at start-up', () => {
	test('no secret: MissingSecret, naming AUTH_SECRET and how to make one', () => {
		expect(() => SvelteKitAuth({ providers: [credentials] })).toThrow(MissingSecret);
		expect(() => SvelteKitAuth({ providers: [credentials] })).toThrow(/AUTH_SECRET.*openssl rand -base64 33/s);
	});

	test('an OIDC provider whose clientSecret came from a variable never set: names AUTH_<ID>_SECRET', () => {
		const corp = OIDC({ id: 'corp', name: 'Corp', issuer: 'https://sso.corp.example', clientId: 'app', clientSecret: process.env.AUTH_CORP_SECRET });
		expect(() => SvelteKitAuth({ secret: SECRET, providers: [corp] })).toThrow(/"corp".*AUTH_CORP_SECRET/);
		process.env.AUTH_CORP_SECRET = 'from-the-environment';
		expect(() => SvelteKitAuth({ secret: SECRET, providers: [OIDC({ id: 'corp', name: 'Corp', issuer: 'https://sso.corp.example', clientId: 'app' })] })).not.toThrow();
	});

	test("SvelteKit's build analysing the app (SVELTEKIT_FORK) does not start it: the first request fails instead", async () => {
		process.env.SVELTEKIT_FORK = 'true';
		const { errors, logger } = recording();
		const { handle } = SvelteKitAuth({ providers: [credentials], logger });
		const failure = await answer(handle, event('http://localhost/'));
		expect(isHttpError(failure, 500)).toBe(true);
		expect(errors.map((e) => e.name)).toEqual(['MissingSecret']);
	});
});

describe('a config function: the first request fails, logged once; every request after it alike', () => {
	test('no secret: a 500 for every route, auth or not, without the app being reached; one log entry', async () => {
		const { errors, logger } = recording();
		const config = (): SvelteKitAuthConfig => ({ providers: [credentials], logger });
		const { handle } = SvelteKitAuth(config);
		const reached: string[] = [];
		for (const path of ['/', '/auth/session', '/about', '/auth/signin', '/']) {
			const failure = await answer(handle, event(`http://localhost${path}`), reached);
			expect(isHttpError(failure, 500), path).toBe(true);
			expect((failure as { body: { message: string } }).body.message).toBe(CONFIGURATION_MESSAGE);
		}
		expect(reached).toEqual([]);
		expect(errors).toHaveLength(1);
		expect(errors[0]).toBeInstanceOf(MissingSecret);
		expect(errors[0]?.message).toMatch(/AUTH_SECRET/);
	});
});

describe('an untrusted Host (production, neither AUTH_URL nor AUTH_TRUST_HOST)', () => {
	const app = () => SvelteKitAuth({ secret: SECRET, providers: [credentials], logger: { error: () => {}, warn: () => {}, debug: () => {} } });
	const headers = { host: EVIL, 'x-forwarded-host': EVIL };

	async function expectNothingDerived(res: unknown, status = 400): Promise<void> {
		expect(res).toBeInstanceOf(Response);
		const response = res as Response;
		expect(response.status).toBe(status);
		expect(response.headers.get('location')).toBeNull();
		for (const [name, value] of response.headers) expect(`${name}: ${value}`).not.toContain(EVIL);
		expect(await response.text()).not.toContain(EVIL);
	}

	test('GET and POST to the auth routes: 400, nothing of the Host in the answer', async () => {
		const { handle } = app();
		await expectNothingDerived(await answer(handle, event(`http://${EVIL}/auth/signin`, { headers })));
		await expectNothingDerived(await answer(handle, event(`http://${EVIL}/auth/session`, { headers })));
		const form = new URLSearchParams({ email: 'a@example.com', password: 'x', callbackUrl: `http://${EVIL}/next` });
		const post = { method: 'POST', headers: { ...headers, origin: `http://${EVIL}`, 'content-type': 'application/x-www-form-urlencoded' }, body: form };
		await expectNothingDerived(await answer(handle, event(`http://${EVIL}/auth/callback/credentials`, post)));
		await expectNothingDerived(await answer(handle, event(`http://${EVIL}/auth/signin`, { ...post, body: new URLSearchParams(form) })));
	});

	test('locals.auth() on an app page fails closed: it throws UntrustedHost, never a session', async () => {
		const { handle } = app();
		const e = event(`http://${EVIL}/account`, { headers });
		const res = await handle({ event: e, resolve: async (ev) => new Response(JSON.stringify(await ev.locals.auth())) }).catch((error: unknown) => error);
		expect(res).toBeInstanceOf(UntrustedHost);
	});

	test('the signIn form action: a failure, never a redirect to the Host', async () => {
		const { signIn } = app();
		const forms: Record<string, string>[] = [{ providerId: 'credentials', email: 'a@example.com', password: 'x' }, {}];
		for (const fields of forms) {
			const e = event(`http://${EVIL}/login`, { method: 'POST', headers, body: new URLSearchParams(fields) });
			const result = await signIn(e).catch((error: unknown) => error);
			expect(isActionFailure(result), JSON.stringify(fields)).toBe(true);
			expect(JSON.stringify(result)).not.toContain(EVIL);
		}
	});
});
