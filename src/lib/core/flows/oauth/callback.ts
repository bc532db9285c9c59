import * as o from 'oauth4webapi';
import type { AuthContext } from '../../context.js';
import { AuthError, OAuthCallbackError } from '../../errors.js';
import type { Identity } from '../../login.js';
import { openChecks, type CheckKey } from '../../session/checks.js';
import { CHECK_COOKIE_MAX_AGE } from '../../session/cookies.js';
import type { RequestInternal } from '../../types/internal.js';
import type { Profile } from '../../types/models.js';
import type { OAuthConfig } from '../../types/provider.js';
import { activeChecks } from './checks.js';
import { assertIssuedInPast, peekIdToken } from './id-token.js';
import { verifyIdTokenSignature } from './id-token-signature.js';
import { serverForIdToken } from './issuer-template.js';
import { userAndAccount, tokenSet } from './profile.js';
import { providerRefusal } from './provider-refusal.js';
import { redirectUri } from './proxy.js';
import { authorizationServer, clientFor, endpointParams, httpOptions, providerFetch } from './server.js';

/**
 * How long a used state is remembered: as long as its sealed cookie could still open (15 minutes,
 * plus the 15 s clock tolerance of sealed tokens); after that the cookie alone refuses it.
 */
const STATE_RECORD_MS = (CHECK_COOKIE_MAX_AGE + 60) * 1000;

/** The callback's parameters: the query, or the body of a `form_post` response. */
export function callbackParams(req: RequestInternal): URLSearchParams {
	if (req.method === 'GET') return new URLSearchParams(req.url.search);
	const params = new URLSearchParams();
	for (const [key, value] of Object.entries(req.body)) if (typeof value === 'string') params.set(key, value);
	return params;
}

/**
 * GET|POST /callback/<oauth-id>: checks first (nothing is sent to the provider unless the state,
 * PKCE and nonce cookies of this provider are present and valid), then the code exchange, the ID
 * token validated (claims and signature through the JWKS), the profile, and the identity.
 */
export async function oauthIdentity(req: RequestInternal, ctx: AuthContext, provider: OAuthConfig): Promise<Identity> {
	const params = callbackParams(req);
	const { isPublic, client, auth } = await clientFor(provider);
	const checks = activeChecks(provider, isPublic);
	const needed: CheckKey[] = ['state'];
	if (checks.pkce) needed.push('pkceCodeVerifier');
	if (checks.nonce) needed.push('nonce');
	const values = await openChecks(ctx, req.cookies, provider.id, needed);

	const error = params.get('error');
	if (error) {
		throw new OAuthCallbackError(`Provider "${provider.id}" answered ${error.slice(0, 64)}`, {
			cause: new Error(params.get('error_description')?.slice(0, 256) ?? error)
		});
	}
	try {
		const server = await authorizationServer(ctx, provider);
		const http = httpOptions(provider, server.token_endpoint);
		const validated = o.validateAuthResponse(server, client, params, values.state);
		// The state is spent here, server-side, before the code goes anywhere: a callback replayed
		// with its cookies (a captured request, a proxy's retry) gets no second session, even from
		// an IdP that wrongly accepts a code twice.
		if (!(await ctx.options.once.claim('oauth-state', `${provider.id}\u0000${values.state}`, STATE_RECORD_MS))) {
			throw new OAuthCallbackError(`A callback of "${provider.id}" was replayed (its state was used already)`);
		}
		const response = await o.authorizationCodeGrantRequest(
			server, client, auth, validated, redirectUri(ctx, provider), checks.pkce ? values.pkceCodeVerifier! : o.nopkce, http
		);
		const oidc = provider.type === 'oidc';
		const idTokenClaims = await peekIdToken(response);
		// The issuer the ID token must carry (a multi-tenant server's: its tenant's).
		const issuedBy = serverForIdToken(provider, server, idTokenClaims);
		// A nonce sent is a nonce checked: OIDC always; a plain OAuth 2 provider (`checks: ['nonce']`)
		// whenever its response carries an ID token. Without one there is nothing it could bind.
		const result = await o.processAuthorizationCodeResponse(issuedBy, client, response, {
			expectedNonce: checks.nonce && (oidc || idTokenClaims !== undefined) ? values.nonce! : o.expectNoNonce,
			requireIdToken: oidc && provider.idToken !== false
		});
		// oauth4webapi checks the ID token's claims but `iat` only for presence: one issued in the
		// future is ours to refuse (a broken or hostile IdP clock, a token minted to outlive its exp).
		assertIssuedInPast(o.getValidatedIdTokenClaims(result), client);
		// oauth4webapi checks the ID token's claims; its signature is ours to check, through the JWKS
		// (or the client secret, for the HMAC tokens some providers issue).
		// A plain OAuth 2 provider's identity comes from userinfo, not from an ID token it may add:
		// without discovery there are no keys to check one against, and none is trusted.
		if (result.id_token && (oidc || server.jwks_uri)) {
			await verifyIdTokenSignature(provider, issuedBy, response, result.id_token, httpOptions(provider, server.jwks_uri));
		}
		const tokens = tokenSet({ ...result });
		const profile = await fetchProfile(provider, issuedBy, client, result, tokens);
		// Apple posts the user's name once, on first consent, as a `user` form field beside the code.
		const posted = req.method === 'POST' ? params.get('user') : null;
		if (posted) profile.user = parseJsonObject(posted);
		const { user, account } = await userAndAccount(provider, profile, tokens);
		return { user, account, profile, allowDangerousEmailAccountLinking: provider.allowDangerousEmailAccountLinking };
	} catch (cause) {
		if (cause instanceof AuthError) throw cause;
		const refusal = providerRefusal(cause, [provider.clientSecret, params.get('code') ?? undefined]);
		const said = refusal ? `: the provider answered ${refusal}` : '';
		throw new OAuthCallbackError(`The ${provider.id} callback failed${said}`, { cause: cause as Error });
	}
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
	try {
		const value: unknown = JSON.parse(text);
		return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
	} catch {
		return undefined;
	}
}

async function fetchProfile(
	provider: OAuthConfig,
	server: o.AuthorizationServer,
	client: o.Client,
	result: o.TokenEndpointResponse,
	tokens: ReturnType<typeof tokenSet>
): Promise<Profile> {
	const claims = o.getValidatedIdTokenClaims(result);
	// `userinfo.params` go on every userinfo request, whichever path below makes it.
	const userinfo = userinfoUrl(provider, server);
	const withParams = { ...server, userinfo_endpoint: userinfo };
	const http = httpOptions(provider, userinfo);
	if (provider.type === 'oidc' && provider.idToken !== false && claims) {
		// Servers that keep the ID token minimal (OIDC "conform" mode) serve email and name only
		// from userinfo: fetch it then, checked against the ID token's subject.
		if (claims.email !== undefined || !userinfo) return { ...claims } as Profile;
		const response = await o.userInfoRequest(withParams, client, result.access_token, http);
		const info = await o.processUserInfoResponse(server, client, claims.sub, response);
		return { ...info, ...claims } as Profile;
	}
	const request = typeof provider.userinfo === 'object' ? provider.userinfo.request : undefined;
	if (request) return request({ tokens, provider, fetch: providerFetch(provider) });
	if (!userinfo) throw new OAuthCallbackError(`Provider "${provider.id}" has no userinfo endpoint`);
	if (provider.type === 'oidc') {
		const response = await o.userInfoRequest(withParams, client, result.access_token, http);
		return { ...(await o.processUserInfoResponse(server, client, claims?.sub ?? o.skipSubjectCheck, response)) } as Profile;
	}
	const response = await o.protectedResourceRequest(result.access_token, 'GET', new URL(userinfo), new Headers({ accept: 'application/json' }), null, http);
	if (!response.ok) throw new OAuthCallbackError(`Userinfo of "${provider.id}" answered ${response.status}`);
	const body: unknown = await response.json();
	if (!body || typeof body !== 'object' || Array.isArray(body)) throw new OAuthCallbackError(`Userinfo of "${provider.id}" is not an object`);
	return body as Profile;
}

/** The userinfo endpoint with the provider's `userinfo.params` in its query. */
function userinfoUrl(provider: OAuthConfig, server: o.AuthorizationServer): string | undefined {
	if (!server.userinfo_endpoint) return undefined;
	const url = new URL(server.userinfo_endpoint);
	for (const [key, value] of Object.entries(endpointParams(provider.userinfo))) {
		if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
	}
	return url.href;
}
