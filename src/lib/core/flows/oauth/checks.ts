import type { OAuthConfig } from '../../types/provider.js';

export interface ActiveChecks {
	pkce: boolean;
	state: boolean;
	nonce: boolean;
}

/**
 * Which checks a flow uses. PKCE (S256) always, except that a confidential client may drop it
 * explicitly (`checks` without `'pkce'`) for a server that cannot do PKCE — a public client never
 * may. OIDC always also uses `nonce`. `state` when asked for, with a redirect proxy, or when PKCE
 * was dropped: a flow is never left without a check binding it to the browser.
 */
export function activeChecks(provider: OAuthConfig, isPublic: boolean, proxied: boolean): ActiveChecks {
	const listed = provider.checks;
	const pkce = isPublic || !listed || listed.includes('pkce');
	const state = proxied || !pkce || !!listed?.includes('state');
	const nonce = provider.type === 'oidc' || !!listed?.includes('nonce');
	return { pkce, state, nonce };
}
