/**
 * Discord (OAuth 2).
 *
 * ```ts
 * import Discord from 'kitauth/providers/discord';
 * SvelteKitAuth({ providers: [Discord] }); // reads AUTH_DISCORD_ID and AUTH_DISCORD_SECRET
 * ```
 * Callback URL to register (OAuth2 → Redirects): `<origin>/auth/callback/discord`.
 */
import type { Profile } from '../core/types/models.js';
import type { OAuthConfig, OAuthUserConfig } from '../core/types/provider.js';

/** `GET /users/@me` (https://discord.com/developers/docs/resources/user#user-object). */
export interface DiscordProfile extends Profile {
	/** A snowflake: a 64-bit integer as a decimal string. */
	id: string;
	username: string;
	/** `"0"` for users on the new (unique) usernames; a four-digit tag for the others. */
	discriminator: string;
	global_name: string | null;
	/** Avatar hash; `null` when the user has none (a default avatar is shown); `a_…` when animated. */
	avatar: string | null;
	bot?: boolean;
	system?: boolean;
	mfa_enabled?: boolean;
	banner?: string | null;
	accent_color?: number | null;
	locale?: string;
	/** Whether the email is verified; both need the `email` scope. */
	verified?: boolean;
	email?: string | null;
	flags?: number;
	premium_type?: number;
	public_flags?: number;
}

const CDN = 'https://cdn.discordapp.com';

/** The user's avatar on Discord's CDN, or the default avatar Discord shows for users without one. */
export function discordAvatarUrl(user: Pick<DiscordProfile, 'id' | 'avatar' | 'discriminator'>): string {
	if (user.avatar) {
		const format = user.avatar.startsWith('a_') ? 'gif' : 'png';
		return `${CDN}/avatars/${user.id}/${user.avatar}.${format}`;
	}
	// https://discord.com/developers/docs/reference#image-formatting: new usernames pick one of six
	// defaults by `(id >> 22) % 6`, legacy tags one of five by `discriminator % 5`.
	const index =
		user.discriminator === '0' || !user.discriminator
			? /^\d+$/.test(user.id)
				? Number((BigInt(user.id) >> 22n) % 6n)
				: 0
			: (Number.parseInt(user.discriminator, 10) || 0) % 5;
	return `${CDN}/embed/avatars/${index}.png`;
}

export default function Discord<P extends DiscordProfile>(options: OAuthUserConfig<P> = {}): OAuthConfig<P> {
	return {
		id: 'discord',
		name: 'Discord',
		type: 'oauth',
		authorization: {
			url: 'https://discord.com/api/oauth2/authorize',
			params: { scope: 'identify email' }
		},
		token: 'https://discord.com/api/oauth2/token',
		userinfo: 'https://discord.com/api/users/@me',
		profile(profile) {
			return {
				id: profile.id,
				name: profile.global_name ?? profile.username,
				email: profile.email ?? null,
				image: discordAvatarUrl(profile)
			};
		},
		style: { bg: '#5865F2', text: '#fff' },
		options
	};
}
