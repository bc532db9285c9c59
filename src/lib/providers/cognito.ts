/**
 * Amazon Cognito user pools (OpenID Connect). The issuer is the user pool's and comes from the app.
 *
 * ```ts
 * import Cognito from 'kitauth/providers/cognito';
 * // reads AUTH_COGNITO_ID, AUTH_COGNITO_SECRET and AUTH_COGNITO_ISSUER
 * // (https://cognito-idp.<region>.amazonaws.com/<user pool id>)
 * SvelteKitAuth({ providers: [Cognito] });
 * ```
 * Callback URL to register (the app client's "Allowed callback URLs"): `<origin>/auth/callback/cognito`.
 * The app client needs a client secret and the `openid`, `profile` and `email` scopes.
 */
import type { Profile } from '../core/types/models.js';
import type { OIDCConfig, OAuthUserConfig } from '../core/types/provider.js';

/** The ID token's claims (https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-using-the-id-token.html). */
export interface CognitoProfile extends Profile {
	iss: string;
	aud: string;
	iat: number;
	exp: number;
	auth_time?: number;
	token_use: 'id';
	nonce?: string;
	at_hash?: string;
	/** The user's UUID in the pool. */
	sub: string;
	/** Always there, unlike `name`, which exists only where the pool has the attribute. */
	'cognito:username': string;
	'cognito:groups'?: string[];
	name?: string;
	given_name?: string;
	family_name?: string;
	preferred_username?: string;
	picture?: string;
	email?: string;
	email_verified?: boolean;
	phone_number?: string;
	phone_number_verified?: boolean;
	identities?: { providerName: string; providerType: string; userId: string; primary: string }[];
}

export default function Cognito<P extends CognitoProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
	return {
		id: 'cognito',
		name: 'Cognito',
		type: 'oidc',
		issuer: options.issuer,
		authorization: { params: { scope: 'openid profile email' } },
		profile(profile) {
			return {
				id: profile.sub,
				name: profile.name ?? profile.preferred_username ?? profile['cognito:username'] ?? null,
				email: profile.email ?? null,
				image: profile.picture ?? null
			};
		},
		// A red of AWS's security services, dark enough for white text.
		style: { bg: '#C7131F', text: '#fff' },
		options
	};
}
