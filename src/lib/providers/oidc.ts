/**
 * Any OpenID Connect provider: endpoints come from `<issuer>/.well-known/openid-configuration`.
 *
 * ```ts
 * import OIDC from 'kitauth/providers/oidc';
 * OIDC({ id: 'acme', name: 'Acme SSO', issuer: 'https://sso.acme.test' });
 * // clientId and clientSecret from AUTH_ACME_ID and AUTH_ACME_SECRET
 * ```
 * Callback URL to register: `<origin>/auth/callback/<id>`.
 * Without a `profile` hook, the standard claims are used: `sub`, `name` (else `nickname`, else
 * `preferred_username`), `email` and `picture`.
 */
import type { Profile } from '../core/types/models.js';
import type { OAuthConfig, OIDCConfig, OAuthUserConfig } from '../core/types/provider.js';

/** The generic preset has no defaults for these: they say which provider it is. */
export type OIDCUserConfig<P extends Profile = Profile> = OAuthUserConfig<P> &
	Required<Pick<OAuthConfig<P>, 'id' | 'name' | 'issuer'>>;

export default function OIDC<P extends Profile = Profile>(options: OIDCUserConfig<P>): OIDCConfig<P> {
	return {
		id: options.id,
		name: options.name,
		type: 'oidc',
		issuer: options.issuer,
		authorization: { params: { scope: 'openid profile email' } },
		options
	};
}
