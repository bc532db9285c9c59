/**
 * Patreon (OAuth 2, API v2).
 *
 * ```ts
 * import Patreon from 'kitauth/providers/patreon';
 * SvelteKitAuth({ providers: [Patreon] }); // reads AUTH_PATREON_ID and AUTH_PATREON_SECRET
 * ```
 * Callback URL to register (the client's "Redirect URIs"): `<origin>/auth/callback/patreon`.
 */
import type { Profile } from '../core/types/models.js';
import type { OAuthConfig, OAuthUserConfig } from '../core/types/provider.js';

/**
 * `GET /api/oauth2/v2/identity` (https://docs.patreon.com/#get-api-oauth2-v2-identity), a JSON:API
 * document: the user is `data`, its fields under `attributes`. `profile()` receives the whole body.
 */
export interface PatreonProfile extends Profile {
	data: {
		id: string;
		type: 'user';
		attributes: {
			/** Needs the `identity[email]` scope. */
			email?: string;
			is_email_verified?: boolean;
			full_name?: string;
			first_name?: string;
			last_name?: string;
			vanity?: string | null;
			image_url?: string;
			thumb_url?: string;
			url?: string;
			created?: string;
		};
	};
	links?: { self: string };
}

export default function Patreon<P extends PatreonProfile>(options: OAuthUserConfig<P> = {}): OAuthConfig<P> {
	return {
		id: 'patreon',
		name: 'Patreon',
		type: 'oauth',
		authorization: { url: 'https://www.patreon.com/oauth2/authorize', params: { scope: 'identity identity[email]' } },
		token: 'https://www.patreon.com/api/oauth2/token',
		userinfo: {
			url: 'https://www.patreon.com/api/oauth2/v2/identity',
			// API v2 answers only the fields asked for.
			params: { 'fields[user]': 'email,is_email_verified,full_name,image_url' }
		},
		profile({ data: user }) {
			const { attributes } = user;
			return {
				id: user.id,
				name: attributes.full_name ?? null,
				// An address Patreon has not verified must never name the user.
				email: attributes.email && attributes.is_email_verified === true ? attributes.email : null,
				image: attributes.image_url ?? null
			};
		},
		style: { bg: '#000', text: '#fff' },
		options
	};
}
