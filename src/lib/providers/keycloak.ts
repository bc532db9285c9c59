/**
 * Keycloak (OpenID Connect). The issuer is the realm's URL and comes from the app.
 *
 * ```ts
 * import Keycloak from 'kitauth/providers/keycloak';
 * // reads AUTH_KEYCLOAK_ID, AUTH_KEYCLOAK_SECRET and AUTH_KEYCLOAK_ISSUER
 * // (e.g. https://sso.example.com/realms/acme)
 * SvelteKitAuth({ providers: [Keycloak] });
 * ```
 * Callback URL to register (the client's "Valid redirect URIs"): `<origin>/auth/callback/keycloak`.
 */
import type { Profile } from '../core/types/models.js';
import type { OIDCConfig, OAuthUserConfig } from '../core/types/provider.js';

/** The ID token's claims with Keycloak's default client scopes (`profile`, `email`). */
export interface KeycloakProfile extends Profile {
	iss: string;
	aud: string | string[];
	sub: string;
	exp: number;
	iat: number;
	auth_time?: number;
	jti?: string;
	typ?: string;
	azp?: string;
	sid?: string;
	acr?: string;
	at_hash?: string;
	session_state?: string;
	email_verified?: boolean;
	name?: string;
	preferred_username?: string;
	given_name?: string;
	family_name?: string;
	email?: string;
	picture?: string;
}

export default function Keycloak<P extends KeycloakProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
	return {
		id: 'keycloak',
		name: 'Keycloak',
		type: 'oidc',
		issuer: options.issuer,
		authorization: { params: { scope: 'openid profile email' } },
		profile(profile) {
			return {
				id: profile.sub,
				// `name` is empty when the user has no first or last name; the username always exists.
				name: profile.name || profile.preferred_username || null,
				email: profile.email ?? null,
				image: profile.picture ?? null
			};
		},
		style: { bg: '#428bca', text: '#fff' },
		options
	};
}
