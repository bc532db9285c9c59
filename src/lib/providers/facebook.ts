/**
 * Facebook Login (OAuth 2, Graph API).
 *
 * ```ts
 * import Facebook from 'kitauth/providers/facebook';
 * SvelteKitAuth({ providers: [Facebook] }); // reads AUTH_FACEBOOK_ID and AUTH_FACEBOOK_SECRET
 * ```
 * Callback URL to register ("Valid OAuth Redirect URIs"): `<origin>/auth/callback/facebook`.
 */
import type { Profile } from '../core/types/models.js';
import type { OAuthConfig, OAuthUserConfig } from '../core/types/provider.js';

/** The Graph API version of every endpoint; Meta keeps each one for about two years. */
export const FACEBOOK_GRAPH_VERSION = 'v23.0';

/** `GET /me?fields=id,name,email,picture` (https://developers.facebook.com/docs/graph-api/reference/user). */
export interface FacebookProfile extends Profile {
	/** App-scoped user id: another app sees another id for the same person. */
	id: string;
	name?: string;
	/** Only with the `email` permission, and only when the account has a confirmed address. */
	email?: string;
	picture?: { data: FacebookPicture };
}

export interface FacebookPicture {
	url: string;
	width?: number;
	height?: number;
	/** `true` when this is Facebook's default silhouette, not a photo of the user. */
	is_silhouette?: boolean;
}

export default function Facebook<P extends FacebookProfile>(options: OAuthUserConfig<P> = {}): OAuthConfig<P> {
	return {
		id: 'facebook',
		name: 'Facebook',
		type: 'oauth',
		authorization: {
			url: `https://www.facebook.com/${FACEBOOK_GRAPH_VERSION}/dialog/oauth`,
			params: { scope: 'email public_profile' }
		},
		token: `https://graph.facebook.com/${FACEBOOK_GRAPH_VERSION}/oauth/access_token`,
		userinfo: {
			url: `https://graph.facebook.com/${FACEBOOK_GRAPH_VERSION}/me`,
			// The Graph API answers only the fields asked for.
			params: { fields: 'id,name,email,picture' }
		},
		profile(profile) {
			const picture = profile.picture?.data;
			return {
				id: profile.id,
				name: profile.name ?? null,
				email: profile.email ?? null,
				// The silhouette is no photo of the user: leave the image empty instead.
				image: picture?.url && !picture.is_silhouette ? picture.url : null
			};
		},
		style: { bg: '#0866FF', text: '#fff' },
		options
	};
}
