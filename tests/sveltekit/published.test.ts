/**
 * kitauth as published (svelte-package's output, copied into an app's node_modules) in one small
 * app (tests/kit2-app/src), built with `vite build` and served by adapter-node, driven over HTTP —
 * on SvelteKit 2.20, the oldest release kitauth's peer range (`^2.20 || ^3`) allows, and on
 * SvelteKit 3 (tests/kit3-pkg-app). The SvelteKit 3 suite (kit-app.test.ts, from source) covers the
 * behaviour in depth; this one proves the package works on both: the handle under `paths.base`,
 * `locals.auth()`, the form actions, the components, and on kit 2 the published type declarations
 * (tests/kit2-app/types/app.ts, checked with `tsc`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isDeletion, setCookies, type TestClient } from '../support/client.js';
import { buildFixture, type Fixture, KIT2_APP, KIT3_PACKAGED_APP, run, type RunningApp, startFixture } from './kit-app-server.js';
import { appBrowser, HTML, pageState, postEnhanced } from './kit-client.js';

const SESSION_COOKIE = 'authjs.session-token';
const ALICE = { email: 'alice@example.com', password: 'correct horse battery staple' };

const FIXTURES: [name: string, fixture: Fixture][] = [
	['SvelteKit 2.20', KIT2_APP],
	['SvelteKit 3', KIT3_PACKAGED_APP]
];

describe.each(FIXTURES)('kitauth as published, on %s', (name, fixture) => {
	let app: RunningApp;

	beforeAll(async () => {
		const { ms } = await buildFixture(fixture);
		console.info(`${name}: packaged and built in ${ms} ms`);
		app = await startFixture(fixture);
	}, 180_000);

	afterAll(async () => {
		await app?.stop();
	});

	function browser(): TestClient {
		return appBrowser(app.origin, '/base/auth', `published package test (${name})`);
	}

	function signInAction(client: TestClient, form: Record<string, string>) {
		return postEnhanced(client, '/base/signin', 'signIn', form);
	}

	async function signIn(client: TestClient): Promise<void> {
		const { body } = await signInAction(client, { providerId: 'credentials', ...ALICE, redirectTo: '/base/protected' });
		expect(body).toEqual({ type: 'redirect', status: 303, location: `${app.origin}/base/protected` });
		expect(client.jar.has(SESSION_COOKIE)).toBe(true);
	}

	test('kitauth/remote ships in the package, and this app, without remote functions turned on, builds without loading it', () => {
		const remote = join(dirname(fixture.out), 'node_modules/kitauth/dist/remote');
		expect(existsSync(join(remote, 'auth.remote.js'))).toBe(true);
		expect(existsSync(join(remote, 'server.js'))).toBe(true);
		// SvelteKit 3 refuses to build an app that loads a remote module without the flag; SvelteKit 2
		// would bundle it. Either way, none of kitauth/remote's code is in the server.
		const server = join(fixture.out, 'server');
		const files = readdirSync(server, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'));
		expect(files.length).toBeGreaterThan(0);
		for (const file of files) expect(readFileSync(join(server, file), 'utf8'), file).not.toContain("kitauth/remote: this request did not pass kitauth's handle");
	});

	test('the handle serves {paths.base}/auth/* through the core', async () => {
		const client = browser();
		const res = await client.get('providers');
		expect(res.status).toBe(200);
		expect(res.headers.get('x-kit2-app')).toBeNull();
		expect(await res.json()).toMatchObject({
			credentials: { id: 'credentials', type: 'credentials', signinUrl: `${app.origin}/base/auth/signin/credentials` }
		});
		expect(await client.csrfToken()).toMatch(/^[0-9a-f]{64}$/);
		expect(await client.session()).toBeNull();
	});

	test('everything else goes on to the app, where locals.auth() reads no session', async () => {
		const client = browser();
		const home = await client.get('/base/', { headers: HTML });
		expect(home.status).toBe(200);
		expect(home.headers.get('x-kit2-app')).toBe('resolved');
		expect(pageState(await home.text()).data).toEqual({ session: null });
		const protectedPage = await client.get('/base/protected', { headers: HTML });
		expect(protectedPage.status).toBe(303);
		expect(protectedPage.headers.get('location')).toBe('/base/signin');
	});

	test('the SignIn component renders the credentials form, posting to the signIn action', async () => {
		const html = await (await browser().get('/base/signin', { headers: HTML })).text();
		expect(html).toMatch(/<form[^>]*method="post"[^>]*action="\?\/signIn"/);
		expect(html).toContain('name="email"');
		expect(html).toContain('name="password"');
		expect(html).toMatch(/name="providerId" value="credentials"/);
	});

	test('sign-in through the form action: a JWT session that locals.auth() and /auth/session read', async () => {
		const client = browser();
		await signIn(client);
		const page = await client.get('/base/protected', { headers: HTML });
		expect(page.status).toBe(200);
		expect(await page.text()).toContain(`Protected: ${ALICE.email}`);
		expect(await client.session()).toMatchObject({ user: { email: ALICE.email, name: 'Alice' } });
	});

	test('a plain (no JavaScript) form post with a wrong password renders the page with status 400 and the failure', async () => {
		const client = browser();
		const res = await client.post('/base/signin?/signIn', {
			form: { providerId: 'credentials', email: ALICE.email, password: 'wrong' },
			headers: HTML
		});
		expect(res.status).toBe(400);
		const html = await res.text();
		expect(pageState(html).form).toMatchObject({ failed: true, error: 'CredentialsSignin', code: 'credentials' });
		expect(client.jar.has(SESSION_COOKIE)).toBe(false);
	});

	test('a plain (no JavaScript) form post signs in with a 303', async () => {
		const client = browser();
		const res = await client.post('/base/signin?/signIn', {
			form: { providerId: 'credentials', ...ALICE, redirectTo: '/base/protected' },
			headers: HTML
		});
		expect(res.status).toBe(303);
		expect(res.headers.get('location')).toBe(`${app.origin}/base/protected`);
		expect(client.jar.has(SESSION_COOKIE)).toBe(true);
	});

	test('a wrong password is a 400 failure with CredentialsSignin and its code, no session', async () => {
		const client = browser();
		const { body } = await signInAction(client, { providerId: 'credentials', email: ALICE.email, password: 'wrong' });
		// Kit 2 answers an enhanced action's failure with HTTP 200, its status in the body (kit 3
		// sends it as the HTTP status too).
		expect(body).toMatchObject({
			type: 'failure',
			status: 400,
			data: { failed: true, fieldErrors: {}, error: 'CredentialsSignin', code: 'credentials' }
		});
		expect(client.jar.has(SESSION_COOKIE)).toBe(false);
	});

	test('a validation failure is fail(400, {failed, fieldErrors, formErrors})', async () => {
		const { body } = await signInAction(browser(), { providerId: 'nope', redirectTo: 'https://evil.example/' });
		expect(body).toMatchObject({ type: 'failure', status: 400 });
		expect(body.data).toStrictEqual({
			failed: true,
			fieldErrors: { providerId: ['Unknown provider "nope".'], redirectTo: ['Must be a path on this site.'] },
			formErrors: []
		});
	});

	test('the SignOut component and the signOut action end the session', async () => {
		const client = browser();
		await signIn(client);
		const home = await (await client.get('/base/', { headers: HTML })).text();
		expect(home).toContain(`Signed in as ${ALICE.email}`);
		expect(home).toMatch(/data-kitauth="signout"[^>]*>\s*(<!--[^>]*-->\s*)*<div[^>]*>[\s\S]*?<form[^>]*action="\/base\/signin\?\/signOut"/);
		const { res, body } = await postEnhanced(client, '/base/signin', 'signOut', { redirectTo: '/base/' });
		expect(body).toEqual({ type: 'redirect', status: 303, location: `${app.origin}/base/` });
		const cleared = setCookies(res).find((cookie) => cookie.name === SESSION_COOKIE);
		expect(cleared && isDeletion(cleared)).toBe(true);
		expect(await client.session()).toBeNull();
	});
});

describe('the published declarations', () => {
	// The kit 2 app's copy of the package (its suite above packaged it, declarations included).
	test("type-check in a SvelteKit 2 app (augmented Session and JWT, kit 2's Handle and ActionFailure)", async () => {
		const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
		// Throws with tsc's output when it reports anything.
		await run([tsc, '-p', 'tsconfig.types.json'], KIT2_APP.cwd, 'tsc on tests/kit2-app/types/app.ts');
	}, 60_000);
});
