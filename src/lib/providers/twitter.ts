/**
 * X, formerly Twitter (OAuth 2 with PKCE). The id stays `twitter`, as in Auth.js, so env
 * variables, callback URLs and stored accounts carry over.
 *
 * ```ts
 * import Twitter from 'kitauth/providers/twitter';
 * SvelteKitAuth({ providers: [Twitter] }); // reads AUTH_TWITTER_ID and AUTH_TWITTER_SECRET
 * ```
 * Callback URL to register (User authentication settings → "Callback URI"):
 * `<origin>/auth/callback/twitter`. The app must be a confidential client ("Web App") with the
 * OAuth 2.0 client id and secret, not the API key of OAuth 1.0a.
 */
import type { Profile } from '../core/types/models.js';
import type { OAuthConfig, OAuthUserConfig } from '../core/types/provider.js';

/**
 * `GET /2/users/me` (https://docs.x.com/x-api/users/user-lookup-me): the user is under `data`.
 * `profile()` receives this whole body.
 */
export interface TwitterProfile extends Profile {
	data: TwitterUser;
}

export interface TwitterUser {
	id: string;
	/** The display name. */
	name: string;
	/** The handle, without `@`. */
	username: string;
	/** 48×48 (`…_normal.jpg`); only with `user.fields=profile_image_url`. */
	profile_image_url?: string;
	/** Only with the `users.email` scope and `user.fields=confirmed_email`. */
	confirmed_email?: string;
	[field: string]: unknown;
}

export default function Twitter<P extends TwitterProfile>(options: OAuthUserConfig<P> = {}): OAuthConfig<P> {
	return {
		id: 'twitter',
		name: 'X',
		type: 'oauth',
		authorization: {
			url: 'https://x.com/i/oauth2/authorize',
			// offline.access: a refresh token (X's access tokens last two hours).
			params: { scope: 'users.read tweet.read offline.access' }
		},
		token: 'https://api.x.com/2/oauth2/token',
		userinfo: { url: 'https://api.x.com/2/users/me', params: { 'user.fields': 'profile_image_url' } },
		// X requires PKCE; state is always used.
		checks: ['pkce', 'state'],
		profile({ data }) {
			return {
				id: data.id,
				name: data.name,
				email: data.confirmed_email ?? null,
				image: data.profile_image_url ?? null
			};
		},
		style: { bg: '#000', text: '#fff' },
		options
	};
}
