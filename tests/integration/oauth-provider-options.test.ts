/**
 * Provider options that shape the requests kitauth makes, against the real test IdPs: `userinfo`
 * given as `{ url, params }` (the params reach the userinfo request, on the plain OAuth 2 path and
 * on the OIDC `idToken: false` path), `checks: ['nonce']` on a plain OAuth 2 provider (a nonce
 * sent, and an ID token that carries it accepted; a wrong one is refused in
 * oauth-refused.security.test.ts), and discovery through `wellKnown`
 * (oauth4webapi's request, with its https-only and no-redirect rules and the provider's fetch).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { OAuthConfig } from '../../src/lib/core/types.js';
import { startTestIdp, TEST_CLIENT_ID, TEST_CLIENT_SECRET, type TestIdp } from '../support/oidc-provider.js';
import {
	APP_ORIGIN,
	callbackUri,
	errorPageError,
	explain,
	localProvider,
	oauthApp,
	oauthSignIn
} from '../support/oauth-app.js';

const HOME = `${APP_ORIGIN}/`;

let idp: TestIdp;
let endpoints: { authorization_endpoint: string; token_endpoint: string; userinfo_endpoint: string };

beforeAll(async () => {
	idp = await startTestIdp({ redirectUris: [callbackUri('plain'), callbackUri('local')] });
	endpoints = (await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json()) as typeof endpoints;
});
afterAll(() => idp.close());
beforeEach(() => idp.resetCounts());

const asAlice = (url: URL) => idp.completeInteraction(url, { login: 'alice' });

/** A fetch that records every URL it is asked for, then really fetches it. */
function recordingFetch(): { fetch: typeof globalThis.fetch; urls: URL[] } {
	const urls: URL[] = [];
	const recording: typeof globalThis.fetch = (input, init) => {
		urls.push(new URL(input instanceof Request ? input.url : input));
		return globalThis.fetch(input, init);
	};
	return { fetch: recording, urls };
}

/** oidc-provider as a plain OAuth 2 server: explicit endpoints, no discovery, no JWKS. */
function plainProvider(overrides: Partial<OAuthConfig> = {}): OAuthConfig {
	return {
		id: 'plain',
		name: 'Plain',
		type: 'oauth',
		authorization: { url: endpoints.authorization_endpoint, params: { scope: 'openid profile email' } },
		token: endpoints.token_endpoint,
		userinfo: endpoints.userinfo_endpoint,
		clientId: TEST_CLIENT_ID,
		clientSecret: TEST_CLIENT_SECRET,
		...overrides
	};
}

describe('userinfo as { url, params }', () => {
	test('plain OAuth 2: the params are in the query of the userinfo request', async () => {
		const recorder = recordingFetch();
		const provider = plainProvider({
			userinfo: { url: endpoints.userinfo_endpoint, params: { fields: 'email,name', v: 2 } },
			fetch: recorder.fetch
		});
		const app = oauthApp([provider]);
		const browser = app.browser();
		const { res } = await oauthSignIn(browser, 'plain', asAlice);
		expect(res.headers.get('location'), explain(app.errors)).toBe(HOME);
		const userinfo = recorder.urls.filter((u) => u.pathname === new URL(endpoints.userinfo_endpoint).pathname);
		expect(userinfo).toHaveLength(1);
		expect(userinfo[0]?.searchParams.get('fields')).toBe('email,name');
		expect(userinfo[0]?.searchParams.get('v')).toBe('2');
		expect(await browser.session()).toMatchObject({ user: { email: 'alice@example.test' } });
	});

	test('OIDC with idToken: false: the params reach the userinfo request too', async () => {
		const recorder = recordingFetch();
		const app = oauthApp([localProvider(idp, { idToken: false, userinfo: { params: { fields: 'email' } }, fetch: recorder.fetch })]);
		const browser = app.browser();
		const { res } = await oauthSignIn(browser, 'local', asAlice);
		expect(res.headers.get('location'), explain(app.errors)).toBe(HOME);
		expect(idp.counts().userinfo).toBe(1);
		const userinfo = recorder.urls.find((u) => u.pathname === '/me');
		expect(userinfo?.searchParams.get('fields')).toBe('email');
		expect(await browser.session()).toMatchObject({ user: { email: 'alice@example.test' } });
	});
});

describe("checks: ['nonce'] on a plain OAuth 2 provider", () => {
	test('the nonce is sent, and the ID token that comes back carrying it is accepted', async () => {
		const app = oauthApp([plainProvider({ checks: ['pkce', 'nonce'] })]);
		const browser = app.browser();
		const { start, res } = await oauthSignIn(browser, 'plain', asAlice);
		expect(start.url.searchParams.get('nonce')).toMatch(/^[\w-]{20,}$/);
		expect(res.headers.get('location'), explain(app.errors)).toBe(HOME);
		expect(idp.counts()).toMatchObject({ token: 1, userinfo: 1 });
	});

	test('without it, no nonce is sent', async () => {
		const app = oauthApp([plainProvider()]);
		const { start, res } = await oauthSignIn(app.browser(), 'plain', asAlice);
		expect(start.url.searchParams.has('nonce')).toBe(false);
		expect(res.headers.get('location'), explain(app.errors)).toBe(HOME);
	});
});

describe('discovery through wellKnown (oauth4webapi, with its checks)', () => {
	test('an OIDC provider found through wellKnown signs in, discovery through its own fetch', async () => {
		const recorder = recordingFetch();
		const app = oauthApp([
			localProvider(idp, { issuer: undefined, wellKnown: `${idp.issuer}/.well-known/openid-configuration`, fetch: recorder.fetch })
		]);
		const browser = app.browser();
		const { res } = await oauthSignIn(browser, 'local', asAlice);
		expect(res.headers.get('location'), explain(app.errors)).toBe(HOME);
		expect(recorder.urls.map((u) => u.pathname)).toContain('/.well-known/openid-configuration');
		expect(idp.counts().discovery).toBe(1);
	});

	test('plain http to a host that is not loopback is refused before any request', async () => {
		const recorder = recordingFetch();
		const app = oauthApp([
			localProvider(idp, { issuer: undefined, wellKnown: 'http://idp.example.test/.well-known/openid-configuration', fetch: recorder.fetch })
		]);
		const res = await app.browser().postForm('signin/local');
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(errorPageError('OAuthSignin'));
		expect(recorder.urls).toEqual([]);
	});

	test('a wellKnown URL at no standard location is refused as a configuration error, nothing fetched', async () => {
		const app = oauthApp([localProvider(idp, { issuer: undefined, wellKnown: `${idp.issuer}/custom/metadata.json` })]);
		const res = await app.browser().postForm('signin/local');
		expect(res.status).toBe(302);
		expect(res.headers.get('location')).toBe(errorPageError('Configuration'));
		expect(idp.counts()).toMatchObject({ discovery: 0, other: 0 });
	});
});
