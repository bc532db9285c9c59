/**
 * LINE Login v2.1 (OpenID Connect).
 *
 * ```ts
 * import LINE from 'kitauth/providers/line';
 * SvelteKitAuth({ providers: [LINE] }); // reads AUTH_LINE_ID (Channel ID) and AUTH_LINE_SECRET (Channel secret)
 * ```
 * Callback URL to register (the LINE Login channel's "Callback URL"): `<origin>/auth/callback/line`.
 * The email address needs the channel's "Email address permission" (applied for in the console).
 */
import type { Profile } from '../core/types/models.js';
import type { OIDCConfig, OAuthUserConfig } from '../core/types/provider.js';

/** The ID token's claims (https://developers.line.biz/en/docs/line-login/verify-id-token/#payload). */
export interface LINEProfile extends Profile {
	iss: 'https://access.line.me';
	/** The channel id. */
	aud: string;
	iat: number;
	exp: number;
	auth_time?: number;
	nonce?: string;
	amr?: string[];
	/** The user id, `U` followed by 32 hex digits. */
	sub: string;
	/** The display name; needs the `profile` scope. */
	name?: string;
	picture?: string;
	/** Needs the `email` scope and the channel's permission. */
	email?: string;
}

export default function LINE<P extends LINEProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
	return {
		id: 'line',
		name: 'LINE',
		type: 'oidc',
		issuer: 'https://access.line.me',
		authorization: { params: { scope: 'openid profile email' } },
		// No profile(): the default mapping (sub, name, email, picture) is this provider's.
		// LINE Login signs web ID tokens with the channel secret (HS256), which kitauth verifies.
		client: { id_token_signed_response_alg: 'HS256' },
		// LINE green is too light for white text.
		style: { bg: '#00C300', text: '#000' },
		options
	};
}
