/**
 * VK (OAuth 2 at oauth.vk.com, VK API).
 *
 * ```ts
 * import VK from 'kitauth/providers/vk';
 * SvelteKitAuth({ providers: [VK] }); // reads AUTH_VK_ID (App ID) and AUTH_VK_SECRET (Secure key)
 * ```
 * Callback URL to register ("Authorized redirect URI"): `<origin>/auth/callback/vk`.
 */
import { tokenRequestBody, withJsonBody, wrapAppFetch } from '../core/providers/custom-fetch.js';
import type { Profile } from '../core/types/models.js';
import type { EndpointSetting, OAuthConfig, OAuthUserConfig } from '../core/types/provider.js';

/** The VK API version every request names (https://dev.vk.com/en/reference/versions). */
export const VK_API_VERSION = '5.131';

/**
 * One user of `users.get` (https://dev.vk.com/en/method/users.get), with the email the token
 * response carried (VK tells the email there, not in the API).
 */
export interface VKProfile extends Profile {
	/** A number in VK's JSON; the preset hands it on as a string, as kitauth's `Profile.id` is. */
	id: string;
	first_name: string;
	last_name: string;
	/** 100×100; a stub picture (`camera_100.png`) when the user has none. */
	photo_100?: string;
	can_access_closed?: boolean;
	is_closed?: boolean;
	deactivated?: 'deleted' | 'banned';
	/** From the token response; needs the `email` scope. */
	email: string | null;
}

const USERS_GET = 'https://api.vk.com/method/users.get';

export default function VK<P extends VKProfile>(options: OAuthUserConfig<P> = {}): OAuthConfig<P> {
	const { fetch, options: rest } = wrapAppFetch(options, withTokenType);
	return {
		id: 'vk',
		name: 'VK',
		type: 'oauth',
		authorization: {
			url: 'https://oauth.vk.com/authorize',
			params: { scope: 'email', v: VK_API_VERSION }
		},
		token: `https://oauth.vk.com/access_token?v=${VK_API_VERSION}`,
		client: { token_endpoint_auth_method: 'client_secret_post' },
		userinfo: {
			url: USERS_GET,
			async request({ tokens, provider, fetch }) {
				const url = new URL(endpointUrl(provider.userinfo) ?? USERS_GET);
				url.searchParams.set('fields', 'photo_100');
				url.searchParams.set('v', VK_API_VERSION);
				const response = await fetch(url, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
				if (!response.ok) throw new Error(`VK users.get answered ${response.status}`);
				// The VK API answers errors with 200 and `{ error: {…} }`.
				const body = (await response.json()) as { response?: (Omit<VKProfile, 'id' | 'email'> & { id: unknown })[]; error?: { error_msg?: string } };
				const user = body.response?.[0];
				if (!user || (typeof user.id !== 'number' && typeof user.id !== 'string')) {
					throw new Error(`VK users.get has no user${body.error?.error_msg ? `: ${body.error.error_msg}` : ''}`);
				}
				const email = typeof tokens.email === 'string' && tokens.email ? tokens.email : null;
				return { ...user, id: String(user.id), email } as P;
			}
		},
		profile(profile) {
			return {
				id: String(profile.id),
				name: [profile.first_name, profile.last_name].filter((part) => !!part).join(' ') || null,
				email: profile.email ?? null,
				image: profile.photo_100 ?? null
			};
		},
		fetch,
		// VK's classic blue: today's #0077FF is too light for white text.
		style: { bg: '#4A76A8', text: '#fff' },
		options: rest
	};
}

/** VK's token response has no `token_type`, which OAuth 2 (and oauth4webapi) require: it is a bearer token. */
function withTokenType(inner: typeof globalThis.fetch): typeof globalThis.fetch {
	return async (input, init) => {
		const response = await inner(input, init);
		if (!tokenRequestBody(init) || !response.ok) return response;
		return withJsonBody(response, (body) =>
			typeof body.access_token === 'string' && body.token_type === undefined ? { ...body, token_type: 'bearer' } : body
		);
	};
}

function endpointUrl(setting: EndpointSetting | undefined): string | undefined {
	return typeof setting === 'string' ? setting : setting?.url;
}
