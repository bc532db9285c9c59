/**
 * GitHub (OAuth 2, for OAuth Apps and GitHub Apps).
 *
 * ```ts
 * import GitHub from 'kitauth/providers/github';
 * SvelteKitAuth({ providers: [GitHub] }); // reads AUTH_GITHUB_ID and AUTH_GITHUB_SECRET
 * ```
 * Callback URL to register: `<origin>/auth/callback/github`.
 * GitHub Enterprise Server: `GitHub({ enterprise: { baseUrl: 'https://github.example.com' } })`.
 */
import type { Profile } from '../core/types/models.js';
import type { EndpointSetting, OAuthConfig, OAuthUserConfig } from '../core/types/provider.js';

/** `GET /user` (https://docs.github.com/en/rest/users/users#get-the-authenticated-user). */
export interface GitHubProfile extends Profile {
	/** A number in GitHub's JSON; the preset hands it on as a string, as kitauth's `Profile.id` is. */
	id: string;
	login: string;
	node_id: string;
	avatar_url: string;
	gravatar_id: string | null;
	url: string;
	html_url: string;
	type: string;
	site_admin: boolean;
	name: string | null;
	company: string | null;
	blog: string | null;
	location: string | null;
	/** The public email; `null` when the user keeps it private (then `/user/emails` is asked). */
	email: string | null;
	hireable: boolean | null;
	bio: string | null;
	twitter_username?: string | null;
	public_repos: number;
	public_gists: number;
	followers: number;
	following: number;
	created_at: string;
	updated_at: string;
}

/** One entry of `GET /user/emails` (needs the `user:email` scope). */
export interface GitHubEmail {
	email: string;
	primary: boolean;
	verified: boolean;
	visibility: 'public' | 'private' | null;
}

export type GitHubUserConfig<P extends GitHubProfile> = OAuthUserConfig<P> & {
	enterprise?: { baseUrl?: string };
};

export default function GitHub<P extends GitHubProfile>(
	options: GitHubUserConfig<P> = {}
): OAuthConfig<P> {
	const { enterprise, ...rest } = options;
	const baseUrl = enterprise?.baseUrl?.replace(/\/+$/, '') ?? 'https://github.com';
	const apiUrl = enterprise?.baseUrl ? `${baseUrl}/api/v3` : 'https://api.github.com';
	return {
		id: 'github',
		name: 'GitHub',
		type: 'oauth',
		// Not for discovery: GitHub names itself so in the callback's `iss` parameter (RFC 9207).
		issuer: `${baseUrl}/login/oauth`,
		authorization: {
			url: `${baseUrl}/login/oauth/authorize`,
			params: { scope: 'read:user user:email' }
		},
		token: `${baseUrl}/login/oauth/access_token`,
		userinfo: {
			url: `${apiUrl}/user`,
			async request({ tokens, provider, fetch }) {
				const headers = {
					Authorization: `Bearer ${tokens.access_token}`,
					Accept: 'application/vnd.github+json',
					// GitHub refuses API requests without a User-Agent.
					'User-Agent': 'kitauth'
				};
				const response = await fetch(endpointUrl(provider.userinfo) ?? `${apiUrl}/user`, { headers });
				if (!response.ok) throw new Error(`GitHub /user answered ${response.status}`);
				const user = (await response.json()) as Omit<GitHubProfile, 'id'> & { id: unknown };
				if (typeof user.id !== 'number' && typeof user.id !== 'string') {
					throw new Error('GitHub /user has no id');
				}
				const email = user.email || (await primaryVerifiedEmail(fetch, `${apiUrl}/user/emails`, headers));
				return { ...user, id: String(user.id), email } as P;
			}
		},
		profile(profile) {
			return {
				id: String(profile.id),
				name: profile.name ?? profile.login,
				email: profile.email,
				image: profile.avatar_url
			};
		},
		style: { bg: '#24292f', text: '#fff' },
		options: rest
	};
}

/**
 * The primary address, and only if GitHub has verified it: an unverified address must never name
 * the user (it could be someone else's, and email account linking trusts it). `null` otherwise,
 * also when the token lacks the `user:email` scope.
 */
async function primaryVerifiedEmail(
	fetch: typeof globalThis.fetch,
	url: string,
	headers: Record<string, string>
): Promise<string | null> {
	const response = await fetch(url, { headers });
	if (!response.ok) return null;
	const emails: unknown = await response.json();
	if (!Array.isArray(emails)) return null;
	const primary = (emails as Partial<GitHubEmail>[]).find((entry) => entry?.primary === true && entry.verified === true);
	return typeof primary?.email === 'string' ? primary.email : null;
}

function endpointUrl(setting: EndpointSetting | undefined): string | undefined {
	return typeof setting === 'string' ? setting : setting?.url;
}
