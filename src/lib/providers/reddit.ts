/**
 * Reddit (OAuth 2).
 *
 * ```ts
 * import Reddit from 'kitauth/providers/reddit';
 * SvelteKitAuth({ providers: [Reddit] }); // reads AUTH_REDDIT_ID and AUTH_REDDIT_SECRET
 * // A refresh token: Reddit({ authorization: { params: { duration: 'permanent' } } })
 * ```
 * Callback URL to register (the "web app"'s "redirect uri"): `<origin>/auth/callback/reddit`.
 */
import type { Profile } from '../core/types/models.js';
import type { EndpointSetting, OAuthConfig, OAuthUserConfig } from '../core/types/provider.js';

/** `GET /api/v1/me` (https://www.reddit.com/dev/api/#GET_api_v1_me), main fields. Reddit tells no email. */
export interface RedditProfile extends Profile {
	/** The account id without its `t2_` prefix. */
	id: string;
	/** The username, without `u/`. */
	name: string;
	/** HTML-escaped in Reddit's JSON (`&amp;`); the preset unescapes it. */
	icon_img?: string;
	snoovatar_img?: string;
	created_utc?: number;
	has_verified_email?: boolean;
	verified?: boolean;
	is_suspended?: boolean;
	over_18?: boolean;
	link_karma?: number;
	comment_karma?: number;
	total_karma?: number;
	subreddit?: { display_name_prefixed: string; public_description?: string; [field: string]: unknown } | null;
}

const ME = 'https://oauth.reddit.com/api/v1/me';

export default function Reddit<P extends RedditProfile>(options: OAuthUserConfig<P> = {}): OAuthConfig<P> {
	return {
		id: 'reddit',
		name: 'Reddit',
		type: 'oauth',
		authorization: {
			url: 'https://www.reddit.com/api/v1/authorize',
			// `duration` is required by Reddit: `temporary` (one hour, no refresh token) or `permanent`.
			params: { scope: 'identity', duration: 'temporary' }
		},
		token: 'https://www.reddit.com/api/v1/access_token',
		// Reddit authenticates the client with HTTP Basic only.
		client: { token_endpoint_auth_method: 'client_secret_basic' },
		userinfo: {
			url: ME,
			async request({ tokens, provider, fetch }) {
				const response = await fetch(endpointUrl(provider.userinfo) ?? ME, {
					headers: {
						Authorization: `Bearer ${tokens.access_token}`,
						// Reddit throttles or refuses requests with a generic User-Agent.
						'User-Agent': 'kitauth (sign-in)'
					}
				});
				if (!response.ok) throw new Error(`Reddit /api/v1/me answered ${response.status}`);
				return (await response.json()) as P;
			}
		},
		// Reddit does not do PKCE (Auth.js drops it too); state is always used.
		checks: ['state'],
		profile(profile) {
			return {
				id: profile.id,
				name: profile.name,
				email: null,
				image: profile.icon_img ? unescapeAmpersands(profile.icon_img) : null
			};
		},
		// Reddit orange is too light for white text.
		style: { bg: '#FF4500', text: '#000' },
		options
	};
}

/** Reddit's JSON carries image URLs HTML-escaped: `…png?width=256&amp;height=256`. */
function unescapeAmpersands(url: string): string {
	return url.replace(/&amp;/g, '&');
}

function endpointUrl(setting: EndpointSetting | undefined): string | undefined {
	return typeof setting === 'string' ? setting : setting?.url;
}
