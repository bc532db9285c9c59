/**
 * Auth0 (OpenID Connect). The issuer is your tenant's domain and comes from the app.
 *
 * ```ts
 * import Auth0 from 'kitauth/providers/auth0';
 * // reads AUTH_AUTH0_ID, AUTH_AUTH0_SECRET and AUTH_AUTH0_ISSUER (e.g. https://acme.eu.auth0.com)
 * SvelteKitAuth({ providers: [Auth0] });
 * ```
 * Callback URL to register ("Allowed Callback URLs"): `<origin>/auth/callback/auth0`.
 */
import type { Profile } from '../core/types/models.js';
import type { OIDCConfig, OAuthUserConfig } from '../core/types/provider.js';

/** The ID token's claims with the `openid profile email` scopes (https://auth0.com/docs/secure/tokens/id-tokens/id-token-structure). */
export interface Auth0Profile extends Profile {
	iss: string;
	aud: string;
	/** `<connection>|<user id>`, e.g. `auth0|64b…` or `google-oauth2|1090…`. */
	sub: string;
	iat: number;
	exp: number;
	sid?: string;
	nonce?: string;
	name?: string;
	nickname?: string;
	given_name?: string;
	family_name?: string;
	picture?: string;
	email?: string;
	email_verified?: boolean;
	updated_at?: string;
}

export default function Auth0<P extends Auth0Profile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
	return {
		id: 'auth0',
		name: 'Auth0',
		type: 'oidc',
		issuer: options.issuer,
		authorization: { params: { scope: 'openid profile email' } },
		// No profile(): the default mapping (sub, name, email, picture) is this provider's.
		style: { bg: '#EB5424', text: '#fff' },
		options
	};
}
