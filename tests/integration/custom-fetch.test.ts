/**
 * `[customFetch]` on a provider replaces fetch for every request kitauth makes to that provider:
 * discovery, token, JWKS, userinfo, refresh, and the `fetch` a `userinfo.request` hook is given.
 * Against the real OpenID Provider of the test support: each request the IdP receives from the
 * server side must have gone through the provider's counting wrapper. kitauth's symbol and Auth.js's
 * (`customFetch` from `@auth/core`, an unregistered symbol) both work.
 */
import { customFetch as authjsCustomFetch } from '@auth/core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { customFetch } from '../../src/lib/core/index.js';
import type { OAuthConfig } from '../../src/lib/core/types.js';
import type { IdpEndpoint } from '../support/idp-shared.js';
import { startTestIdp, TEST_CLIENT_ID, TEST_CLIENT_SECRET, type TestIdp } from '../support/oidc-provider.js';
import { callbackUri, explain, localProvider, oauthApp, oauthSignIn, sessionClaims } from '../support/oauth-app.js';

/** The endpoints kitauth itself calls (the authorization pages are the browser's). */
const SERVER_SIDE: IdpEndpoint[] = ['discovery', 'jwks', 'token', 'userinfo'];
const PATHS: Record<string, IdpEndpoint> = {
	'/.well-known/openid-configuration': 'discovery',
	'/jwks': 'jwks',
	'/token': 'token',
	'/me': 'userinfo'
};

let idp: TestIdp;

beforeAll(async () => {
	// ID tokens without email: the profile then needs userinfo. Short access tokens: refresh.
	idp = await startTestIdp({
		redirectUris: ['local', 'plain'].map((id) => callbackUri(id)),
		conformIdTokenClaims: true,
		refreshTokens: 'always',
		ttl: { accessToken: 60 }
	});
});
afterAll(() => idp.close());
beforeEach(() => idp.resetCounts());
afterEach(() => vi.useRealTimers());

const asAlice = (url: URL) => idp.completeInteraction(url, { login: 'alice' });

/** A fetch that counts what it is asked for per IdP endpoint, then really fetches it. */
function countingFetch(): { fetch: typeof globalThis.fetch; counts: Record<IdpEndpoint, number> } {
	const counts: Record<IdpEndpoint, number> = {
		discovery: 0, jwks: 0, authorization: 0, interaction: 0, token: 0, userinfo: 0, other: 0
	};
	const counting: typeof globalThis.fetch = (input, init) => {
		const url = new URL(input instanceof Request ? input.url : input);
		counts[PATHS[url.pathname] ?? 'other'] += 1;
		return globalThis.fetch(input, init);
	};
	return { fetch: counting, counts };
}

function serverSide(counts: Record<IdpEndpoint, number>): Partial<Record<IdpEndpoint, number>> {
	return Object.fromEntries(SERVER_SIDE.map((endpoint) => [endpoint, counts[endpoint]]));
}

describe.each([
	{ name: "kitauth's customFetch", key: customFetch as symbol },
	{ name: "Auth.js's customFetch", key: authjsCustomFetch as symbol }
])('$name', ({ key }) => {
	test('an OIDC sign-in and a refresh: every server-side request goes through it', async () => {
		const counter = countingFetch();
		const provider = { ...localProvider(idp), [key]: counter.fetch } as OAuthConfig;
		const app = oauthApp([provider]);
		const browser = app.browser();
		const { res } = await oauthSignIn(browser, 'local', asAlice);
		expect(res.status, explain(app.errors)).toBe(302);
		expect(await browser.session()).toMatchObject({ user: { email: 'alice@example.test' } });

		// Past the access token's expiry: reading the session refreshes it.
		const before = ((await sessionClaims(browser))?.oauth as { access_token?: string } | undefined)?.access_token;
		vi.useFakeTimers({ toFake: ['Date'] });
		vi.setSystemTime(Date.now() + 2 * 3600 * 1000);
		expect(await browser.session()).not.toHaveProperty('error');
		const after = ((await sessionClaims(browser))?.oauth as { access_token?: string } | undefined)?.access_token;
		expect(after).not.toBe(before);

		const received = idp.counts();
		expect(received.discovery).toBe(1);
		expect(received.userinfo).toBe(1);
		expect(received.token).toBe(2); // the code exchange and the refresh
		expect(received.jwks).toBeGreaterThanOrEqual(1);
		expect(serverSide(counter.counts)).toEqual(serverSide(received));
		expect(counter.counts.other).toBe(0);
	});

	test("in the app's options (a preset call), it wins over the preset's fetch", async () => {
		const counter = countingFetch();
		const presetFetch = countingFetch();
		const preset = (options: Partial<OAuthConfig> = {}): OAuthConfig => ({ ...localProvider(idp), fetch: presetFetch.fetch, options });
		const app = oauthApp([preset({ [key]: counter.fetch } as Partial<OAuthConfig>)]);
		const { res } = await oauthSignIn(app.browser(), 'local', asAlice);
		expect(res.status, explain(app.errors)).toBe(302);
		expect(serverSide(counter.counts)).toEqual(serverSide(idp.counts()));
		expect(serverSide(presetFetch.counts)).toEqual({ discovery: 0, jwks: 0, token: 0, userinfo: 0 });
	});
});

test("a userinfo.request hook's fetch is the provider's customFetch", async () => {
	const discovered = (await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json()) as Record<string, string>;
	idp.resetCounts();
	const counter = countingFetch();
	const plain: OAuthConfig = {
		id: 'plain',
		name: 'Plain',
		type: 'oauth',
		clientId: TEST_CLIENT_ID,
		clientSecret: TEST_CLIENT_SECRET,
		authorization: { url: discovered.authorization_endpoint, params: { scope: 'openid profile email' } },
		token: discovered.token_endpoint,
		userinfo: {
			url: discovered.userinfo_endpoint,
			async request({ tokens, fetch }) {
				const response = await fetch(discovered.userinfo_endpoint ?? '', { headers: { authorization: `Bearer ${tokens.access_token}` } });
				return (await response.json()) as { sub: string };
			}
		},
		[customFetch]: counter.fetch
	};
	const app = oauthApp([plain]);
	const { res } = await oauthSignIn(app.browser(), 'plain', asAlice);
	expect(res.status, explain(app.errors)).toBe(302);
	expect(idp.counts()).toMatchObject({ token: 1, userinfo: 1 });
	expect(serverSide(counter.counts)).toEqual(serverSide(idp.counts()));
});
