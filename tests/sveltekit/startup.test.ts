/**
 * Start-up through kitauth's real SvelteKit integration (`SvelteKitAuth` and its `handle`),
 * called in process with a request event as SvelteKit builds one, as in a production build:
 * `esm-env`'s DEV is false there, and vitest runs with the development condition, so the flag is
 * set as a build sets it. (Svelte reads it too, so nothing here renders a page; the real
 * production build is tests/sveltekit/kit-app.test.ts's, which also starts one without a secret.)
 *
 * - A static config with a mistake (no secret, a provider without its client secret) makes
 *   `SvelteKitAuth()` throw: the server does not start. Not on Workers, whose variables come with
 *   the first request, nor while SvelteKit's build analyses the app.
 * - A config function's mistake fails the first request: logged once, then every request (auth
 *   routes or not) is the same 500, which SvelteKit shows without logging it again.
 */
import { isHttpError } from '@sveltejs/kit';
import { describe, expect, test, vi } from 'vitest';
import { MissingSecret } from '../../src/lib/core/index.js';
import { SvelteKitAuth } from '../../src/lib/index.js';
import OIDC from '../../src/lib/providers/oidc.js';
import type { SvelteKitAuthConfig } from '../../src/lib/sveltekit/types.js';
import { answer, credentials, deploymentEnv, recording, requestEvent } from './kit-event.js';

// A production build's flags (hoisted above the imports by vitest).
vi.mock('esm-env', () => ({ BROWSER: false, DEV: false, NODE: true }));

const SECRET = 'sveltekit-startup-secret-0123456789abcdef0123';
const CONFIGURATION_MESSAGE = 'There was a problem with the server configuration. Check the server logs for more information.';

deploymentEnv();

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

	test('on a Cloudflare Worker it waits for the first request, which brings the bindings (here AUTH_SECRET)', async () => {
		vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' });
		const { handle } = SvelteKitAuth({ providers: [credentials] });
		const event = requestEvent('http://localhost/auth/session');
		(event as { platform?: unknown }).platform = { env: { AUTH_SECRET: SECRET, AUTH_TRUST_HOST: 'true' } };
		const res = await answer(handle, event);
		expect(res).toBeInstanceOf(Response);
		expect((res as Response).status).toBe(200);
	});

	test("SvelteKit's build analysing the app (SVELTEKIT_FORK) does not start it: the first request fails instead", async () => {
		process.env.SVELTEKIT_FORK = 'true';
		const { errors, logger } = recording();
		const { handle } = SvelteKitAuth({ providers: [credentials], logger });
		const failure = await answer(handle, requestEvent('http://localhost/'));
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
			const failure = await answer(handle, requestEvent(`http://localhost${path}`), reached);
			expect(isHttpError(failure, 500), path).toBe(true);
			expect((failure as { body: { message: string } }).body.message).toBe(CONFIGURATION_MESSAGE);
		}
		expect(reached).toEqual([]);
		expect(errors).toHaveLength(1);
		expect(errors[0]).toBeInstanceOf(MissingSecret);
		expect(errors[0]?.message).toMatch(/AUTH_SECRET/);
	});
});
