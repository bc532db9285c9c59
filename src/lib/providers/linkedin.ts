/**
 * LinkedIn ("Sign In with LinkedIn using OpenID Connect").
 *
 * ```ts
 * import LinkedIn from 'kitauth/providers/linkedin';
 * SvelteKitAuth({ providers: [LinkedIn] }); // reads AUTH_LINKEDIN_ID and AUTH_LINKEDIN_SECRET
 * ```
 * Callback URL to register (Auth → "Authorized redirect URLs for your app"):
 * `<origin>/auth/callback/linkedin`. The app needs the "Sign In with LinkedIn using OpenID
 * Connect" product.
 */
import type { Profile } from '../core/types/models.js';
import type { OIDCConfig, OAuthUserConfig } from '../core/types/provider.js';

/** The ID token's claims (https://learn.microsoft.com/en-us/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2). */
export interface LinkedInProfile extends Profile {
	iss: string;
	aud: string;
	iat: number;
	exp: number;
	sub: string;
	name: string;
	given_name: string;
	family_name: string;
	picture?: string;
	email?: string;
	email_verified?: boolean;
	locale?: string;
}

export default function LinkedIn<P extends LinkedInProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
	return {
		id: 'linkedin',
		name: 'LinkedIn',
		type: 'oidc',
		issuer: 'https://www.linkedin.com/oauth',
		authorization: { params: { scope: 'openid profile email' } },
		// No profile(): the default mapping (sub, name, email, picture) is this provider's.
		// LinkedIn takes the client secret only in the body.
		client: { token_endpoint_auth_method: 'client_secret_post' },
		// LinkedIn's web flow does not do PKCE (Auth.js drops it too); state is always used.
		checks: ['state'],
		style: { bg: '#0A66C2', text: '#fff' },
		options
	};
}
