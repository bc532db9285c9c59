/**
 * Yandex ID (OAuth 2).
 *
 * ```ts
 * import Yandex from 'kitauth/providers/yandex';
 * SvelteKitAuth({ providers: [Yandex] }); // reads AUTH_YANDEX_ID and AUTH_YANDEX_SECRET
 * ```
 * Callback URL to register (the app's "Redirect URI"): `<origin>/auth/callback/yandex`.
 */
import type { Profile } from '../core/types/models.js';
import type { OAuthConfig, OAuthUserConfig } from '../core/types/provider.js';

/** `GET https://login.yandex.ru/info?format=json` (https://yandex.com/dev/id/doc/en/user-information). */
export interface YandexProfile extends Profile {
	/** Unique user id at Yandex. */
	id: string;
	login: string;
	/** Id of the app the token was issued for. */
	client_id: string;
	/** Authorized user id, formed by Yandex from the client_id and user id pair. */
	psuid: string;
	display_name?: string;
	first_name?: string;
	last_name?: string;
	/** First and last name as entered by the user; non-Latin characters in Unicode. */
	real_name?: string;
	/** `null`: unknown or unspecified; absent when not provided. */
	sex?: 'female' | 'male' | null;
	/** `YYYY-MM-DD`, unknown parts as zeros (`0000-MM-DD`); `null` if unknown. */
	birthday?: string | null;
	default_email?: string;
	/** Currently only the default email. */
	emails?: string[];
	/** Yandex may omit it at its discretion. */
	default_phone?: { id: number; number: string };
	/** Avatar URL form: `https://avatars.yandex.net/get-yapic/<default_avatar_id>/<size>`. */
	default_avatar_id?: string;
	/** `true` when `default_avatar_id` is the automatic stub picture. */
	is_avatar_empty?: boolean;
}

/** The avatar sizes Yandex serves (square, in pixels). */
export type YandexAvatarSize =
	| 'islands-small' // 28×28
	| 'islands-34' // 34×34
	| 'islands-middle' // 42×42
	| 'islands-50' // 50×50
	| 'islands-retina-small' // 56×56
	| 'islands-68' // 68×68
	| 'islands-75' // 75×75
	| 'islands-retina-middle' // 84×84
	| 'islands-retina-50' // 100×100
	| 'islands-200'; // 200×200

/** The URL of a Yandex avatar in one of its sizes. */
export function yandexAvatarUrl(avatarId: string, size: YandexAvatarSize = 'islands-200'): string {
	// Avatar ids look like `1234567/AbCdEf-1`: keep the slash, encode what is inside each part.
	const path = avatarId.split('/').map(encodeURIComponent).join('/');
	return `https://avatars.yandex.net/get-yapic/${path}/${size}`;
}

export default function Yandex<P extends YandexProfile>(options: OAuthUserConfig<P> = {}): OAuthConfig<P> {
	return {
		id: 'yandex',
		name: 'Yandex',
		type: 'oauth',
		// https://yandex.com/dev/id/doc/en/register-client#access: name, email and avatar.
		authorization: {
			url: 'https://oauth.yandex.ru/authorize',
			params: { scope: 'login:info login:email login:avatar' }
		},
		token: 'https://oauth.yandex.ru/token',
		userinfo: 'https://login.yandex.ru/info?format=json',
		profile(profile) {
			return {
				id: profile.id,
				name: profile.real_name ?? profile.display_name ?? profile.login,
				email: profile.default_email ?? profile.emails?.[0] ?? null,
				// The stub picture is no photo of the user: leave the image empty instead.
				image:
					profile.default_avatar_id && !profile.is_avatar_empty
						? yandexAvatarUrl(profile.default_avatar_id)
						: null
			};
		},
		style: { bg: '#ffcc00', text: '#000' },
		options
	};
}
