/**
 * Atlassian (OAuth 2.0 "3LO" apps, for Jira, Confluence and the Atlassian account).
 *
 * ```ts
 * import Atlassian from 'kitauth/providers/atlassian';
 * SvelteKitAuth({ providers: [Atlassian] }); // reads AUTH_ATLASSIAN_ID and AUTH_ATLASSIAN_SECRET
 * ```
 * Callback URL to register (Authorization → OAuth 2.0 (3LO) → "Callback URL"):
 * `<origin>/auth/callback/atlassian`. The app needs the User identity API permission `read:me`.
 */
import type { Profile } from '../core/types/models.js';
import type { OAuthConfig, OAuthUserConfig } from '../core/types/provider.js';

/** `GET https://api.atlassian.com/me` (https://developer.atlassian.com/cloud/confluence/oauth-2-3lo-apps/#how-do-i-retrieve-the-public-profile-of-the-authenticated-user-). */
export interface AtlassianProfile extends Profile {
	account_id: string;
	account_type: 'atlassian' | 'app' | 'customer';
	account_status: 'active' | 'inactive' | 'closed';
	email?: string;
	email_verified?: boolean;
	name: string;
	nickname?: string;
	picture?: string;
	zoneinfo?: string;
	locale?: string;
	extended_profile?: { job_title?: string; organization?: string; department?: string; location?: string };
	last_updated?: string;
}

export default function Atlassian<P extends AtlassianProfile>(options: OAuthUserConfig<P> = {}): OAuthConfig<P> {
	return {
		id: 'atlassian',
		name: 'Atlassian',
		type: 'oauth',
		authorization: {
			url: 'https://auth.atlassian.com/authorize',
			// The audience is required; add offline_access to the scope for a refresh token.
			params: { audience: 'api.atlassian.com', scope: 'read:me' }
		},
		token: 'https://auth.atlassian.com/oauth/token',
		userinfo: 'https://api.atlassian.com/me',
		// Atlassian does not do PKCE for 3LO apps (Auth.js drops it too); state is always used.
		checks: ['state'],
		profile(profile) {
			return {
				id: profile.account_id,
				name: profile.name ?? profile.nickname ?? null,
				email: profile.email ?? null,
				image: profile.picture ?? null
			};
		},
		style: { bg: '#0052CC', text: '#fff' },
		options
	};
}
