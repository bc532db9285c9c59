import { InvalidEndpoints, InvalidProvider, MissingAdapterMethods, OAuthAccountNotLinked } from '../../errors.js';
import type { OAuthConfig } from '../../types/provider.js';
import { byLinkedAccount } from '../../users.js';
import type { Flow } from '../flow.js';
import { startOAuth } from './authorize.js';
import { callbackParams, oauthIdentity } from './callback.js';
import { forwardTarget } from './proxy.js';
import { discovers, endpointUrl } from './server.js';

/** What signing in through a provider needs of an adapter (users and their linked accounts). */
const USER_METHODS = ['createUser', 'getUser', 'getUserByEmail', 'getUserByAccount', 'linkAccount'] as const;

/**
 * OAuth 2 and OpenID Connect: the start redirects to the authorization endpoint with state, PKCE
 * and nonce sealed in provider-bound cookies; the callback (a GET, or an identity provider's
 * `form_post`) is bound to the start by those cookies.
 */
export const oauthFlow: Flow<OAuthConfig> = {
	assert(provider, { config }) {
		if (!provider.clientId) {
			throw new InvalidProvider(`Provider "${provider.id}" has no clientId: pass it or set ${envVariable(provider, 'ID')}.`);
		}
		if (!provider.issuer && !provider.wellKnown && !(provider.authorization && provider.token)) {
			throw new InvalidEndpoints(`Provider "${provider.id}" needs an issuer (for discovery) or authorization and token endpoints.`);
		}
		if (!provider.clientSecret && needsClientSecret(provider)) {
			throw new InvalidProvider(
				`Provider "${provider.id}" has no clientSecret: pass it or set ${envVariable(provider, 'SECRET')}. ` +
					"(A public client without one says so: client: { token_endpoint_auth_method: 'none' }.)"
			);
		}
		if (!hasProfileSource(provider)) {
			throw new InvalidEndpoints(
				`Provider "${provider.id}" is missing both \`issuer\` and \`userinfo\` endpoint config: an OAuth 2 provider's ` +
					'profile comes from userinfo. Set userinfo (a URL, or { request }), or an issuer or wellKnown to discover it.'
			);
		}
		if (!config.adapter) return;
		const missing = USER_METHODS.filter((method) => typeof config.adapter?.[method] !== 'function');
		if (missing.length) throw new MissingAdapterMethods(`The adapter lacks ${missing.join(', ')} for provider "${provider.id}".`);
	},
	env: { ID: 'clientId', SECRET: 'clientSecret', ISSUER: 'issuer' },
	start: startOAuth,
	users: byLinkedAccount(OAuthAccountNotLinked),
	callback: {
		methods: ['GET', 'POST'],
		protection: 'checks',
		async run(req, ctx, provider) {
			// A redirect proxy (the stable deployment) hands a callback back to the deployment that started it.
			const forward = req.method === 'GET' ? await forwardTarget(ctx, provider, callbackParams(req)) : undefined;
			if (forward) return { response: { redirect: forward } };
			return { identity: await oauthIdentity(req, ctx, provider) };
		}
	}
};

/** The variable a field of this provider is read from: `AUTH_<ID>_<SUFFIX>`. */
function envVariable(provider: OAuthConfig, suffix: 'ID' | 'SECRET'): string {
	return `AUTH_${provider.id.toUpperCase().replace(/-/g, '_')}_${suffix}`;
}

/**
 * Does the token request authenticate the client with its secret? Not for a public client
 * (`none`: PKCE alone) nor with `private_key_jwt` (a signed assertion); otherwise (the default
 * `client_secret_basic`, `client_secret_post`) a missing secret would only fail after the user
 * signed in at the provider, as its token endpoint's `invalid_client`.
 */
function needsClientSecret(provider: OAuthConfig): boolean {
	const method = provider.client?.token_endpoint_auth_method;
	return method !== 'none' && method !== 'private_key_jwt';
}

/**
 * Can a sign-in get the user's profile? OpenID Connect has the ID token; a plain OAuth 2 provider
 * needs userinfo: configured (a URL, or a `request` of its own), or discovered (an issuer or
 * `wellKnown` without both explicit endpoints).
 */
function hasProfileSource(provider: OAuthConfig): boolean {
	if (provider.type === 'oidc') return true;
	const request = typeof provider.userinfo === 'object' ? provider.userinfo.request : undefined;
	return !!endpointUrl(provider.userinfo) || typeof request === 'function' || discovers(provider);
}
