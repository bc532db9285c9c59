import { InvalidEndpoints, InvalidProvider, MissingAdapterMethods } from '../../errors.js';
import type { OAuthConfig } from '../../types/provider.js';
import type { Flow } from '../flow.js';
import { startOAuth } from './authorize.js';
import { callbackParams, oauthIdentity } from './callback.js';
import { forwardTarget } from './proxy.js';

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
			const variable = `AUTH_${provider.id.toUpperCase().replace(/-/g, '_')}_ID`;
			throw new InvalidProvider(`Provider "${provider.id}" has no clientId: pass it or set ${variable}.`);
		}
		if (!provider.issuer && !provider.wellKnown && !(provider.authorization && provider.token)) {
			throw new InvalidEndpoints(`Provider "${provider.id}" needs an issuer (for discovery) or authorization and token endpoints.`);
		}
		if (!config.adapter) return;
		const missing = USER_METHODS.filter((method) => typeof config.adapter?.[method] !== 'function');
		if (missing.length) throw new MissingAdapterMethods(`The adapter lacks ${missing.join(', ')} for provider "${provider.id}".`);
	},
	env: { ID: 'clientId', SECRET: 'clientSecret', ISSUER: 'issuer' },
	start: startOAuth,
	serverAction: 'signin',
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
