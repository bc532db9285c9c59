/**
 * Google (OpenID Connect; endpoints come from discovery).
 *
 * ```ts
 * import Google from 'kitauth/providers/google';
 * SvelteKitAuth({ providers: [Google] }); // reads AUTH_GOOGLE_ID and AUTH_GOOGLE_SECRET
 * ```
 * Callback URL to register: `<origin>/auth/callback/google`.
 * For a refresh token, ask for offline access: `Google({ authorization: { params: { access_type: 'offline', prompt: 'consent' } } })`.
 */
import type { Profile } from '../core/types/models.js';
import type { OIDCConfig, OAuthUserConfig } from '../core/types/provider.js';

/** The ID token's claims (https://developers.google.com/identity/openid-connect/openid-connect#an-id-tokens-payload). */
export interface GoogleProfile extends Profile {
	iss: string;
	azp: string;
	aud: string;
	sub: string;
	iat: number;
	exp: number;
	at_hash?: string;
	nonce?: string;
	/** The Google Workspace domain, for Workspace accounts. */
	hd?: string;
	email: string;
	email_verified: boolean;
	name: string;
	given_name?: string;
	family_name?: string;
	picture: string;
	locale?: string;
}

export default function Google<P extends GoogleProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
	return {
		id: 'google',
		name: 'Google',
		type: 'oidc',
		issuer: 'https://accounts.google.com',
		authorization: { params: { scope: 'openid profile email' } },
		// No profile(): the default mapping (sub, name, email, picture) is this provider's.
		// Google's sign-in branding: a white button with dark text.
		style: { bg: '#fff', text: '#1f1f1f' },
		options
	};
}
