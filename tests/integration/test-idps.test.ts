/**
 * Self-tests of the two test OpenID Providers (tests/support/oidc-provider.ts and rogue-idp.ts),
 * driven by oauth4webapi directly (not kitauth): if these pass, an OAuth test of kitauth that fails
 * against them fails because of kitauth.
 *
 * Over http, every oauth4webapi request needs `[allowInsecureRequests]: true`.
 */
import { exportJWK, generateKeyPair } from 'jose';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startTestIdp, type TestIdp } from '../support/oidc-provider.js';
import {
	startRogueIdp,
	WRONG_ISSUER,
	WRONG_SUB,
	type RogueIdp,
	type TokenResponseVariant
} from '../support/rogue-idp.js';

const REDIRECT = 'http://localhost/auth/callback/test-idp';
const insecure = { [oauth.allowInsecureRequests]: true } as const;

async function discover(issuer: string): Promise<oauth.AuthorizationServer> {
	const url = new URL(issuer);
	return oauth.processDiscoveryResponse(url, await oauth.discoveryRequest(url, { algorithm: 'oidc', ...insecure }));
}

interface Started {
	url: URL;
	state: string;
	nonce: string;
	verifier: string;
}

/** An authorization URL with PKCE S256, state and nonce (and any extra parameter). */
async function begin(
	as: oauth.AuthorizationServer,
	clientId: string,
	extra: Record<string, string> = {}
): Promise<Started> {
	if (!as.authorization_endpoint) throw new Error('no authorization_endpoint');
	const verifier = oauth.generateRandomCodeVerifier();
	const state = oauth.generateRandomState();
	const nonce = oauth.generateRandomNonce();
	const url = new URL(as.authorization_endpoint);
	url.search = new URLSearchParams({
		client_id: clientId,
		redirect_uri: REDIRECT,
		response_type: 'code',
		scope: 'openid email profile',
		state,
		nonce,
		code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
		code_challenge_method: 'S256',
		...extra
	}).toString();
	return { url, state, nonce, verifier };
}

async function exchange(
	as: oauth.AuthorizationServer,
	client: oauth.Client,
	auth: oauth.ClientAuth,
	params: URLSearchParams,
	start: Started
): Promise<{ response: Response; tokens: oauth.TokenEndpointResponse }> {
	const response = await oauth.authorizationCodeGrantRequest(as, client, auth, params, REDIRECT, start.verifier, insecure);
	const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, {
		expectedNonce: start.nonce,
		requireIdToken: true
	});
	return { response, tokens };
}

function idClaims(tokens: oauth.TokenEndpointResponse): oauth.IDToken {
	const claims = oauth.getValidatedIdTokenClaims(tokens);
	if (!claims) throw new Error('no ID token');
	return claims;
}

/** A stable label for what oauth4webapi threw: the OAuth `error`, or the processing error code. */
function failure(error: unknown): string {
	if (error instanceof oauth.ResponseBodyError) return `body:${error.error}`;
	if (error instanceof oauth.AuthorizationResponseError) return `authorization:${error.error}`;
	if (error instanceof oauth.WWWAuthenticateChallengeError) {
		return `challenge:${error.cause.map((c) => `${c.scheme} ${c.parameters.error ?? ''}`).join(',')}`;
	}
	if (error instanceof oauth.OperationProcessingError) return error.code ?? 'OperationProcessingError';
	return error instanceof Error ? error.name : String(error);
}

async function thrown(promise: Promise<unknown> | (() => unknown)): Promise<string> {
	try {
		await (typeof promise === 'function' ? promise() : promise);
	} catch (error) {
		return failure(error);
	}
	throw new Error('expected a rejection');
}

describe('oidc-provider test IdP', () => {
	let idp: TestIdp;
	let as: oauth.AuthorizationServer;
	const client: oauth.Client = { client_id: 'kitauth-test' };
	let clientKey: CryptoKey;

	beforeAll(async () => {
		const { privateKey, publicKey } = await generateKeyPair('ES256');
		clientKey = privateKey;
		idp = await startTestIdp({
			redirectUris: [REDIRECT],
			clients: [
				{ client_id: 'test-post', client_secret: 'post-secret-0123456789abcdef', token_endpoint_auth_method: 'client_secret_post', redirect_uris: [REDIRECT] },
				{ client_id: 'test-public', token_endpoint_auth_method: 'none', redirect_uris: [REDIRECT] },
				{
					client_id: 'test-pkjwt',
					token_endpoint_auth_method: 'private_key_jwt',
					jwks: { keys: [{ ...(await exportJWK(publicKey)), kid: 'client-key', alg: 'ES256', use: 'sig' }] },
					redirect_uris: [REDIRECT]
				},
				{ client_id: 'test-es256', client_secret: 'es256-secret-0123456789abcdef', id_token_signed_response_alg: 'ES256', redirect_uris: [REDIRECT] },
				{ client_id: 'test-form-post', client_secret: 'form-secret-0123456789abcdef', response_modes: ['form_post'], redirect_uris: [REDIRECT] }
			]
		});
		as = await discover(idp.issuer);
	});
	afterAll(() => idp.close());
	beforeEach(() => idp.resetCounts());

	test('discovery names the loopback issuer, S256 PKCE and the RFC 9207 iss parameter', () => {
		expect(idp.issuer).toBe(`http://127.0.0.1:${idp.port}`);
		expect(as).toMatchObject({
			issuer: idp.issuer,
			token_endpoint: `${idp.issuer}/token`,
			userinfo_endpoint: `${idp.issuer}/me`,
			jwks_uri: `${idp.issuer}/jwks`,
			code_challenge_methods_supported: ['S256'],
			authorization_response_iss_parameter_supported: true
		});
		expect(as.scopes_supported).toEqual(expect.arrayContaining(['openid', 'email', 'profile', 'offline_access']));
	});

	test('code flow: login + consent as alice, token exchange, nonce, ID token signature, userinfo', async () => {
		const start = await begin(as, client.client_id);
		const { url: callback, prompts } = await idp.authorize(start.url, { login: 'alice' }).then((o) => {
			if (o.mode !== 'redirect') throw new Error('expected a redirect');
			return o;
		});
		expect(prompts).toEqual(['login', 'consent']);
		expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT);
		expect(callback.searchParams.get('iss')).toBe(idp.issuer);
		const params = oauth.validateAuthResponse(as, client, callback, start.state);

		const { response, tokens } = await exchange(as, client, oauth.ClientSecretBasic(idp.clientSecret), params, start);
		await oauth.validateApplicationLevelSignature(as, response, insecure);
		const alice = idp.accounts.alice;
		const claims = idClaims(tokens);
		expect(claims).toMatchObject({ iss: idp.issuer, aud: client.client_id, sub: alice?.sub, nonce: start.nonce, email: alice?.email });
		expect(tokens.refresh_token).toBeUndefined();

		const info = await oauth.processUserInfoResponse(
			as,
			client,
			claims.sub,
			await oauth.userInfoRequest(as, client, tokens.access_token, insecure)
		);
		expect(info).toEqual({ ...alice });
		expect(idp.counts()).toMatchObject({ token: 1, userinfo: 1 });
		expect(idp.counts().jwks).toBeGreaterThanOrEqual(1);
	});

	test('bob signs in as bob', async () => {
		const start = await begin(as, client.client_id);
		const callback = await idp.completeInteraction(start.url, { login: 'bob' });
		const params = oauth.validateAuthResponse(as, client, callback, start.state);
		const { tokens } = await exchange(as, client, oauth.ClientSecretBasic(idp.clientSecret), params, start);
		expect(idClaims(tokens)).toMatchObject({ sub: idp.accounts.bob?.sub, email_verified: false });
	});

	test('PKCE is required: no code_challenge → invalid_request back to the client, no code', async () => {
		const start = await begin(as, client.client_id);
		start.url.searchParams.delete('code_challenge');
		start.url.searchParams.delete('code_challenge_method');
		const callback = await idp.completeInteraction(start.url);
		expect(callback.searchParams.get('error')).toBe('invalid_request');
		expect(callback.searchParams.has('code')).toBe(false);
		expect(await thrown(() => oauth.validateAuthResponse(as, client, callback, start.state))).toBe('authorization:invalid_request');
	});

	test('deny() and a refused consent both come back as access_denied, with state and iss', async () => {
		for (const outcome of [
			async (url: URL) => idp.deny(url),
			async (url: URL) => idp.completeInteraction(url, { consent: false })
		]) {
			const start = await begin(as, client.client_id);
			const callback = await outcome(start.url);
			expect(callback.searchParams.get('error')).toBe('access_denied');
			expect(callback.searchParams.get('state')).toBe(start.state);
			expect(callback.searchParams.get('iss')).toBe(idp.issuer);
			expect(await thrown(() => oauth.validateAuthResponse(as, client, callback, start.state))).toBe('authorization:access_denied');
		}
		expect(idp.counts().token).toBe(0);
	});

	test('offline_access + prompt=consent gives a rotating refresh token; without prompt=consent, none', async () => {
		const auth = oauth.ClientSecretBasic(idp.clientSecret);
		const without = await begin(as, client.client_id, { scope: 'openid email offline_access' });
		const plain = oauth.validateAuthResponse(as, client, await idp.completeInteraction(without.url), without.state);
		expect((await exchange(as, client, auth, plain, without)).tokens.refresh_token).toBeUndefined();

		const start = await begin(as, client.client_id, { scope: 'openid email offline_access', prompt: 'consent' });
		const params = oauth.validateAuthResponse(as, client, await idp.completeInteraction(start.url), start.state);
		const { tokens } = await exchange(as, client, auth, params, start);
		const first = tokens.refresh_token;
		if (!first) throw new Error('no refresh token');

		const response = await oauth.refreshTokenGrantRequest(as, client, auth, first, insecure);
		const refreshed = await oauth.processRefreshTokenResponse(as, client, response);
		await oauth.validateApplicationLevelSignature(as, response, insecure);
		expect(refreshed.access_token).not.toBe(tokens.access_token);
		expect(refreshed.refresh_token).toBeDefined();
		expect(refreshed.refresh_token).not.toBe(first);
		expect(idClaims(refreshed).sub).toBe(idClaims(tokens).sub);

		// Rotation: the spent refresh token is refused.
		const reuse = await oauth.refreshTokenGrantRequest(as, client, auth, first, insecure);
		expect(await thrown(oauth.processRefreshTokenResponse(as, client, reuse))).toBe('body:invalid_grant');
	});

	test('other clients: client_secret_post, public + PKCE, private_key_jwt, ES256 ID tokens', async () => {
		const cases: Array<{ client: oauth.Client; auth: oauth.ClientAuth; alg: string }> = [
			{ client: { client_id: 'test-post' }, auth: oauth.ClientSecretPost('post-secret-0123456789abcdef'), alg: 'RS256' },
			{ client: { client_id: 'test-public' }, auth: oauth.None(), alg: 'RS256' },
			{ client: { client_id: 'test-pkjwt' }, auth: oauth.PrivateKeyJwt({ key: clientKey, kid: 'client-key' }), alg: 'RS256' },
			{
				client: { client_id: 'test-es256', id_token_signed_response_alg: 'ES256' },
				auth: oauth.ClientSecretBasic('es256-secret-0123456789abcdef'),
				alg: 'ES256'
			}
		];
		for (const { client: other, auth, alg } of cases) {
			const start = await begin(as, other.client_id);
			const params = oauth.validateAuthResponse(as, other, await idp.completeInteraction(start.url), start.state);
			const { response, tokens } = await exchange(as, other, auth, params, start);
			await oauth.validateApplicationLevelSignature(as, response, insecure);
			const [header = ''] = (tokens.id_token ?? '').split('.');
			expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toMatchObject({ alg });
			expect(idClaims(tokens).aud).toBe(other.client_id);
		}
		expect(idp.counts().token).toBe(cases.length);
	});

	// oidc-provider answers a failed client_secret_basic with 401 + `WWW-Authenticate: Basic`, which
	// oauth4webapi surfaces as a challenge rather than a body error.
	test('a wrong client secret is refused at the token endpoint', async () => {
		const start = await begin(as, client.client_id);
		const params = oauth.validateAuthResponse(as, client, await idp.completeInteraction(start.url), start.state);
		const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.ClientSecretBasic('wrong'), params, REDIRECT, start.verifier, insecure);
		expect(await thrown(oauth.processAuthorizationCodeResponse(as, client, response))).toBe('challenge:basic invalid_client');
	});

	test('form_post client: completeFormPost() returns the fields the OP would POST to redirect_uri', async () => {
		const formClient: oauth.Client = { client_id: 'test-form-post' };
		const start = await begin(as, formClient.client_id, { response_mode: 'form_post' });
		const { action, fields } = await idp.completeFormPost(start.url);
		expect(action.href).toBe(REDIRECT);
		expect([...fields.keys()].sort()).toEqual(['code', 'iss', 'state']);
		expect(fields.get('state')).toBe(start.state);
		const params = oauth.validateAuthResponse(as, formClient, fields, start.state);
		const { tokens } = await exchange(as, formClient, oauth.ClientSecretBasic('form-secret-0123456789abcdef'), params, start);
		expect(idClaims(tokens).sub).toBe(idp.accounts.alice?.sub);
		await expect(idp.completeInteraction((await begin(as, formClient.client_id, { response_mode: 'form_post' })).url)).rejects.toThrow(/form_post/);
	});

	test('a kept OP session skips the login page', async () => {
		const cookies = new Map<string, string>();
		const first = await idp.authorize((await begin(as, client.client_id)).url, { cookies });
		const second = await idp.authorize((await begin(as, client.client_id)).url, { cookies });
		expect(first.prompts).toEqual(['login', 'consent']);
		expect(second.prompts).toEqual([]);
		expect(second.mode === 'redirect' && second.url.searchParams.has('code')).toBe(true);
	});
});

describe('oidc-provider test IdP options', () => {
	test("refreshTokens: 'always' and a short access token TTL", async () => {
		const idp = await startTestIdp({ redirectUris: [REDIRECT], refreshTokens: 'always', ttl: { accessToken: 5 } });
		try {
			const as = await discover(idp.issuer);
			const client: oauth.Client = { client_id: idp.clientId };
			const auth = oauth.ClientSecretBasic(idp.clientSecret);
			const start = await begin(as, client.client_id);
			const params = oauth.validateAuthResponse(as, client, await idp.completeInteraction(start.url), start.state);
			const { tokens } = await exchange(as, client, auth, params, start);
			expect(tokens.expires_in).toBeGreaterThan(0);
			expect(tokens.expires_in).toBeLessThanOrEqual(5);
			if (!tokens.refresh_token) throw new Error('no refresh token');
			const refreshed = await oauth.processRefreshTokenResponse(
				as,
				client,
				await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token, insecure)
			);
			expect(refreshed.expires_in).toBeLessThanOrEqual(5);
		} finally {
			await idp.close();
		}
	});

	test('pause() holds every response; close() makes the OP unreachable', async () => {
		const idp = await startTestIdp();
		const discovery = `${idp.issuer}/.well-known/openid-configuration`;
		idp.pause(10_000);
		await expect(fetch(discovery, { signal: AbortSignal.timeout(200) })).rejects.toThrow(/abort|timeout/i);
		idp.resume();
		expect((await fetch(discovery)).status).toBe(200);
		expect(idp.counts().discovery).toBe(2);
		await idp.close();
		await expect(fetch(discovery)).rejects.toThrow(TypeError);
	});
});

describe('rogue IdP', () => {
	let rogue: RogueIdp;
	const client: oauth.Client = { client_id: 'kitauth-rogue' };
	let basic: oauth.ClientAuth;

	beforeAll(async () => {
		rogue = await startRogueIdp({
			redirectUris: [REDIRECT],
			clients: [
				{ client_id: 'rogue-post', client_secret: 'rogue-post-secret', token_endpoint_auth_method: 'client_secret_post', redirect_uris: [REDIRECT] },
				{ client_id: 'rogue-public', token_endpoint_auth_method: 'none', redirect_uris: [REDIRECT] }
			]
		});
		basic = oauth.ClientSecretBasic(rogue.clientSecret);
	});
	afterAll(() => rogue.close());
	beforeEach(() => {
		rogue.reset();
		rogue.resetCounts();
	});

	/** Discovery → authorization → validated callback parameters. */
	async function authorized(who: oauth.Client = client) {
		const as = await discover(rogue.issuer);
		const start = await begin(as, who.client_id);
		const params = oauth.validateAuthResponse(as, who, await rogue.completeInteraction(start.url), start.state);
		return { as, start, params };
	}

	type Stage = 'processAuthorizationCodeResponse' | 'validateApplicationLevelSignature' | 'processUserInfoResponse' | 'passed';

	/** Runs the code exchange and stops at the first oauth4webapi function that throws. */
	async function firstFailure(): Promise<{ stage: Stage; error?: string; claims?: oauth.IDToken }> {
		const { as, start, params } = await authorized();
		const response = await oauth.authorizationCodeGrantRequest(as, client, basic, params, REDIRECT, start.verifier, insecure);
		let tokens: oauth.TokenEndpointResponse;
		try {
			tokens = await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: start.nonce, requireIdToken: true });
		} catch (error) {
			return { stage: 'processAuthorizationCodeResponse', error: failure(error) };
		}
		const claims = idClaims(tokens);
		try {
			await oauth.validateApplicationLevelSignature(as, response, insecure);
		} catch (error) {
			return { stage: 'validateApplicationLevelSignature', error: failure(error), claims };
		}
		try {
			await oauth.processUserInfoResponse(as, client, claims.sub, await oauth.userInfoRequest(as, client, tokens.access_token, insecure));
		} catch (error) {
			return { stage: 'processUserInfoResponse', error: failure(error), claims };
		}
		return { stage: 'passed', claims };
	}

	// Keyed by variant so that a new variant without an expectation does not compile.
	const EXPECTED: Record<TokenResponseVariant, { stage: Stage; error?: string }> = {
		good: { stage: 'passed' },
		error: { stage: 'processAuthorizationCodeResponse', error: 'body:invalid_grant' },
		unavailable: { stage: 'processAuthorizationCodeResponse', error: oauth.RESPONSE_IS_NOT_CONFORM },
		'alg-none': { stage: 'processAuthorizationCodeResponse', error: oauth.INVALID_RESPONSE },
		'wrong-iss': { stage: 'processAuthorizationCodeResponse', error: oauth.JWT_CLAIM_COMPARISON },
		'wrong-aud': { stage: 'processAuthorizationCodeResponse', error: oauth.JWT_CLAIM_COMPARISON },
		'extra-aud-no-azp': { stage: 'processAuthorizationCodeResponse', error: oauth.JWT_CLAIM_COMPARISON },
		expired: { stage: 'processAuthorizationCodeResponse', error: oauth.JWT_TIMESTAMP_CHECK },
		'missing-sub': { stage: 'processAuthorizationCodeResponse', error: oauth.INVALID_RESPONSE },
		'missing-iat': { stage: 'processAuthorizationCodeResponse', error: oauth.INVALID_RESPONSE },
		// oauth4webapi does not look at a future `iat`: kitauth refuses it itself (replay.security.test.ts).
		'future-iat': { stage: 'passed' },
		'near-future-iat': { stage: 'passed' },
		'wrong-nonce': { stage: 'processAuthorizationCodeResponse', error: oauth.JWT_CLAIM_COMPARISON },
		'bad-signature': { stage: 'validateApplicationLevelSignature', error: oauth.INVALID_RESPONSE },
		'unknown-kid': { stage: 'validateApplicationLevelSignature', error: oauth.KEY_SELECTION },
		'wrong-sub': { stage: 'processUserInfoResponse', error: oauth.JSON_ATTRIBUTE_COMPARISON }
	};

	test.each(Object.entries(EXPECTED))('token response %s → %o', async (variant, expected) => {
		rogue.nextTokenResponse(variant as TokenResponseVariant);
		const result = await firstFailure();
		expect({ stage: result.stage, error: result.error }).toEqual({ stage: expected.stage, error: expected.error });
		expect(rogue.counts().token).toBe(1);
		if (variant === 'good') expect(result.claims).toMatchObject({ sub: rogue.accounts.alice?.sub, iss: rogue.issuer, email: rogue.accounts.alice?.email });
		if (variant === 'wrong-sub') expect(result.claims?.sub).toBe(WRONG_SUB);
	});

	test('the queue is per response: after a flawed one, the next is good again', async () => {
		rogue.nextTokenResponse('wrong-iss', 'expired');
		expect((await firstFailure()).error).toBe(oauth.JWT_CLAIM_COMPARISON);
		expect((await firstFailure()).error).toBe(oauth.JWT_TIMESTAMP_CHECK);
		expect((await firstFailure()).stage).toBe('passed');
	});

	test('a discovery document with another issuer is refused', async () => {
		rogue.behaviour.discoveryIssuer = WRONG_ISSUER;
		const url = new URL(rogue.issuer);
		const response = await oauth.discoveryRequest(url, { algorithm: 'oidc', ...insecure });
		expect(await thrown(oauth.processDiscoveryResponse(url, response))).toBe(oauth.JSON_ATTRIBUTE_COMPARISON);
	});

	test('userinfo with another sub is refused', async () => {
		rogue.behaviour.userinfoSub = WRONG_SUB;
		expect(await firstFailure()).toMatchObject({ stage: 'processUserInfoResponse', error: oauth.JSON_ATTRIBUTE_COMPARISON });
	});

	test('an altered or missing state / iss in the authorization response is refused', async () => {
		const as = await discover(rogue.issuer);
		const settings: Array<Partial<typeof rogue.behaviour>> = [
			{ responseState: 'forged-state' },
			{ responseState: null },
			{ responseIss: WRONG_ISSUER },
			{ responseIss: null }
		];
		for (const setting of settings) {
			rogue.reset();
			Object.assign(rogue.behaviour, setting);
			const start = await begin(as, client.client_id);
			const callback = await rogue.completeInteraction(start.url);
			expect(callback.searchParams.has('code')).toBe(true);
			expect(await thrown(() => oauth.validateAuthResponse(as, client, callback, start.state))).toBe(oauth.INVALID_RESPONSE);
		}
	});

	test('PKCE: /authorize wants an S256 challenge, /token checks the verifier', async () => {
		const as = await discover(rogue.issuer);
		const noPkce = await begin(as, client.client_id);
		noPkce.url.searchParams.delete('code_challenge');
		expect((await rogue.completeInteraction(noPkce.url)).searchParams.get('error')).toBe('invalid_request');

		const { start, params } = await authorized();
		const wrong = await oauth.authorizationCodeGrantRequest(as, client, basic, params, REDIRECT, oauth.generateRandomCodeVerifier(), insecure);
		expect(await thrown(oauth.processAuthorizationCodeResponse(as, client, wrong, { expectedNonce: start.nonce }))).toBe('body:invalid_grant');
		// The failed attempt spent the code, as a real OP does.
		const retry = await oauth.authorizationCodeGrantRequest(as, client, basic, params, REDIRECT, start.verifier, insecure);
		expect(await thrown(oauth.processAuthorizationCodeResponse(as, client, retry, { expectedNonce: start.nonce }))).toBe('body:invalid_grant');
	});

	test('client authentication: the registered method and secret only', async () => {
		const tryAuth = async (who: oauth.Client, auth: oauth.ClientAuth): Promise<string> => {
			const { as, start, params } = await authorized(who);
			const response = await oauth.authorizationCodeGrantRequest(as, who, auth, params, REDIRECT, start.verifier, insecure);
			try {
				await oauth.processAuthorizationCodeResponse(as, who, response, { expectedNonce: start.nonce });
				return 'ok';
			} catch (error) {
				return failure(error);
			}
		};
		expect(await tryAuth(client, basic)).toBe('ok');
		expect(await tryAuth({ client_id: 'rogue-post' }, oauth.ClientSecretPost('rogue-post-secret'))).toBe('ok');
		expect(await tryAuth({ client_id: 'rogue-public' }, oauth.None())).toBe('ok');
		expect(await tryAuth(client, oauth.ClientSecretBasic('wrong'))).toBe('body:invalid_client');
		expect(await tryAuth(client, oauth.ClientSecretPost(rogue.clientSecret))).toBe('body:invalid_client');
		expect(await tryAuth({ client_id: 'rogue-post' }, oauth.None())).toBe('body:invalid_client');
	});

	test('an unregistered redirect_uri gets no redirect at all', async () => {
		const as = await discover(rogue.issuer);
		const start = await begin(as, client.client_id, { redirect_uri: 'http://evil.example.test/cb' });
		await expect(rogue.completeInteraction(start.url)).rejects.toThrow(/400/);
	});

	test('refresh grant: rotated tokens, and flaws apply to refresh responses too', async () => {
		const { as, start, params } = await authorized();
		const { tokens } = await exchange(as, client, basic, params, start);
		if (!tokens.refresh_token) throw new Error('no refresh token');
		const response = await oauth.refreshTokenGrantRequest(as, client, basic, tokens.refresh_token, insecure);
		const refreshed = await oauth.processRefreshTokenResponse(as, client, response);
		await oauth.validateApplicationLevelSignature(as, response, insecure);
		expect(idClaims(refreshed).sub).toBe(idClaims(tokens).sub);
		if (!refreshed.refresh_token) throw new Error('no rotated refresh token');

		const spent = await oauth.refreshTokenGrantRequest(as, client, basic, tokens.refresh_token, insecure);
		expect(await thrown(oauth.processRefreshTokenResponse(as, client, spent))).toBe('body:invalid_grant');

		rogue.nextTokenResponse('wrong-iss');
		const flawed = await oauth.refreshTokenGrantRequest(as, client, basic, refreshed.refresh_token, insecure);
		expect(await thrown(oauth.processRefreshTokenResponse(as, client, flawed))).toBe(oauth.JWT_CLAIM_COMPARISON);
	});
});
