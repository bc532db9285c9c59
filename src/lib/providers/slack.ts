/**
 * Slack ("Sign in with Slack", OpenID Connect).
 *
 * ```ts
 * import Slack from 'kitauth/providers/slack';
 * SvelteKitAuth({ providers: [Slack] }); // reads AUTH_SLACK_ID and AUTH_SLACK_SECRET
 * ```
 * Callback URL to register (OAuth & Permissions → "Redirect URLs", https only):
 * `<origin>/auth/callback/slack`.
 */
import type { Profile } from '../core/types/models.js';
import type { OIDCConfig, OAuthUserConfig } from '../core/types/provider.js';

/** The ID token's claims (https://api.slack.com/authentication/sign-in-with-slack). */
export interface SlackProfile extends Profile {
	iss: 'https://slack.com';
	aud: string;
	iat: number;
	exp: number;
	auth_time?: number;
	nonce?: string;
	at_hash?: string;
	/** The user's id, e.g. `U0R7JM`. */
	sub: string;
	'https://slack.com/user_id': string;
	'https://slack.com/team_id': string;
	'https://slack.com/team_name'?: string;
	'https://slack.com/team_domain'?: string;
	'https://slack.com/team_image_230'?: string;
	'https://slack.com/user_image_512'?: string;
	email?: string;
	email_verified?: boolean;
	date_email_verified?: number;
	name?: string;
	given_name?: string;
	family_name?: string;
	picture?: string;
	locale?: string;
}

export default function Slack<P extends SlackProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
	return {
		id: 'slack',
		name: 'Slack',
		type: 'oidc',
		issuer: 'https://slack.com',
		authorization: { params: { scope: 'openid profile email' } },
		// No profile(): the default mapping (sub, name, email, picture) is this provider's.
		// Slack's OpenID flow does not do PKCE (Auth.js drops it too); state and nonce are used.
		checks: ['state', 'nonce'],
		style: { bg: '#4A154B', text: '#fff' },
		options
	};
}
