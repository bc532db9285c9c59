/**
 * kitauth as published (svelte-package's output, copied into an app's node_modules) in one small
 * app (tests/kit2-app/src), built with `vite build` and served by adapter-node, driven over HTTP —
 * on SvelteKit 2.20, the oldest release kitauth's peer range (`^2.20 || ^3`) allows, and on
 * SvelteKit 3 (tests/kit3-pkg-app). The SvelteKit 3 suite (kit-app.test.ts, from source) covers the
 * behaviour in depth; this one proves the package works on both: the handle under `paths.base`,
 * `locals.auth()`, the form actions, the components, and on kit 2 the published type declarations
 * (tests/kit2-app/types/app.ts, checked with `tsc`). Also Sign in with OpenID providers answering
 * with `response_mode=form_post`: a cross-site form POST SvelteKit refuses unless it trusts the
 * provider's origin, which kitauth detects and explains in a warning.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isDeletion, setCookies, type TestClient } from '../support/client.js';
import { startTestIdp, type TestIdp } from '../support/oidc-provider.js';
import { buildFixture, type Fixture, freePort, KIT2_APP, KIT3_PACKAGED_APP, run, type RunningApp, startFixture } from './kit-app-server.js';
import { appBrowser, HTML, pageState, postEnhanced } from './kit-client.js';

const SESSION_COOKIE = 'authjs.session-token';
const ALICE = { email: 'alice@example.com', password: 'correct horse battery staple' };

/**
 * Two OpenID providers that answer with `response_mode=form_post` (a cross-site form POST to the
 * callback, as Sign in with Apple does): `idp-a` and `idp-b`, real oidc-provider servers.
 */
const FORM_POST_CLIENT = { client_id: 'kitauth-form-post', client_secret: 'form-post-secret-0123456789abcdef' };
const IDPS = ['idp-a', 'idp-b'] as const;
type IdpId = (typeof IDPS)[number];
const idps = {} as Record<IdpId, TestIdp>;
/** The apps' ports, known before they start: the providers' redirect URIs name them. */
const ports = { kit2: 0, kit3: 0, kit2Open: 0 };

beforeAll(async () => {
	for (const key of Object.keys(ports) as (keyof typeof ports)[]) ports[key] = await freePort();
	await Promise.all(
		IDPS.map(async (id) => {
			const redirect_uris = Object.values(ports).map((port) => `http://127.0.0.1:${port}/base/auth/callback/${id}`);
			idps[id] = await startTestIdp({ clients: [{ ...FORM_POST_CLIENT, response_modes: ['form_post'], redirect_uris }] });
		})
	);
});

afterAll(async () => {
	await Promise.all(Object.values(idps).map((idp) => idp.close()));
});

/** The app's form_post providers (tests/kit2-app/src/auth.js reads them at start). */
function formPostEnv(): Record<string, string> {
	const providers = IDPS.map((id) => ({ id, issuer: idps[id].issuer, clientId: FORM_POST_CLIENT.client_id, clientSecret: FORM_POST_CLIENT.client_secret }));
	return { KIT2_APP_FORM_POST: JSON.stringify(providers) };
}

/**
 * A form_post sign-in as a browser makes it: the start (a redirect to the provider), the provider's
 * login and consent, then what its page does: POST the fields to the callback from its own origin.
 */
async function formPostSignIn(client: TestClient, id: IdpId): Promise<Response> {
	const start = await client.postForm(`signin/${id}`, { callbackUrl: '/base/protected' });
	expect(start.status).toBe(302);
	const { action, fields } = await idps[id].completeFormPost(start.headers.get('location')!);
	return client.post(action.href, {
		body: fields.toString(),
		headers: { 'content-type': 'application/x-www-form-urlencoded', origin: idps[id].issuer }
	});
}

/** kitauth's form_post warnings in a server's output, one per line. */
function formPostWarnings(output: string): string[] {
	return output.split('\n').filter((line) => line.includes('[kitauth][warn][form-post-csrf]'));
}

const REFUSAL = 'Cross-site POST form submissions are forbidden';

interface FixtureCase {
	fixture: Fixture;
	port: keyof typeof ports;
	/** The build's environment: which origins SvelteKit trusts. */
	buildEnv: () => Record<string, string>;
	/** The providers whose form POST SvelteKit lets through. */
	trusted: IdpId[];
	/** What the warning tells to do for a provider's origin. */
	fix: (origin: string) => string;
}

const FIXTURES: [name: string, fixtureCase: FixtureCase][] = [
	[
		'SvelteKit 2.20',
		{
			fixture: KIT2_APP,
			port: 'kit2',
			buildEnv: () => ({}),
			trusted: [],
			fix: (origin) => `SvelteKit 2.20.0 has no csrf.trustedOrigins: upgrade to 2.36 or later, then in svelte.config.js: kit: { csrf: { trustedOrigins: ['${origin}'] } }`
		}
	],
	[
		'SvelteKit 3',
		{
			fixture: KIT3_PACKAGED_APP,
			port: 'kit3',
			buildEnv: () => ({ KIT3_PKG_APP_TRUSTED_ORIGINS: idps['idp-a'].issuer }),
			trusted: ['idp-a'],
			fix: (origin) => `in vite.config.ts: sveltekit({ csrf: { trustedOrigins: ['${origin}'] } })`
		}
	]
];

describe.each(FIXTURES)('kitauth as published, on %s', (name, { fixture, port, buildEnv, trusted, fix }) => {
	let app: RunningApp;

	beforeAll(async () => {
		const { ms } = await buildFixture(fixture, buildEnv());
		console.info(`${name}: packaged and built in ${ms} ms`);
		app = await startFixture(fixture, formPostEnv(), ports[port]);
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

	test('form_post: a trusted provider origin signs in; SvelteKit refuses an untrusted one, and the log says which origin to trust and where', async () => {
		for (const id of IDPS) {
			const client = browser();
			const res = await formPostSignIn(client, id);
			const origin = idps[id].issuer;
			const warnings = formPostWarnings(app.output()).filter((line) => line.includes(origin));
			if (trusted.includes(id)) {
				expect(res.headers.get('location'), app.output()).toBe(`${app.origin}/base/protected`);
				expect(await client.session()).toMatchObject({ user: { email: expect.stringContaining('@') } });
				expect(warnings).toEqual([]);
			} else {
				expect(res.status).toBe(403);
				expect(await res.text()).toBe(REFUSAL);
				expect(client.jar.has(SESSION_COOKIE)).toBe(false);
				// Logged once, at the first request, before anyone tried to sign in.
				expect(warnings).toHaveLength(1);
				expect(warnings[0]).toContain(`${id} (${id}) answers sign-ins with a form POST from ${origin} (response_mode=form_post) to /base/auth/callback/${id}`);
				expect(warnings[0]).toContain(`(403 "${REFUSAL}")`);
				expect(warnings[0]!.endsWith(`Trust that origin ${fix(origin)}`)).toBe(true);
			}
		}
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

describe('kitauth as published, on SvelteKit 2.20 with csrf.checkOrigin off', () => {
	let app: RunningApp;

	beforeAll(async () => {
		// SvelteKit 2.20's only way to let an identity provider's form POST through.
		await buildFixture(KIT2_APP, { KIT2_APP_CSRF_CHECK_ORIGIN: 'off' });
		app = await startFixture(KIT2_APP, formPostEnv(), ports.kit2Open);
	}, 180_000);

	afterAll(async () => {
		await app?.stop();
	});

	test('form_post: both providers sign in, and nothing is logged', async () => {
		for (const id of IDPS) {
			const client = appBrowser(app.origin, '/base/auth', 'published package test (kit 2, checkOrigin off)');
			const res = await formPostSignIn(client, id);
			expect(res.headers.get('location'), app.output()).toBe(`${app.origin}/base/protected`);
			expect(await client.session()).toMatchObject({ user: { email: expect.stringContaining('@') } });
		}
		expect(formPostWarnings(app.output())).toEqual([]);
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
