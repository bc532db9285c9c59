/**
 * Kakao Login (OAuth 2).
 *
 * ```ts
 * import Kakao from 'kitauth/providers/kakao';
 * SvelteKitAuth({ providers: [Kakao] }); // reads AUTH_KAKAO_ID (REST API key) and AUTH_KAKAO_SECRET (Client secret)
 * ```
 * Callback URL to register (Kakao Login → "Redirect URI"): `<origin>/auth/callback/kakao`.
 * What the user is asked to share (nickname, profile image, email) is set in the app's consent
 * items, not by a scope.
 */
import type { Profile } from '../core/types/models.js';
import type { EndpointSetting, OAuthConfig, OAuthUserConfig } from '../core/types/provider.js';

/** `GET /v2/user/me` (https://developers.kakao.com/docs/latest/en/kakaologin/rest-api#req-user-info), main fields. */
export interface KakaoProfile extends Profile {
	/** A number in Kakao's JSON; the preset hands it on as a string, as kitauth's `Profile.id` is. */
	id: string;
	connected_at?: string;
	properties?: { nickname?: string; profile_image?: string; thumbnail_image?: string };
	kakao_account?: KakaoAccount;
}

export interface KakaoAccount {
	profile_needs_agreement?: boolean;
	profile?: {
		nickname?: string;
		thumbnail_image_url?: string;
		profile_image_url?: string;
		/** `true` when the image is Kakao's default one, not the user's. */
		is_default_image?: boolean;
		is_default_nickname?: boolean;
	};
	email_needs_agreement?: boolean;
	is_email_valid?: boolean;
	is_email_verified?: boolean;
	email?: string;
	name?: string;
	age_range?: string;
	birthday?: string;
	gender?: 'female' | 'male';
	phone_number?: string;
}

const USER_ME = 'https://kapi.kakao.com/v2/user/me';

export default function Kakao<P extends KakaoProfile>(options: OAuthUserConfig<P> = {}): OAuthConfig<P> {
	return {
		id: 'kakao',
		name: 'Kakao',
		type: 'oauth',
		authorization: 'https://kauth.kakao.com/oauth/authorize',
		token: 'https://kauth.kakao.com/oauth/token',
		// Kakao takes the client secret only in the body.
		client: { token_endpoint_auth_method: 'client_secret_post' },
		userinfo: {
			url: USER_ME,
			async request({ tokens, provider, fetch }) {
				const response = await fetch(endpointUrl(provider.userinfo) ?? USER_ME, {
					headers: { Authorization: `Bearer ${tokens.access_token}` }
				});
				if (!response.ok) throw new Error(`Kakao /v2/user/me answered ${response.status}`);
				const user = (await response.json()) as Omit<KakaoProfile, 'id'> & { id: unknown };
				if (typeof user.id !== 'number' && typeof user.id !== 'string') throw new Error('Kakao /v2/user/me has no id');
				return { ...user, id: String(user.id) } as P;
			}
		},
		profile(profile) {
			const account = profile.kakao_account;
			return {
				id: String(profile.id),
				name: account?.profile?.nickname ?? profile.properties?.nickname ?? null,
				// An address Kakao marks invalid (expired) or unverified must never name the user.
				email: account?.email && account.is_email_valid === true && account.is_email_verified === true ? account.email : null,
				image: account?.profile?.profile_image_url && !account.profile.is_default_image ? account.profile.profile_image_url : null
			};
		},
		// Kakao yellow is too light for white text.
		style: { bg: '#FFCD00', text: '#000' },
		options
	};
}

function endpointUrl(setting: EndpointSetting | undefined): string | undefined {
	return typeof setting === 'string' ? setting : setting?.url;
}
