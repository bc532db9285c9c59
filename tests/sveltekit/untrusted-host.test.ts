/**
 * An untrusted `Host` (production, neither `AUTH_URL` nor `AUTH_TRUST_HOST`) through kitauth's
 * real SvelteKit integration, called in process with request events as SvelteKit builds them:
 * the handle answers 400s with nothing derived from the Host, `locals.auth()` fails closed, and
 * the `signIn` form action fails without a redirect. Also: under `vite dev` (as vitest runs, with
 * the development condition) a static config's mistake waits for the first request, as it did.
 */
import { isActionFailure, isHttpError } from '@sveltejs/kit';
import { describe, expect, test } from 'vitest';
import { UntrustedHost } from '../../src/lib/core/index.js';
import { SvelteKitAuth } from '../../src/lib/index.js';
import { answer, credentials, deploymentEnv, recording, requestEvent } from './kit-event.js';

const SECRET = 'sveltekit-untrusted-secret-0123456789abcdef0123';
const EVIL = 'evil.example';

deploymentEnv();

describe('an untrusted Host', () => {
	const app = () => SvelteKitAuth({ secret: SECRET, providers: [credentials], logger: recording().logger });
	const headers = { host: EVIL, 'x-forwarded-host': EVIL };

	async function expectNothingDerived(res: unknown): Promise<void> {
		expect(res).toBeInstanceOf(Response);
		const response = res as Response;
		expect(response.status).toBe(400);
		expect(response.headers.get('location')).toBeNull();
		for (const [name, value] of response.headers) expect(`${name}: ${value}`).not.toContain(EVIL);
		expect(await response.text()).not.toContain(EVIL);
	}

	test('GET and POST to the auth routes: 400, nothing of the Host in the answer', async () => {
		const { handle } = app();
		await expectNothingDerived(await answer(handle, requestEvent(`http://${EVIL}/auth/signin`, { headers })));
		await expectNothingDerived(await answer(handle, requestEvent(`http://${EVIL}/auth/session`, { headers })));
		const form = new URLSearchParams({ email: 'a@example.com', password: 'x', callbackUrl: `http://${EVIL}/next` });
		const post = { method: 'POST', headers: { ...headers, origin: `http://${EVIL}`, 'content-type': 'application/x-www-form-urlencoded' }, body: form };
		await expectNothingDerived(await answer(handle, requestEvent(`http://${EVIL}/auth/callback/credentials`, post)));
		await expectNothingDerived(await answer(handle, requestEvent(`http://${EVIL}/auth/signin`, { ...post, body: new URLSearchParams(form) })));
	});

	test('locals.auth() on an app page fails closed: it throws UntrustedHost, never a session', async () => {
		const { handle } = app();
		const event = requestEvent(`http://${EVIL}/account`, { headers });
		const res = await handle({ event, resolve: async (e) => new Response(JSON.stringify(await e.locals.auth())) }).catch((error: unknown) => error);
		expect(res).toBeInstanceOf(UntrustedHost);
	});

	test('the signIn form action: a failure, never a redirect to the Host', async () => {
		const { signIn } = app();
		const forms: Record<string, string>[] = [{ providerId: 'credentials', email: 'a@example.com', password: 'x' }, {}];
		for (const fields of forms) {
			const event = requestEvent(`http://${EVIL}/login`, { method: 'POST', headers, body: new URLSearchParams(fields) });
			const result = await signIn(event).catch((error: unknown) => error);
			expect(isActionFailure(result), JSON.stringify(fields)).toBe(true);
			expect(JSON.stringify(result)).not.toContain(EVIL);
		}
	});
});

test('under vite dev a static config with a mistake waits for the first request: logged once, then every request a 500', async () => {
	const { errors, logger } = recording();
	const { handle } = SvelteKitAuth({ providers: [credentials], logger });
	for (const path of ['/', '/auth/session', '/']) expect(isHttpError(await answer(handle, requestEvent(`http://localhost${path}`)), 500)).toBe(true);
	expect(errors.map((e) => e.name)).toEqual(['MissingSecret']);
});
