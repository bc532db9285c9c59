/**
 * Okta (OpenID Connect). The issuer is your Okta org or one of its authorization servers and
 * comes from the app.
 *
 * ```ts
 * import Okta from 'kitauth/providers/okta';
 * // reads AUTH_OKTA_ID, AUTH_OKTA_SECRET and AUTH_OKTA_ISSUER
 * // (e.g. https://acme.okta.com, or https://acme.okta.com/oauth2/default)
 * SvelteKitAuth({ providers: [Okta] });
 * ```
 * Callback URL to register (the app integration's "Sign-in redirect URIs"): `<origin>/auth/callback/okta`.
 */
import type { Profile } from '../core/types/models.js';
import type { OIDCConfig, OAuthUserConfig } from '../core/types/provider.js';

/** The ID token's claims with `openid profile email` (https://developer.okta.com/docs/reference/api/oidc/#id-token-payload). */
export interface OktaProfile extends Profile {
	iss: string;
	aud: string;
	iat: number;
	exp: number;
	/** The Okta user id, e.g. `00uid4BxXw6I6TV4m0g3`. */
	sub: string;
	ver?: number;
	jti?: string;
	amr?: string[];
	idp?: string;
	nonce?: string;
	auth_time?: number;
	at_hash?: string;
	name?: string;
	/** The Okta login, usually an email address. */
	preferred_username?: string;
	given_name?: string;
	family_name?: string;
	middle_name?: string;
	nickname?: string;
	zoneinfo?: string;
	locale?: string;
	email?: string;
	email_verified?: boolean;
	groups?: string[];
}

export default function Okta<P extends OktaProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
	return {
		id: 'okta',
		name: 'Okta',
		type: 'oidc',
		issuer: options.issuer,
		authorization: { params: { scope: 'openid profile email' } },
		// No profile(): the default mapping (sub, name, email, picture) is this provider's.
		// Okta's wordmark is black; its blue (#007DC1) is a shade too light for white text.
		style: { bg: '#000', text: '#fff' },
		options
	};
}
