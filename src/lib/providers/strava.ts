/**
 * Strava (OAuth 2).
 *
 * ```ts
 * import Strava from 'kitauth/providers/strava';
 * SvelteKitAuth({ providers: [Strava] }); // reads AUTH_STRAVA_ID and AUTH_STRAVA_SECRET
 * ```
 * Callback URL: Strava checks only the host, against the application's "Authorization Callback
 * Domain" (e.g. `example.com`; `localhost` for development). kitauth sends
 * `<origin>/auth/callback/strava`. Strava tells no email address.
 */
import type { Profile } from '../core/types/models.js';
import type { EndpointSetting, OAuthConfig, OAuthUserConfig } from '../core/types/provider.js';

/** `GET /api/v3/athlete` (https://developers.strava.com/docs/reference/#api-Athletes-getLoggedInAthlete), main fields. */
export interface StravaProfile extends Profile {
	/** A number in Strava's JSON; the preset hands it on as a string, as kitauth's `Profile.id` is. */
	id: string;
	username?: string | null;
	firstname: string;
	lastname: string;
	/** 124×124; `avatar/athlete/large.png` when the athlete has no photo. */
	profile: string;
	profile_medium?: string;
	city?: string | null;
	state?: string | null;
	country?: string | null;
	sex?: 'M' | 'F' | null;
	premium?: boolean;
	summit?: boolean;
	created_at?: string;
	updated_at?: string;
}

const ATHLETE = 'https://www.strava.com/api/v3/athlete';

export default function Strava<P extends StravaProfile>(options: OAuthUserConfig<P> = {}): OAuthConfig<P> {
	return {
		id: 'strava',
		name: 'Strava',
		type: 'oauth',
		authorization: {
			url: 'https://www.strava.com/oauth/authorize',
			// `auto`: the consent screen only when the athlete has not authorized the app yet.
			params: { scope: 'read', approval_prompt: 'auto' }
		},
		token: 'https://www.strava.com/oauth/token',
		// Strava takes the client secret only in the body.
		client: { token_endpoint_auth_method: 'client_secret_post' },
		userinfo: {
			url: ATHLETE,
			async request({ tokens, provider, fetch }) {
				const response = await fetch(endpointUrl(provider.userinfo) ?? ATHLETE, {
					headers: { Authorization: `Bearer ${tokens.access_token}` }
				});
				if (!response.ok) throw new Error(`Strava /athlete answered ${response.status}`);
				const athlete = (await response.json()) as Omit<StravaProfile, 'id'> & { id: unknown };
				if (typeof athlete.id !== 'number' && typeof athlete.id !== 'string') throw new Error('Strava /athlete has no id');
				return { ...athlete, id: String(athlete.id) } as P;
			}
		},
		profile(profile) {
			const fullName = [profile.firstname, profile.lastname].filter((part) => !!part).join(' ');
			return {
				id: String(profile.id),
				name: fullName || profile.username || null,
				email: null,
				// Strava's placeholder (a relative `avatar/athlete/large.png`) is no photo of the athlete.
				image: profile.profile?.startsWith('https://') ? profile.profile : null
			};
		},
		// Strava orange is too light for white text.
		style: { bg: '#FC4C02', text: '#000' },
		options
	};
}

function endpointUrl(setting: EndpointSetting | undefined): string | undefined {
	return typeof setting === 'string' ? setting : setting?.url;
}
