/**
 * Zoom (OAuth 2, a "General app" with user-managed authorization).
 *
 * ```ts
 * import Zoom from 'kitauth/providers/zoom';
 * SvelteKitAuth({ providers: [Zoom] }); // reads AUTH_ZOOM_ID and AUTH_ZOOM_SECRET
 * ```
 * Callback URL to register ("OAuth Redirect URL" and the OAuth allow list):
 * `<origin>/auth/callback/zoom`. The scopes are the app's (e.g. `user:read:user`): Zoom grants
 * those configured in the Marketplace, so the preset asks for none.
 */
import type { Profile } from '../core/types/models.js';
import type { OAuthConfig, OAuthUserConfig } from '../core/types/provider.js';

/** `GET /v2/users/me` (https://developers.zoom.us/docs/api/users/#tag/users/GET/users/{userId}), main fields. */
export interface ZoomProfile extends Profile {
	id: string;
	first_name: string;
	last_name: string;
	display_name?: string;
	email: string;
	/** 1 Basic, 2 Licensed, 4 Unassigned without Meetings Basic, 99 None. */
	type: number;
	role_name?: string;
	pmi?: number;
	use_pmi?: boolean;
	personal_meeting_url?: string;
	timezone?: string;
	verified?: number;
	dept?: string;
	created_at?: string;
	last_login_time?: string;
	last_client_version?: string;
	pic_url?: string;
	language?: string;
	phone_number?: string;
	status?: 'pending' | 'active' | 'inactive';
	role_id?: string;
	account_id?: string;
	account_number?: number;
	cluster?: string;
	user_created_at?: string;
}

export default function Zoom<P extends ZoomProfile>(options: OAuthUserConfig<P> = {}): OAuthConfig<P> {
	return {
		id: 'zoom',
		name: 'Zoom',
		type: 'oauth',
		authorization: 'https://zoom.us/oauth/authorize',
		token: 'https://zoom.us/oauth/token',
		userinfo: 'https://api.zoom.us/v2/users/me',
		profile(profile) {
			const fullName = [profile.first_name, profile.last_name].filter((part) => !!part).join(' ');
			return {
				id: profile.id,
				name: profile.display_name || fullName || null,
				email: profile.email ?? null,
				image: profile.pic_url ?? null
			};
		},
		style: { bg: '#0B5CFF', text: '#fff' },
		options
	};
}
