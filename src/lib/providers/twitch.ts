/**
 * Twitch (OpenID Connect).
 *
 * ```ts
 * import Twitch from 'kitauth/providers/twitch';
 * SvelteKitAuth({ providers: [Twitch] }); // reads AUTH_TWITCH_ID and AUTH_TWITCH_SECRET
 * ```
 * Callback URL to register ("OAuth Redirect URLs"): `<origin>/auth/callback/twitch`.
 */
import { tokenRequestBody, withJsonBody, wrapAppFetch } from '../core/providers/custom-fetch.js';
import type { Profile } from '../core/types/models.js';
import type { OIDCConfig, OAuthUserConfig } from '../core/types/provider.js';

/**
 * The ID token's claims (https://dev.twitch.tv/docs/authentication/getting-tokens-oidc), with the
 * optional claims the preset asks for. Twitch has no `name`: `preferred_username` is the display name.
 */
export interface TwitchProfile extends Profile {
	iss: 'https://id.twitch.tv/oauth2';
	aud: string;
	iat: number;
	exp: number;
	azp?: string;
	nonce?: string;
	/** The user's id. */
	sub: string;
	preferred_username?: string;
	email?: string;
	email_verified?: boolean;
	picture?: string;
	updated_at?: string;
}

export default function Twitch<P extends TwitchProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
	const { fetch, options: rest } = wrapAppFetch(options, scopeAsString);
	return {
		id: 'twitch',
		name: 'Twitch',
		type: 'oidc',
		issuer: 'https://id.twitch.tv/oauth2',
		authorization: {
			params: {
				scope: 'openid user:read:email',
				// Twitch puts these in the ID token only when asked by name.
				claims: { id_token: { email: null, picture: null, preferred_username: null } }
			}
		},
		// No profile(): the default mapping fits (its name falls back to `preferred_username`).
		client: { token_endpoint_auth_method: 'client_secret_post' },
		fetch,
		style: { bg: '#9146FF', text: '#fff' },
		options: rest
	};
}

/**
 * Twitch's token endpoint answers `scope` as an array; OAuth 2 (and oauth4webapi, which refuses
 * anything else) wants a space-separated string.
 */
function scopeAsString(inner: typeof globalThis.fetch): typeof globalThis.fetch {
	return async (input, init) => {
		const response = await inner(input, init);
		if (!tokenRequestBody(init)) return response;
		return withJsonBody(response, (body) => (Array.isArray(body.scope) ? { ...body, scope: body.scope.join(' ') } : body));
	};
}
