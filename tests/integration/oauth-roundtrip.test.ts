/**
 * OAuth/OIDC round trips through the real `Auth()` against a real OpenID Provider (oidc-provider on
 * 127.0.0.1): the authorization redirect and its sealed check cookies, the callback, the session,
 * JWT sessions without an adapter, the profile sources (ID token, userinfo, plain OAuth 2), client
 * authentication methods, `authorizationParams`, `form_post`, environment inference, and a
 * provider's own `fetch`.
 */
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { JWT, OAuthConfig, Profile } from '../../src/lib/core/types.js';
import { setCookies } from '../support/client.js';
import { startTestIdp, TEST_CLIENT_ID, TEST_CLIENT_SECRET, type TestIdp } from '../support/oidc-provider.js';
import { ROGUE_CLIENT_ID, ROGUE_CLIENT_SECRET, startRogueIdp, type RogueIdp } from '../support/rogue-idp.js';
import {
	APP_ORIGIN,
	CALLBACK_URL_COOKIE,
	callbackUri,
	CHECK_COOKIES,
	deletedCookies,
	explain,
	expectRefused,
	localProvider,
	NONCE_COOKIE,
	oauthApp,
	oauthSignIn,
	PKCE_COOKIE,
	SESSION_COOKIE,
	sessionClaims,
	sessionCookiesSet,
	signInPageError,
	startSignIn,
	STATE_COOKIE
} from '../support/oauth-app.js';

const PROVIDER_IDS = ['local', 'other', 'post', 'public', 'pkjwt', 'formpost', 'plain', 'userinfo', 'fetched', 'env'];
const SECURE_ORIGIN = 'https://app.test';
/** Where a sign-in without a callbackUrl lands. */
const HOME = `${APP_ORIGIN}/`;

const POST_SECRET = 'post-secret-0123456789abcdef0123456789';
const FORM_SECRET = 'form-secret-0123456789abcdef0123456789';

let idp: TestIdp;
let clientKey: JWK;

beforeAll(async () => {
	const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
	clientKey = { ...(await exportJWK(privateKey)), kid: 'kitauth-client-key', alg: 'ES256', use: 'sig' };
	const redirectUris = [...PROVIDER_IDS.map((id) => callbackUri(id)), callbackUri('formpost', SECURE_ORIGIN)];
	idp = await startTestIdp({
		redirectUris,
		clients: [
			{ client_id: 'test-post', client_secret: POST_SECRET, token_endpoint_auth_method: 'client_secret_post', redirect_uris: redirectUris },
			{ client_id: 'test-public', token_endpoint_auth_method: 'none', redirect_uris: redirectUris },
			{
				client_id: 'test-pkjwt',
				token_endpoint_auth_method: 'private_key_jwt',
				jwks: { keys: [{ ...(await exportJWK(publicKey)), kid: 'kitauth-client-key', alg: 'ES256', use: 'sig' }] },
				redirect_uris: redirectUris
			},
			{ client_id: 'test-form-post', client_secret: FORM_SECRET, response_modes: ['form_post'], redirect_uris: redirectUris }
		]
	});
});
afterAll(() => idp.close());
beforeEach(() => idp.resetCounts());

const asAlice = (url: URL) => idp.completeInteraction(url, { login: 'alice' });
const asBob = (url: URL) => idp.completeInteraction(url, { login: 'bob' });

describe('authorization redirect', () => {
	test('POST /signin/local → 302 to the IdP with S256 PKCE, state, nonce, redirect_uri, default scope, and sealed check cookies', async () => {
		const app = oauthApp([localProvider(idp)]);
		const browser = app.browser();
		const { url, cookies } = await startSignIn(browser, 'local', { form: { callbackUrl: '/dashboard' } });

		expect(`${url.origin}${url.pathname}`).toBe(`${idp.issuer}/auth`);
		const params = url.searchParams;
		expect(params.get('response_type')).toBe('code');
		expect(params.get('client_id')).toBe(TEST_CLIENT_ID);
		expect(params.get('redirect_uri')).toBe(`${APP_ORIGIN}/auth/callback/local`);
		expect(params.get('scope')).toBe('openid profile email');
		expect(params.get('code_challenge_method')).toBe('S256');
		expect(params.get('code_challenge')).toMatch(/^[\w-]{43}$/);
		expect(params.get('nonce')).toMatch(/^[\w-]{20,}$/);
		// Default checks: PKCE, state (always), and nonce for OIDC.
		expect(params.get('state')).toMatch(/^[\w-]{43}$/);

		const byName = new Map(cookies.map((c) => [c.name, c]));
		for (const name of [PKCE_COOKIE, STATE_COOKIE, NONCE_COOKIE]) {
			const cookie = byName.get(name);
			expect(cookie, name).toBeDefined();
			expect(cookie?.attributes['max-age']).toBe('900');
			expect(cookie?.attributes.httponly).toBe(true);
			expect(String(cookie?.attributes.samesite).toLowerCase()).toBe('lax');
			expect(cookie?.attributes.path).toBe('/');
			// Sealed (a JWE), never the raw verifier, state or nonce.
			expect(decodeURIComponent(cookie?.value ?? '').split('.')).toHaveLength(5);
		}
		expect(decodeURIComponent(byName.get(NONCE_COOKIE)?.value ?? '')).not.toContain(params.get('nonce'));
		expect(decodeURIComponent(byName.get(STATE_COOKIE)?.value ?? '')).not.toContain(params.get('state'));
		expect(browser.cookie(CALLBACK_URL_COOKIE)).toBe(`${APP_ORIGIN}/dashboard`);
		expect(idp.counts()).toMatchObject({ discovery: 1, token: 0 });
	});

	test.each<{ checks: OAuthConfig['checks'] }>([{ checks: ['pkce'] }, { checks: ['pkce', 'state'] }, { checks: ['pkce', 'nonce'] }])(
		'checks: $checks cannot drop state: a state parameter and a sealed state cookie, checked at the callback',
		async ({ checks }) => {
			const app = oauthApp([localProvider(idp, { checks })]);
			const browser = app.browser();
			const { start, res } = await oauthSignIn(browser, 'local', asAlice);
			const state = start.url.searchParams.get('state');
			expect(state).toMatch(/^[\w-]{43}$/);
			const cookie = start.cookies.find((c) => c.name === STATE_COOKIE);
			expect(cookie?.attributes['max-age']).toBe('900');
			expect(cookie?.attributes.httponly).toBe(true);
			expect(decodeURIComponent(cookie?.value ?? '')).not.toContain(state);
			expect(res.headers.get('location'), explain(app.errors)).toBe(HOME);
			expect(deletedCookies(res)).toContain(STATE_COOKIE);
		}
	);

	test('authorizationParams from the sign-in query reach the authorization URL; protocol parameters cannot be overridden', async () => {
		const app = oauthApp([localProvider(idp, { checks: ['pkce', 'state'] })]);
		const browser = app.browser();
		const hostile = {
			redirect_uri: 'https://evil.example/cb',
			state: 'attacker-state',
			nonce: 'attacker-nonce',
			code_challenge: 'attacker-challenge-attacker-challenge-abcdefg',
			code_challenge_method: 'plain',
			response_type: 'token',
			client_id: 'attacker-client',
			response_mode: 'fragment'
		};
		const { url } = await startSignIn(browser, 'local', { query: { prompt: 'login', login_hint: 'x', ...hostile } });
		const params = url.searchParams;
		expect(params.get('prompt')).toBe('login');
		expect(params.get('login_hint')).toBe('x');
		expect(params.get('redirect_uri')).toBe(callbackUri('local'));
		expect(params.get('response_type')).toBe('code');
		expect(params.get('client_id')).toBe(TEST_CLIENT_ID);
		expect(params.get('code_challenge_method')).toBe('S256');
		for (const [key, value] of Object.entries(hostile)) expect(params.getAll(key), key).not.toContain(value);
		expect(params.has('response_mode')).toBe(false);

		// The flow still completes, and the IdP saw prompt=login.
		const res = await browser.get((await asAlice(url)).href);
		expect(res.status).toBe(302);
		expect(await browser.session()).toMatchObject({ user: { email: 'alice@example.test' } });
	});

	test('the provider’s authorization.params are sent, and the sign-in query wins over them', async () => {
		const app = oauthApp([localProvider(idp, { authorization: { params: { scope: 'openid email', prompt: 'consent', ui_locales: 'en' } } })]);
		const { url } = await startSignIn(app.browser(), 'local', { query: { ui_locales: 'fr' } });
		expect(url.searchParams.get('scope')).toBe('openid email');
		expect(url.searchParams.get('prompt')).toBe('consent');
		expect(url.searchParams.get('ui_locales')).toBe('fr');
	});
});

describe('JWT sessions without an adapter', () => {
	test('round trip: callback → 302 to callbackUrl, check cookies deleted, session readable', async () => {
		const app = oauthApp([localProvider(idp)]);
		const browser = app.browser();
		const { res } = await oauthSignIn(browser, 'local', asAlice, { form: { callbackUrl: '/dashboard' } });
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(`${APP_ORIGIN}/dashboard`);
		expect(sessionCookiesSet(res).map((c) => c.name)).toEqual([SESSION_COOKIE]);
		const session = sessionCookiesSet(res)[0];
		expect(session?.attributes.httponly).toBe(true);
		expect(deletedCookies(res)).toEqual(expect.arrayContaining([PKCE_COOKIE, NONCE_COOKIE]));
		for (const name of CHECK_COOKIES) expect(browser.jar.has(name), name).toBe(false);

		expect(await browser.session()).toMatchObject({
			user: { email: 'alice@example.test', name: 'Alice Liddell', image: 'https://img.example.test/alice.png' },
			expires: expect.any(String)
		});
		expect(idp.counts()).toMatchObject({ token: 1 });
		expect(app.errors).toEqual([]);
	});

	test('the user id is stable across sign-ins, differs per account and per provider, and is not the raw sub', async () => {
		const app = oauthApp([localProvider(idp), localProvider(idp, { id: 'other', name: 'Other' })]);
		const first = app.browser();
		expect((await oauthSignIn(first, 'local', asAlice)).res.status).toBe(302);
		const second = app.browser();
		expect((await oauthSignIn(second, 'local', asAlice)).res.status).toBe(302);
		const bob = app.browser();
		expect((await oauthSignIn(bob, 'local', asBob)).res.status).toBe(302);

		const a1 = (await sessionClaims(first))?.sub;
		const a2 = (await sessionClaims(second))?.sub;
		const b = (await sessionClaims(bob))?.sub;
		expect(a1).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
		expect(a2).toBe(a1);
		expect(b).not.toBe(a1);
		expect(a1).not.toBe(idp.accounts.alice?.sub);
		// The raw subject is kept only beside the provider tokens (to check refreshes), never as the user id.
		const claims = await sessionClaims(first);
		expect(JSON.stringify({ ...claims, oauth: undefined })).not.toContain(idp.accounts.alice?.sub);
		expect((claims?.oauth as { sub?: string } | undefined)?.sub).toBe(idp.accounts.alice?.sub);
		expect(await bob.session()).toMatchObject({ user: { email: 'bob@example.test', name: 'Bob Builder' } });

		// The same IdP subject through another provider id is another user.
		const elsewhere = app.browser();
		expect((await oauthSignIn(elsewhere, 'other', asAlice)).res.status).toBe(302);
		const a3 = (await sessionClaims(elsewhere))?.sub;
		expect(a3).toMatch(/^[0-9a-f-]{36}$/);
		expect(a3).not.toBe(a1);
	});

	test('the provider tokens stay server-side: neither the session body nor any readable cookie carries them', async () => {
		const app = oauthApp([localProvider(idp)]);
		const browser = app.browser();
		expect((await oauthSignIn(browser, 'local', asAlice)).res.status).toBe(302);
		const claims = await sessionClaims(browser);
		const oauth = claims?.oauth as { access_token?: string } | undefined;
		expect(oauth?.access_token).toEqual(expect.any(String));
		const body = JSON.stringify(await browser.session());
		expect(body).not.toContain(oauth?.access_token);
		for (const value of browser.jar.values()) expect(decodeURIComponent(value)).not.toContain(oauth?.access_token);
	});
});

describe('profile sources', () => {
	test('OIDC reads the profile from the ID token by default; idToken: false reads it from userinfo', async () => {
		const profiles: Record<string, unknown>[] = [];
		const record = { jwt: ({ token, profile }: { token: JWT; profile?: Profile }) => (profile && profiles.push({ ...profile }), token) };
		const fromIdToken = oauthApp([localProvider(idp)], { callbacks: record });
		const control = fromIdToken.browser();
		expect((await oauthSignIn(control, 'local', asAlice)).res.status).toBe(302);
		expect(idp.counts()).toMatchObject({ token: 1, userinfo: 0 });
		expect(profiles[0]).toMatchObject({ sub: idp.accounts.alice?.sub, aud: TEST_CLIENT_ID, nonce: expect.any(String) });

		idp.resetCounts();
		const app = oauthApp([localProvider(idp, { id: 'userinfo', idToken: false })], { callbacks: record });
		const browser = app.browser();
		const { res } = await oauthSignIn(browser, 'userinfo', asAlice);
		expect(res.status).toBe(302);
		expect(idp.counts()).toMatchObject({ token: 1, userinfo: 1 });
		// The userinfo response, not the ID token's claims.
		expect(profiles[1]).toEqual({ ...idp.accounts.alice });
		expect(await browser.session()).toMatchObject({ user: { email: 'alice@example.test', name: 'Alice Liddell' } });
	});

	test('an ID token without profile claims (a "conform" OP) is completed from userinfo', async () => {
		const conform = await startTestIdp({ redirectUris: [callbackUri('local')], conformIdTokenClaims: true });
		try {
			const app = oauthApp([localProvider(conform)]);
			const browser = app.browser();
			const { res } = await oauthSignIn(browser, 'local', (u) => conform.completeInteraction(u));
			expect(res.status).toBe(302);
			expect(conform.counts()).toMatchObject({ token: 1, userinfo: 1 });
			expect(await browser.session()).toMatchObject({ user: { email: 'alice@example.test', name: 'Alice Liddell' } });
		} finally {
			await conform.close();
		}
	});

	// oidc-provider serves userinfo only to access tokens with the `openid` scope, so the token
	// response also carries an ID token, which a plain OAuth 2 provider does not use for its profile.
	test("a plain OAuth 2 provider (type 'oauth', explicit endpoints from discovery) signs in through userinfo", async () => {
		const discovery = (await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json()) as Record<string, string>;
		idp.resetCounts();
		const plain: OAuthConfig = {
			id: 'plain',
			name: 'Plain',
			type: 'oauth',
			authorization: { url: discovery.authorization_endpoint, params: { scope: 'openid profile email' } },
			token: discovery.token_endpoint,
			userinfo: discovery.userinfo_endpoint,
			clientId: TEST_CLIENT_ID,
			clientSecret: TEST_CLIENT_SECRET
		};
		const app = oauthApp([plain]);
		const browser = app.browser();
		const { start, res } = await oauthSignIn(browser, 'plain', asAlice);
		expect(start.url.searchParams.get('code_challenge_method')).toBe('S256');
		// Plain OAuth 2: no nonce.
		expect(start.url.searchParams.has('nonce')).toBe(false);
		expect(res.headers.get('location'), explain(app.errors)).toBe(HOME);
		expect(idp.counts()).toMatchObject({ discovery: 0, token: 1, userinfo: 1 });
		expect(await browser.session()).toMatchObject({ user: { email: 'alice@example.test', name: 'Alice Liddell' } });
	});

	test("a plain OAuth 2 provider found through wellKnown reads its profile with a Bearer GET to userinfo", async () => {
		const plain: OAuthConfig = {
			id: 'plain',
			name: 'Plain',
			type: 'oauth',
			wellKnown: `${idp.issuer}/.well-known/openid-configuration`,
			authorization: { params: { scope: 'openid profile email' } },
			clientId: TEST_CLIENT_ID,
			clientSecret: TEST_CLIENT_SECRET
		};
		const profiles: Profile[] = [];
		const app = oauthApp([plain], { callbacks: { jwt: ({ token, profile }) => (profile && profiles.push(profile), token) } });
		const browser = app.browser();
		const { start, res } = await oauthSignIn(browser, 'plain', asAlice);
		expect(start.url.searchParams.has('nonce')).toBe(false);
		expect(start.url.searchParams.get('scope')).toBe('openid profile email');
		expect(res.headers.get('location'), explain(app.errors)).toBe(HOME);
		expect(idp.counts()).toMatchObject({ discovery: 1, token: 1, userinfo: 1 });
		// The userinfo body itself is the profile (no ID token claims).
		expect(profiles).toEqual([{ ...idp.accounts.alice }]);
		expect(await browser.session()).toMatchObject({ user: { email: 'alice@example.test', name: 'Alice Liddell' } });
	});
});

describe('client authentication', () => {
	test('client_secret_post', async () => {
		const app = oauthApp([
			localProvider(idp, { id: 'post', clientId: 'test-post', clientSecret: POST_SECRET, client: { token_endpoint_auth_method: 'client_secret_post' } })
		]);
		const browser = app.browser();
		const { res } = await oauthSignIn(browser, 'post', asAlice);
		expect(res.status).toBe(302);
		expect(sessionCookiesSet(res)).toHaveLength(1);
		expect(await browser.session()).toMatchObject({ user: { email: 'alice@example.test' } });
	});

	test("none (public client): PKCE is kept even with checks: ['state']", async () => {
		const app = oauthApp([
			localProvider(idp, { id: 'public', clientId: 'test-public', clientSecret: undefined, client: { token_endpoint_auth_method: 'none' }, checks: ['state'] })
		]);
		const browser = app.browser();
		const { start, res } = await oauthSignIn(browser, 'public', asAlice);
		expect(start.url.searchParams.get('code_challenge_method')).toBe('S256');
		expect(start.url.searchParams.has('code_challenge')).toBe(true);
		expect(start.url.searchParams.has('state')).toBe(true);
		expect(start.cookies.map((c) => c.name)).toEqual(expect.arrayContaining([PKCE_COOKIE, STATE_COOKIE, NONCE_COOKIE]));
		expect(res.status).toBe(302);
		expect(await browser.session()).toMatchObject({ user: { email: 'alice@example.test' } });
	});

	test("a confidential client dropping PKCE (checks: ['none'] or ['nonce']) still gets state, which alone binds the callback", async () => {
		const lax = await startTestIdp({ redirectUris: [callbackUri('local')], pkceRequired: false });
		try {
			for (const checks of [['none'], ['nonce']] as OAuthConfig['checks'][]) {
				const app = oauthApp([localProvider(lax, { checks })]);
				const browser = app.browser();
				const { start, res } = await oauthSignIn(browser, 'local', (u) => lax.completeInteraction(u));
				expect(start.url.searchParams.has('code_challenge')).toBe(false);
				expect(start.url.searchParams.get('state')).toMatch(/^[\w-]{43}$/);
				expect(start.cookies.map((c) => c.name)).toEqual(expect.arrayContaining([STATE_COOKIE, NONCE_COOKIE]));
				expect(start.cookies.map((c) => c.name)).not.toContain(PKCE_COOKIE);
				expect(res.headers.get('location'), explain(app.errors)).toBe(HOME);

				// Another browser's code and state with this browser's cookies: refused before the exchange.
				const victim = app.browser();
				await startSignIn(victim, 'local');
				const attacker = await startSignIn(app.browser(), 'local');
				const attackerCallback = await lax.completeInteraction(attacker.url, { login: 'bob' });
				lax.resetCounts();
				const refused = await victim.get(attackerCallback.href);
				await expectRefused(victim, refused, signInPageError('OAuthCallbackError'));
				expect(lax.counts().token).toBe(0);
			}
		} finally {
			await lax.close();
		}
	});

	test('a public client (token_endpoint_auth_method: \'none\', no secret): PKCE even with checks: [\'state\']', async () => {
		const app = oauthApp([
			localProvider(idp, { id: 'public', clientId: 'test-public', clientSecret: undefined, client: { token_endpoint_auth_method: 'none' }, checks: ['state'] })
		]);
		const browser = app.browser();
		const { start, res } = await oauthSignIn(browser, 'public', asAlice);
		expect(start.url.searchParams.get('code_challenge_method')).toBe('S256');
		expect(res.status).toBe(302);
		expect(await browser.session()).toMatchObject({ user: { email: 'alice@example.test' } });
	});

	test('private_key_jwt with token.clientPrivateKey as a JWK', async () => {
		const app = oauthApp([
			localProvider(idp, {
				id: 'pkjwt',
				clientId: 'test-pkjwt',
				clientSecret: undefined,
				client: { token_endpoint_auth_method: 'private_key_jwt' },
				token: { clientPrivateKey: clientKey }
			})
		]);
		const browser = app.browser();
		const { res } = await oauthSignIn(browser, 'pkjwt', asAlice);
		expect(res.headers.get('location'), explain(app.errors)).toBe(HOME);
		expect(await browser.session()).toMatchObject({ user: { email: 'alice@example.test' } });
	});
});

describe('client authentication is really what was configured (a strict OP)', () => {
	// oidc-provider accepts client_secret_basic and client_secret_post interchangeably; the rogue OP
	// insists on each client's registered method.
	let rogue: RogueIdp;
	const RP_SECRET = 'rogue-post-secret-0123456789abcdef';
	beforeAll(async () => {
		const redirect_uris = ['rbasic', 'rpost', 'rnone'].map((id) => callbackUri(id));
		rogue = await startRogueIdp({
			redirectUris: redirect_uris,
			clients: [
				{ client_id: 'rogue-post', client_secret: RP_SECRET, token_endpoint_auth_method: 'client_secret_post', redirect_uris },
				{ client_id: 'rogue-public', token_endpoint_auth_method: 'none', redirect_uris }
			]
		});
	});
	afterAll(() => rogue.close());

	const providers = (): Record<string, OAuthConfig> => ({
		basic: { id: 'rbasic', name: 'Basic', type: 'oidc', issuer: rogue.issuer, clientId: ROGUE_CLIENT_ID, clientSecret: ROGUE_CLIENT_SECRET },
		post: {
			id: 'rpost',
			name: 'Post',
			type: 'oidc',
			issuer: rogue.issuer,
			clientId: 'rogue-post',
			clientSecret: RP_SECRET,
			client: { token_endpoint_auth_method: 'client_secret_post' }
		},
		none: { id: 'rnone', name: 'None', type: 'oidc', issuer: rogue.issuer, clientId: 'rogue-public', client: { token_endpoint_auth_method: 'none' } }
	});

	test.each(['basic', 'post', 'none'] as const)('%s: the configured method signs in', async (method) => {
		const app = oauthApp([providers()[method]!]);
		const browser = app.browser();
		const { res } = await oauthSignIn(browser, providers()[method]!.id, (u) => rogue.completeInteraction(u));
		expect(res.headers.get('location'), explain(app.errors)).toBe(HOME);
		expect(await browser.session()).toMatchObject({ user: { email: 'alice@example.test' } });
	});

	test('the wrong method is refused by the OP: no session', async () => {
		const wrong: OAuthConfig[] = [
			// client_secret_basic for a client_secret_post client
			{ ...providers().post!, client: {} },
			// client_secret_post for a client_secret_basic client
			{ ...providers().basic!, client: { token_endpoint_auth_method: 'client_secret_post' } }
		];
		for (const provider of wrong) {
			rogue.resetCounts();
			const app = oauthApp([provider]);
			const browser = app.browser();
			const { res } = await oauthSignIn(browser, provider.id, (u) => rogue.completeInteraction(u));
			expect(rogue.counts().token).toBe(1);
			await expectRefused(browser, res, signInPageError('OAuthCallbackError'));
		}
	});
});

describe('response_mode=form_post', () => {
	test('the IdP POSTs the response cross-site: no CSRF token needed, check cookies are SameSite=None on https', async () => {
		const provider = localProvider(idp, {
			id: 'formpost',
			clientId: 'test-form-post',
			clientSecret: FORM_SECRET,
			authorization: { params: { response_mode: 'form_post' } }
		});
		const app = oauthApp([provider], {}, SECURE_ORIGIN);
		const browser = app.browser();
		const { url, cookies } = await startSignIn(browser, 'formpost', { form: { callbackUrl: '/after' } });
		expect(url.searchParams.get('response_mode')).toBe('form_post');
		expect(url.searchParams.get('redirect_uri')).toBe(callbackUri('formpost', SECURE_ORIGIN));
		for (const name of [PKCE_COOKIE, NONCE_COOKIE].map((n) => `__Secure-${n}`)) {
			const cookie = cookies.find((c) => c.name === name);
			expect(cookie, name).toBeDefined();
			expect(String(cookie?.attributes.samesite).toLowerCase()).toBe('none');
			expect(cookie?.attributes.secure).toBe(true);
		}

		const { action, fields } = await idp.completeFormPost(url);
		expect(action.href).toBe(callbackUri('formpost', SECURE_ORIGIN));
		const res = await browser.post(action.href, {
			body: fields.toString(),
			headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'null', 'sec-fetch-site': 'cross-site' }
		});
		expect(res.headers.get('location'), explain(app.errors)).toBe(`${SECURE_ORIGIN}/after`);
		expect(sessionCookiesSet(res, `__Host-${SESSION_COOKIE}`)).toHaveLength(1);
		expect(await browser.session()).toMatchObject({ user: { email: 'alice@example.test' } });
	});
});

describe('environment inference', () => {
	test('AUTH_LOCAL_ID, _SECRET and _ISSUER configure the provider', async () => {
		const env = { AUTH_LOCAL_ID: TEST_CLIENT_ID, AUTH_LOCAL_SECRET: TEST_CLIENT_SECRET, AUTH_LOCAL_ISSUER: idp.issuer };
		const app = oauthApp([{ id: 'local', name: 'Local', type: 'oidc' }], {}, undefined, env);
		const browser = app.browser();
		const { start, res } = await oauthSignIn(browser, 'local', asAlice);
		expect(start.url.origin).toBe(idp.issuer);
		expect(start.url.searchParams.get('client_id')).toBe(TEST_CLIENT_ID);
		expect(res.headers.get('location')).toBe(HOME);
		expect(await browser.session()).toMatchObject({ user: { email: 'alice@example.test' } });
	});

	test('explicit options win over the environment', async () => {
		const env = { AUTH_ENV_ID: 'wrong-client', AUTH_ENV_SECRET: 'wrong-secret', AUTH_ENV_ISSUER: 'http://127.0.0.1:9/not-an-idp' };
		const provider = { id: 'env', name: 'Env', type: 'oidc' as const, issuer: idp.issuer, clientId: TEST_CLIENT_ID, clientSecret: TEST_CLIENT_SECRET };
		const app = oauthApp([provider], {}, undefined, env);
		const browser = app.browser();
		const { start, res } = await oauthSignIn(browser, 'env', asAlice);
		expect(start.url.origin).toBe(idp.issuer);
		expect(start.url.searchParams.get('client_id')).toBe(TEST_CLIENT_ID);
		expect(res.headers.get('location')).toBe(HOME);
		expect(await browser.session()).toMatchObject({ user: { email: 'alice@example.test' } });
	});
});

describe("a provider's own fetch", () => {
	test('is used for every request kitauth makes to the IdP (discovery, token, JWKS, userinfo)', async () => {
		const seen: string[] = [];
		const counting: typeof fetch = (input, init) => {
			seen.push(input instanceof Request ? input.url : String(input));
			return fetch(input, init);
		};
		const app = oauthApp([localProvider(idp, { id: 'fetched', idToken: false, fetch: counting })]);
		const browser = app.browser();
		const { res } = await oauthSignIn(browser, 'fetched', asAlice);
		expect(res.status).toBe(302);
		expect(await browser.session()).toMatchObject({ user: { email: 'alice@example.test' } });

		const counts = idp.counts();
		expect(counts).toMatchObject({ discovery: 1, token: 1, userinfo: 1 });
		expect(counts.jwks).toBeGreaterThanOrEqual(1);
		// Every server-side request to the IdP went through the provider's fetch (the authorization
		// and interaction requests are the browser's).
		expect(seen).toHaveLength(counts.discovery + counts.token + counts.jwks + counts.userinfo);
		expect(seen.every((url) => url.startsWith(idp.issuer))).toBe(true);
		expect(seen.map((url) => new URL(url).pathname)).toEqual(
			expect.arrayContaining(['/.well-known/openid-configuration', '/token', '/jwks', '/me'])
		);
	});
});

test('a successful callback deletes all three check cookies', async () => {
	const app = oauthApp([localProvider(idp)]);
	const browser = app.browser();
	const { res } = await oauthSignIn(browser, 'local', asAlice);
	const names = setCookies(res).map((c) => c.name);
	expect(names).toEqual(expect.arrayContaining([SESSION_COOKIE, PKCE_COOKIE, STATE_COOKIE, NONCE_COOKIE]));
	expect(deletedCookies(res).sort()).toEqual([NONCE_COOKIE, PKCE_COOKIE, STATE_COOKIE].sort());
});
