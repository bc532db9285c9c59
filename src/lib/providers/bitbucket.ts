/**
 * Bitbucket Cloud (OAuth 2, an OAuth consumer).
 *
 * ```ts
 * import Bitbucket from 'kitauth/providers/bitbucket';
 * SvelteKitAuth({ providers: [Bitbucket] }); // reads AUTH_BITBUCKET_ID (Key) and AUTH_BITBUCKET_SECRET (Secret)
 * ```
 * Callback URL to register (the consumer's "Callback URL"): `<origin>/auth/callback/bitbucket`.
 * The consumer needs the Account: Email and Read permissions.
 */
import type { Profile } from '../core/types/models.js';
import type { EndpointSetting, OAuthConfig, OAuthUserConfig } from '../core/types/provider.js';

/** `GET /2.0/user` (https://developer.atlassian.com/cloud/bitbucket/rest/api-group-users/#api-user-get), with the email the preset adds. */
export interface BitbucketProfile extends Profile {
	/** The Atlassian account id. */
	account_id: string;
	/** `{…}`-wrapped UUID. */
	uuid: string;
	username?: string;
	nickname?: string;
	display_name: string;
	account_status?: string;
	type: 'user';
	created_on?: string;
	links: { avatar?: { href: string }; html?: { href: string }; self?: { href: string } };
	/** Not in `/2.0/user`: the primary confirmed address from `/2.0/user/emails`, or `null`. */
	email: string | null;
}

/** One entry of `GET /2.0/user/emails` (needs the `email` scope). */
export interface BitbucketEmail {
	email: string;
	is_primary: boolean;
	is_confirmed: boolean;
	type: 'email';
}

const API = 'https://api.bitbucket.org/2.0';

export default function Bitbucket<P extends BitbucketProfile>(options: OAuthUserConfig<P> = {}): OAuthConfig<P> {
	return {
		id: 'bitbucket',
		name: 'Bitbucket',
		type: 'oauth',
		authorization: { url: 'https://bitbucket.org/site/oauth2/authorize', params: { scope: 'account email' } },
		token: 'https://bitbucket.org/site/oauth2/access_token',
		userinfo: {
			url: `${API}/user`,
			async request({ tokens, provider, fetch }) {
				const headers = { Authorization: `Bearer ${tokens.access_token}`, Accept: 'application/json' };
				const url = endpointUrl(provider.userinfo) ?? `${API}/user`;
				const response = await fetch(url, { headers });
				if (!response.ok) throw new Error(`Bitbucket /2.0/user answered ${response.status}`);
				const user = (await response.json()) as Omit<BitbucketProfile, 'email'>;
				const email = await primaryConfirmedEmail(fetch, `${url}/emails`, headers);
				return { ...user, email } as P;
			}
		},
		profile(profile) {
			return {
				id: profile.account_id,
				name: profile.display_name ?? profile.username ?? null,
				email: profile.email ?? null,
				image: profile.links?.avatar?.href ?? null
			};
		},
		style: { bg: '#0052CC', text: '#fff' },
		options
	};
}

/**
 * The primary address, and only if Bitbucket has confirmed it: an unconfirmed address must never
 * name the user. `null` otherwise, also when the token lacks the `email` scope.
 */
async function primaryConfirmedEmail(
	fetch: typeof globalThis.fetch,
	url: string,
	headers: Record<string, string>
): Promise<string | null> {
	const response = await fetch(url, { headers });
	if (!response.ok) return null;
	const page: unknown = await response.json();
	const values = page && typeof page === 'object' ? (page as { values?: unknown }).values : undefined;
	if (!Array.isArray(values)) return null;
	const primary = (values as Partial<BitbucketEmail>[]).find((entry) => entry?.is_primary === true && entry.is_confirmed === true);
	return typeof primary?.email === 'string' ? primary.email : null;
}

function endpointUrl(setting: EndpointSetting | undefined): string | undefined {
	return typeof setting === 'string' ? setting : setting?.url;
}
