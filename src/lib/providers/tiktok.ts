/**
 * TikTok Login Kit for Web (OAuth 2). TikTok calls the client id the "client key".
 *
 * ```ts
 * import TikTok from 'kitauth/providers/tiktok';
 * // reads AUTH_TIKTOK_ID (Client key) and AUTH_TIKTOK_SECRET (Client secret). Pass the preset
 * // uncalled as here, or call it with the clientId: the authorization URL needs the key.
 * SvelteKitAuth({ providers: [TikTok] });
 * ```
 * Callback URL to register (Login Kit → "Redirect URI", https only): `<origin>/auth/callback/tiktok`.
 * TikTok tells no email address.
 */
import { tokenRequestBody, wrapAppFetch } from '../core/providers/custom-fetch.js';
import type { Profile } from '../core/types/models.js';
import type { OAuthConfig, OAuthUserConfig } from '../core/types/provider.js';

/**
 * `GET /v2/user/info/` (https://developers.tiktok.com/doc/tiktok-api-v2-get-user-info): the user is
 * under `data.user`. `profile()` receives the whole body.
 */
export interface TikTokProfile extends Profile {
	data: {
		user: {
			/** Unique per app. */
			open_id: string;
			/** Unique per developer account. */
			union_id?: string;
			avatar_url?: string;
			avatar_url_100?: string;
			avatar_large_url?: string;
			display_name?: string;
			/** These need the `user.info.profile` scope. */
			bio_description?: string;
			profile_deep_link?: string;
			is_verified?: boolean;
			username?: string;
		};
	};
	error: { code: string; message: string; log_id: string };
}

export default function TikTok<P extends TikTokProfile>(options: OAuthUserConfig<P> = {}): OAuthConfig<P> {
	const { fetch, options: rest } = wrapAppFetch(options, withClientKey);
	return {
		id: 'tiktok',
		name: 'TikTok',
		type: 'oauth',
		authorization: {
			url: 'https://www.tiktok.com/v2/auth/authorize/',
			params: { client_key: options.clientId, scope: 'user.info.basic' }
		},
		token: 'https://open.tiktokapis.com/v2/oauth/token/',
		client: { token_endpoint_auth_method: 'client_secret_post' },
		userinfo: {
			url: 'https://open.tiktokapis.com/v2/user/info/',
			params: { fields: 'open_id,union_id,avatar_url,display_name' }
		},
		profile({ data }) {
			return {
				id: data.user.open_id,
				name: data.user.display_name ?? null,
				email: null,
				image: data.user.avatar_url ?? null
			};
		},
		fetch,
		style: { bg: '#000', text: '#fff' },
		options: rest
	};
}

/** TikTok's token endpoint wants the client id as `client_key` (also on refresh). */
function withClientKey(inner: typeof globalThis.fetch): typeof globalThis.fetch {
	return (input, init) => {
		const body = tokenRequestBody(init);
		const clientId = body?.get('client_id');
		if (!body || !clientId || body.has('client_key')) return inner(input, init);
		const withKey = new URLSearchParams(body);
		withKey.set('client_key', clientId);
		return inner(input, { ...init, body: withKey });
	};
}
