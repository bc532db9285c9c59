import type { OAuthConfig } from '../../types/provider.js';

/** The optional checks; `state` is not among them, it is always used. */
export interface ActiveChecks {
	pkce: boolean;
	nonce: boolean;
}

/**
 * Which checks a flow uses. PKCE (S256) always, except that a confidential client may drop it
 * explicitly (`checks` without `'pkce'`) for a server that cannot do PKCE — a public client never
 * may. `state` always, whatever `checks` says: it binds the callback to the browser that started
 * the flow before anything is sent to the provider, and carries the origin behind a redirect
 * proxy. `nonce` always for OIDC; for plain OAuth 2 when listed (the callback then checks it in
 * any ID token the provider returns).
 */
export function activeChecks(provider: OAuthConfig, isPublic: boolean): ActiveChecks {
	const listed = provider.checks;
	const pkce = isPublic || !listed || listed.includes('pkce');
	const nonce = provider.type === 'oidc' || !!listed?.includes('nonce');
	return { pkce, nonce };
}
