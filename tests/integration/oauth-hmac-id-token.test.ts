/**
 * ID tokens signed with the client secret (HS256, OpenID Connect Core §10.1), as LINE Login issues
 * them: the real OpenID Provider signs them so for a client registered with
 * `id_token_signed_response_alg: 'HS256'`. kitauth verifies the HMAC with the client secret, on
 * sign-in and on refresh; a token whose signature does not verify is refused.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { customFetch } from '../../src/lib/core/index.js';
import type { OAuthConfig } from '../../src/lib/core/types.js';
import { startTestIdp, type TestIdp } from '../support/oidc-provider.js';
import {
	callbackUri,
	explain,
	oauthApp,
	oauthSignIn,
	sessionClaims,
	sessionCookiesSet,
	signInPageError
} from '../support/oauth-app.js';

const HMAC_CLIENT_ID = 'kitauth-hmac';
const HMAC_CLIENT_SECRET = 'kitauth-hmac-secret-0123456789abcdef0123456789abcdef';

let idp: TestIdp;

beforeAll(async () => {
	idp = await startTestIdp({
		refreshTokens: 'always',
		ttl: { accessToken: 60 },
		hmacIdTokens: true,
		clients: [
			{
				client_id: HMAC_CLIENT_ID,
				client_secret: HMAC_CLIENT_SECRET,
				redirect_uris: [callbackUri('hmac')],
				response_types: ['code'],
				token_endpoint_auth_method: 'client_secret_post',
				id_token_signed_response_alg: 'HS256'
			}
		]
	});
});
afterAll(() => idp.close());
afterEach(() => vi.useRealTimers());

const asAlice = (url: URL) => idp.completeInteraction(url, { login: 'alice' });

function hmacProvider(overrides: Partial<OAuthConfig> = {}): OAuthConfig {
	return {
		id: 'hmac',
		name: 'HMAC',
		type: 'oidc',
		issuer: idp.issuer,
		clientId: HMAC_CLIENT_ID,
		clientSecret: HMAC_CLIENT_SECRET,
		client: { token_endpoint_auth_method: 'client_secret_post', id_token_signed_response_alg: 'HS256' },
		...overrides
	};
}

/** The header of the ID token in a token endpoint response body. */
function idTokenHeader(body: { id_token?: string }): { alg?: string } {
	return JSON.parse(Buffer.from(body.id_token?.split('.')[0] ?? '', 'base64url').toString('utf8')) as { alg?: string };
}

describe('HS256 ID tokens', () => {
	test('sign in: the HMAC is verified with the client secret; a refresh too', async () => {
		const algs: (string | undefined)[] = [];
		const watching: typeof fetch = async (input, init) => {
			const response = await fetch(input, init);
			if (new URL(input instanceof Request ? input.url : input).pathname === '/token') {
				algs.push(idTokenHeader((await response.clone().json()) as { id_token?: string }).alg);
			}
			return response;
		};
		const app = oauthApp([hmacProvider({ [customFetch]: watching })]);
		const browser = app.browser();
		const { res } = await oauthSignIn(browser, 'hmac', asAlice);
		expect(res.status, explain(app.errors)).toBe(302);
		expect(sessionCookiesSet(res)).toHaveLength(1);
		expect(await browser.session()).toMatchObject({ user: { email: 'alice@example.test' } });

		const before = ((await sessionClaims(browser))?.oauth as { access_token?: string } | undefined)?.access_token;
		vi.useFakeTimers({ toFake: ['Date'] });
		vi.setSystemTime(Date.now() + 2 * 3600 * 1000);
		expect(await browser.session()).not.toHaveProperty('error');
		const after = ((await sessionClaims(browser))?.oauth as { access_token?: string } | undefined)?.access_token;
		expect(after).not.toBe(before);
		// Both token responses really carried an HS256 ID token.
		expect(algs).toEqual(['HS256', 'HS256']);
		expect(explain(app.errors)).toBe('');
	});

	test('a token whose HMAC does not verify is refused: no session', async () => {
		const tampering: typeof fetch = async (input, init) => {
			const response = await fetch(input, init);
			if (new URL(input instanceof Request ? input.url : input).pathname !== '/token') return response;
			const body = (await response.json()) as { id_token: string };
			const [header, payload, signature = ''] = body.id_token.split('.');
			const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
			return Response.json({ ...body, id_token: `${header}.${payload}.${flipped}` }, { status: response.status });
		};
		const app = oauthApp([hmacProvider({ [customFetch]: tampering })]);
		const browser = app.browser();
		const { res } = await oauthSignIn(browser, 'hmac', asAlice);
		expect(res.headers.get('location')).toBe(signInPageError('OAuthCallbackError'));
		expect(sessionCookiesSet(res)).toEqual([]);
		expect(explain(app.errors)).toMatch(/signature does not verify/);
	});

	test('an HS256 token from a provider expected to sign RS256 is refused, though its HMAC verifies', async () => {
		// The provider config names no algorithm and discovery says RS256 only: an HMAC token (which
		// anyone holding the client secret could mint) is not what this provider issues.
		const rs256Only: typeof fetch = async (input, init) => {
			const response = await fetch(input, init);
			if (new URL(input instanceof Request ? input.url : input).pathname !== '/.well-known/openid-configuration') return response;
			const metadata = (await response.json()) as Record<string, unknown>;
			return Response.json({ ...metadata, id_token_signing_alg_values_supported: ['RS256'] });
		};
		const app = oauthApp([hmacProvider({ client: { token_endpoint_auth_method: 'client_secret_post' }, [customFetch]: rs256Only })]);
		const { res } = await oauthSignIn(app.browser(), 'hmac', asAlice);
		expect(res.headers.get('location')).toBe(signInPageError('OAuthCallbackError'));
		expect(sessionCookiesSet(res)).toEqual([]);
		expect(explain(app.errors)).toMatch(/alg/);
	});

	test('without a client secret there is nothing to verify it with: refused', async () => {
		// A client secret the OP accepts for authentication is still needed for the HMAC: here the
		// secret reaches the OP through the body the fetch rewrites, not through the provider config.
		const addSecret: typeof fetch = async (input, init) => {
			if (new URL(input instanceof Request ? input.url : input).pathname !== '/token') return fetch(input, init);
			const body = new URLSearchParams(init?.body as URLSearchParams);
			body.set('client_secret', HMAC_CLIENT_SECRET);
			return fetch(input, { ...init, body });
		};
		const app = oauthApp([hmacProvider({ clientSecret: undefined, client: { token_endpoint_auth_method: 'none', id_token_signed_response_alg: 'HS256' }, [customFetch]: addSecret })]);
		const { res } = await oauthSignIn(app.browser(), 'hmac', asAlice);
		expect(res.headers.get('location')).toBe(signInPageError('OAuthCallbackError'));
		expect(explain(app.errors)).toMatch(/needs a client secret/);
	});
});
