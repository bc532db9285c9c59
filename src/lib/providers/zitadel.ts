/**
 * ZITADEL (OpenID Connect), ZITADEL Cloud or self-hosted. The issuer is your instance's domain
 * and comes from the app.
 *
 * ```ts
 * import Zitadel from 'kitauth/providers/zitadel';
 * // reads AUTH_ZITADEL_ID, AUTH_ZITADEL_SECRET and AUTH_ZITADEL_ISSUER (e.g. https://acme-xyz.zitadel.cloud)
 * SvelteKitAuth({ providers: [Zitadel] });
 * ```
 * Callback URL to register (the application's "Redirect URIs"): `<origin>/auth/callback/zitadel`.
 * A web application with "Code" and the authentication method "Basic" fits; for a refresh
 * token, add `offline_access` to the scope.
 */
import type { Profile } from '../core/types/models.js';
import type { OIDCConfig, OAuthUserConfig } from '../core/types/provider.js';

/** The ID token's claims with `openid profile email` (https://zitadel.com/docs/apis/openidoauth/claims). */
export interface ZitadelProfile extends Profile {
	iss: string;
	aud: string[] | string;
	iat: number;
	exp: number;
	azp?: string;
	amr?: string[];
	auth_time?: number;
	nonce?: string;
	at_hash?: string;
	c_hash?: string;
	sid?: string;
	/** The ZITADEL user id. */
	sub: string;
	name?: string;
	given_name?: string;
	family_name?: string;
	nickname?: string;
	preferred_username?: string;
	gender?: string;
	locale?: string | null;
	picture?: string;
	updated_at?: number;
	email?: string;
	email_verified?: boolean;
	'urn:zitadel:iam:org:project:roles'?: Record<string, Record<string, string>>;
	'urn:zitadel:iam:user:resourceowner:id'?: string;
	'urn:zitadel:iam:user:resourceowner:name'?: string;
	'urn:zitadel:iam:user:resourceowner:primary_domain'?: string;
}

export default function Zitadel<P extends ZitadelProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
	return {
		id: 'zitadel',
		name: 'ZITADEL',
		type: 'oidc',
		issuer: options.issuer,
		authorization: { params: { scope: 'openid profile email' } },
		// No profile(): the default mapping (sub, name, email, picture) is this provider's.
		// ZITADEL has no brand colour for buttons in simple-icons; a neutral dark one.
		style: { bg: '#17181A', text: '#fff' },
		options
	};
}
