import type { AuthOptions } from '../../types/options.js';
import type { FormPostCallback } from '../../types/server.js';
import { endpointParams, endpointUrl } from './server.js';

/**
 * The callbacks an identity provider reaches with a cross-site form POST from its own page:
 * `response_mode=form_post` (OAuth 2.0 Form Post Response Mode), asked for in the provider's
 * authorization params or its authorization URL (Sign in with Apple, or any OIDC provider so
 * configured). The origin is the authorization endpoint's, else the issuer's: the page that posts.
 * A provider sent through a redirect proxy posts to the proxy, not here, and is left out.
 */
export function formPostCallbacks(options: Pick<AuthOptions, 'providers' | 'basePath' | 'redirectProxyUrl'>): readonly FormPostCallback[] {
	const callbacks: FormPostCallback[] = [];
	for (const provider of options.providers) {
		if (provider.type !== 'oauth' && provider.type !== 'oidc') continue;
		if (provider.redirectProxyUrl ?? options.redirectProxyUrl) continue;
		const url = parsed(endpointUrl(provider.authorization));
		const mode = endpointParams(provider.authorization).response_mode ?? url?.searchParams.get('response_mode');
		if (mode !== 'form_post') continue;
		const origin = (url ?? parsed(provider.issuer))?.origin;
		if (!origin || origin === 'null') continue;
		callbacks.push(Object.freeze({ providerId: provider.id, providerName: provider.name, origin, path: `${options.basePath}/callback/${provider.id}` }));
	}
	return Object.freeze(callbacks);
}

function parsed(url: string | undefined): URL | undefined {
	if (!url) return undefined;
	try {
		return new URL(url);
	} catch {
		return undefined;
	}
}
