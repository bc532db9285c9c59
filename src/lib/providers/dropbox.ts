/**
 * Dropbox (OAuth 2).
 *
 * ```ts
 * import Dropbox from 'kitauth/providers/dropbox';
 * SvelteKitAuth({ providers: [Dropbox] }); // reads AUTH_DROPBOX_ID (App key) and AUTH_DROPBOX_SECRET (App secret)
 * ```
 * Callback URL to register ("Redirect URIs"): `<origin>/auth/callback/dropbox`. The app needs the
 * `account_info.read` permission.
 */
import type { Profile } from '../core/types/models.js';
import type { EndpointSetting, OAuthConfig, OAuthUserConfig } from '../core/types/provider.js';

/**
 * `POST /2/users/get_current_account` (https://www.dropbox.com/developers/documentation/http/documentation#users-get_current_account),
 * main fields. Dropbox's `name` is an object; the preset hands it on as `name_details` and makes
 * `name` its display name, as kitauth's `Profile.name` (the OpenID claim) is a string.
 */
export interface DropboxProfile extends Profile {
	/** `dbid:…` */
	account_id: string;
	/** `name_details.display_name`. */
	name: string;
	name_details: DropboxName;
	email: string;
	email_verified: boolean;
	disabled: boolean;
	/** Absent when the user has no photo. */
	profile_photo_url?: string;
	locale?: string;
	referral_link?: string;
	is_paired?: boolean;
	country?: string;
	account_type?: { '.tag': 'basic' | 'pro' | 'business' };
	root_info?: { '.tag': string; root_namespace_id: string; home_namespace_id: string };
}

export interface DropboxName {
	given_name: string;
	surname: string;
	familiar_name: string;
	display_name: string;
	abbreviated_name: string;
}

const CURRENT_ACCOUNT = 'https://api.dropboxapi.com/2/users/get_current_account';

export default function Dropbox<P extends DropboxProfile>(options: OAuthUserConfig<P> = {}): OAuthConfig<P> {
	return {
		id: 'dropbox',
		name: 'Dropbox',
		type: 'oauth',
		authorization: {
			url: 'https://www.dropbox.com/oauth2/authorize',
			// `offline`: a refresh token besides the short-lived access token (Dropbox's default is `online`).
			params: { scope: 'account_info.read', token_access_type: 'offline' }
		},
		token: 'https://api.dropboxapi.com/oauth2/token',
		userinfo: {
			url: CURRENT_ACCOUNT,
			// An RPC endpoint: POST, and no body for a call without arguments.
			async request({ tokens, provider, fetch }) {
				const response = await fetch(endpointUrl(provider.userinfo) ?? CURRENT_ACCOUNT, {
					method: 'POST',
					headers: { Authorization: `Bearer ${tokens.access_token}` }
				});
				if (!response.ok) throw new Error(`Dropbox get_current_account answered ${response.status}`);
				const { name, ...account } = (await response.json()) as Omit<DropboxProfile, 'name' | 'name_details'> & { name?: DropboxName };
				return { ...account, name: name?.display_name ?? '', name_details: name } as P;
			}
		},
		profile(profile) {
			return {
				id: profile.account_id,
				name: profile.name || null,
				email: profile.email ?? null,
				image: profile.profile_photo_url ?? null
			};
		},
		style: { bg: '#0061FF', text: '#fff' },
		options
	};
}

function endpointUrl(setting: EndpointSetting | undefined): string | undefined {
	return typeof setting === 'string' ? setting : setting?.url;
}
