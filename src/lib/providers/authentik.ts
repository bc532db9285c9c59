/**
 * Authentik (OpenID Connect). The issuer is the application's provider URL and comes from the app.
 *
 * ```ts
 * import Authentik from 'kitauth/providers/authentik';
 * // reads AUTH_AUTHENTIK_ID, AUTH_AUTHENTIK_SECRET and AUTH_AUTHENTIK_ISSUER
 * // (e.g. https://auth.example.com/application/o/my-app/, trailing slash included)
 * SvelteKitAuth({ providers: [Authentik] });
 * ```
 * Callback URL to register (the OAuth2/OpenID provider's "Redirect URIs"):
 * `<origin>/auth/callback/authentik`.
 */
import type { Profile } from '../core/types/models.js';
import type { OIDCConfig, OAuthUserConfig } from '../core/types/provider.js';

/** The ID token's claims with authentik's default scope mappings (`openid profile email`). */
export interface AuthentikProfile extends Profile {
	iss: string;
	aud: string;
	iat: number;
	exp: number;
	auth_time?: number;
	acr?: string;
	amr?: string[];
	nonce?: string;
	at_hash?: string;
	/** Per the provider's "Subject mode": a hashed user id by default. */
	sub: string;
	name?: string;
	given_name?: string;
	preferred_username?: string;
	nickname?: string;
	email?: string;
	email_verified?: boolean;
	groups?: string[];
}

export default function Authentik<P extends AuthentikProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
	return {
		id: 'authentik',
		name: 'Authentik',
		type: 'oidc',
		issuer: options.issuer,
		authorization: { params: { scope: 'openid profile email' } },
		// No profile(): the default mapping (sub, name, email, picture) is this provider's.
		// authentik orange is too light for white text.
		style: { bg: '#FD4B2D', text: '#000' },
		options
	};
}
