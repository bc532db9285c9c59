import * as o from 'oauth4webapi';
import type { AuthContext } from '../../context.js';
import { OAuthSignInError } from '../../errors.js';
import { limitAttempt } from '../../limit/attempt.js';
import { sealCheck } from '../../session/checks.js';
import type { Cookie, RequestInternal, ResponseInternal } from '../../types/internal.js';
import type { OAuthConfig } from '../../types/provider.js';
import { activeChecks } from './checks.js';
import { newState, proxyUrl, redirectUri } from './proxy.js';
import { authorizationServer, clientFor, endpointParams } from './server.js';

/** Parameters the protocol owns: `authorizationParams` from a request can never set them. */
const PROTECTED = new Set([
	'response_type', 'client_id', 'redirect_uri', 'state', 'nonce', 'code_challenge',
	'code_challenge_method', 'request', 'request_uri', 'response_mode'
]);

/**
 * POST /signin/<oauth-id>: redirect to the authorization endpoint with state, PKCE (S256) and
 * nonce as `activeChecks` decides, their values sealed into provider-bound cookies.
 */
export async function startOAuth(req: RequestInternal, ctx: AuthContext, provider: OAuthConfig): Promise<ResponseInternal> {
	await limitAttempt(ctx, req, 'oauth-start');
	const server = await authorizationServer(ctx, provider);
	if (!server.authorization_endpoint) throw new OAuthSignInError(`Provider "${provider.id}" has no authorization endpoint`);
	const { isPublic } = await clientFor(provider);
	const proxied = !!proxyUrl(ctx, provider);
	const checks = activeChecks(provider, isPublic);
	const url = new URL(server.authorization_endpoint);
	const params = url.searchParams;
	params.set('response_type', 'code');
	params.set('client_id', provider.clientId ?? '');
	params.set('redirect_uri', redirectUri(ctx, provider));
	if (provider.type === 'oidc') params.set('scope', 'openid profile email');
	for (const [key, value] of Object.entries(endpointParams(provider.authorization))) {
		if (value === undefined || value === null) continue;
		params.set(key, typeof value === 'string' ? value : JSON.stringify(value));
	}
	for (const [key, value] of Object.entries(req.query)) {
		if (!PROTECTED.has(key) && key !== 'callbackUrl') params.set(key, value);
	}

	const formPost = params.get('response_mode') === 'form_post';
	const cookies: Cookie[] = [];
	if (checks.pkce) {
		const verifier = o.generateRandomCodeVerifier();
		params.set('code_challenge', await o.calculatePKCECodeChallenge(verifier));
		params.set('code_challenge_method', 'S256');
		cookies.push(await sealCheck(ctx, 'pkceCodeVerifier', verifier, provider.id, { crossSitePost: formPost }));
	}
	const state = await newState(ctx, proxied);
	params.set('state', state);
	cookies.push(await sealCheck(ctx, 'state', state, provider.id, { crossSitePost: formPost }));
	if (checks.nonce) {
		const nonce = o.generateRandomNonce();
		params.set('nonce', nonce);
		cookies.push(await sealCheck(ctx, 'nonce', nonce, provider.id, { crossSitePost: formPost }));
	}
	ctx.options.logger.debug('oauth authorization redirect', { provider: provider.id, checks });
	return { redirect: url.href, cookies };
}
