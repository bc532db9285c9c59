/**
 * Spotify (OAuth 2).
 *
 * ```ts
 * import Spotify from 'kitauth/providers/spotify';
 * SvelteKitAuth({ providers: [Spotify] }); // reads AUTH_SPOTIFY_ID and AUTH_SPOTIFY_SECRET
 * ```
 * Callback URL to register ("Redirect URIs"): `<origin>/auth/callback/spotify`. Spotify accepts
 * plain http only for loopback addresses (`http://127.0.0.1:<port>`), not `localhost`.
 */
import type { Profile } from '../core/types/models.js';
import type { OAuthConfig, OAuthUserConfig } from '../core/types/provider.js';

/** `GET /v1/me` (https://developer.spotify.com/documentation/web-api/reference/get-current-users-profile). */
export interface SpotifyProfile extends Profile {
	/** The Spotify user id (a username for older accounts). */
	id: string;
	display_name: string | null;
	/** Needs the `user-read-email` scope; not verified by Spotify. */
	email?: string;
	/** Largest first; empty when the user has no picture. */
	images: SpotifyImage[];
	uri: string;
	href: string;
	external_urls: { spotify: string };
	followers?: { href: string | null; total: number };
	type: 'user';
	/** These three need the `user-read-private` scope. */
	country?: string;
	product?: string;
	explicit_content?: { filter_enabled: boolean; filter_locked: boolean };
}

export interface SpotifyImage {
	url: string;
	height: number | null;
	width: number | null;
}

export default function Spotify<P extends SpotifyProfile>(options: OAuthUserConfig<P> = {}): OAuthConfig<P> {
	return {
		id: 'spotify',
		name: 'Spotify',
		type: 'oauth',
		authorization: { url: 'https://accounts.spotify.com/authorize', params: { scope: 'user-read-email' } },
		token: 'https://accounts.spotify.com/api/token',
		userinfo: 'https://api.spotify.com/v1/me',
		profile(profile) {
			return {
				id: profile.id,
				name: profile.display_name ?? profile.id,
				email: profile.email ?? null,
				image: profile.images?.[0]?.url ?? null
			};
		},
		// Spotify green is too light for white text.
		style: { bg: '#1ED760', text: '#000' },
		options
	};
}
