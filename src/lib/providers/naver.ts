/**
 * Naver Login (OAuth 2).
 *
 * ```ts
 * import Naver from 'kitauth/providers/naver';
 * SvelteKitAuth({ providers: [Naver] }); // reads AUTH_NAVER_ID (Client ID) and AUTH_NAVER_SECRET (Client Secret)
 * ```
 * Callback URL to register ("Callback URL" of the application's 네아로 settings):
 * `<origin>/auth/callback/naver`. What the user shares is set in the application's provided
 * information, not by a scope.
 */
import type { Profile } from '../core/types/models.js';
import type { OAuthConfig, OAuthUserConfig } from '../core/types/provider.js';

/** `GET https://openapi.naver.com/v1/nid/me` (https://developers.naver.com/docs/login/profile/profile.md): the user is under `response`. */
export interface NaverProfile extends Profile {
	/** `"00"` on success. */
	resultcode: string;
	message: string;
	response: {
		/** Unique per application. */
		id: string;
		nickname?: string;
		name?: string;
		email?: string;
		gender?: 'F' | 'M' | 'U';
		age?: string;
		birthday?: string;
		birthyear?: string;
		profile_image?: string;
		mobile?: string;
	};
}

export default function Naver<P extends NaverProfile>(options: OAuthUserConfig<P> = {}): OAuthConfig<P> {
	return {
		id: 'naver',
		name: 'Naver',
		type: 'oauth',
		authorization: 'https://nid.naver.com/oauth2.0/authorize',
		token: 'https://nid.naver.com/oauth2.0/token',
		userinfo: 'https://openapi.naver.com/v1/nid/me',
		profile({ response: user }) {
			return {
				id: user.id,
				name: user.nickname ?? user.name ?? null,
				email: user.email ?? null,
				image: user.profile_image ?? null
			};
		},
		// Naver green is too light for white text.
		style: { bg: '#03C75A', text: '#000' },
		options
	};
}
