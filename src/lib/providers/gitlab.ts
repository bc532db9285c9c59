/**
 * GitLab (OAuth 2), gitlab.com or a self-managed instance.
 *
 * ```ts
 * import GitLab from 'kitauth/providers/gitlab';
 * SvelteKitAuth({ providers: [GitLab] }); // reads AUTH_GITLAB_ID and AUTH_GITLAB_SECRET
 * GitLab({ baseUrl: 'https://gitlab.example.com' }); // self-managed
 * ```
 * Callback URL to register (the application's "Redirect URI"): `<origin>/auth/callback/gitlab`.
 */
import type { Profile } from '../core/types/models.js';
import type { EndpointSetting, OAuthConfig, OAuthUserConfig } from '../core/types/provider.js';

/** `GET /api/v4/user` (https://docs.gitlab.com/api/users/#get-the-current-user), main fields. */
export interface GitLabProfile extends Profile {
	/** A number in GitLab's JSON; the preset hands it on as a string, as kitauth's `Profile.id` is. */
	id: string;
	username: string;
	name: string;
	state: string;
	avatar_url: string | null;
	web_url: string;
	email: string;
	public_email?: string | null;
	commit_email?: string;
	created_at: string;
	confirmed_at?: string | null;
	bio?: string;
	location?: string;
	organization?: string;
	job_title?: string;
	pronouns?: string | null;
	bot: boolean;
	locked?: boolean;
	two_factor_enabled?: boolean;
	external?: boolean;
	private_profile?: boolean;
	identities?: { provider: string; extern_uid: string }[];
}

export type GitLabUserConfig<P extends GitLabProfile> = OAuthUserConfig<P> & { baseUrl?: string | URL };

export default function GitLab<P extends GitLabProfile>(options: GitLabUserConfig<P> = {}): OAuthConfig<P> {
	const { baseUrl, ...rest } = options;
	const base = String(baseUrl ?? 'https://gitlab.com').replace(/\/+$/, '');
	return {
		id: 'gitlab',
		name: 'GitLab',
		type: 'oauth',
		authorization: { url: `${base}/oauth/authorize`, params: { scope: 'read_user' } },
		token: `${base}/oauth/token`,
		userinfo: {
			url: `${base}/api/v4/user`,
			async request({ tokens, provider, fetch }) {
				const url = endpointUrl(provider.userinfo) ?? `${base}/api/v4/user`;
				const response = await fetch(url, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
				if (!response.ok) throw new Error(`GitLab /api/v4/user answered ${response.status}`);
				const user = (await response.json()) as Omit<GitLabProfile, 'id'> & { id: unknown };
				if (typeof user.id !== 'number' && typeof user.id !== 'string') {
					throw new Error('GitLab /api/v4/user has no id');
				}
				return { ...user, id: String(user.id) } as P;
			}
		},
		profile(profile) {
			return {
				id: String(profile.id),
				name: profile.name || profile.username,
				email: profile.email ?? null,
				image: profile.avatar_url ?? null
			};
		},
		style: { bg: '#FC6D26', text: '#fff' },
		options: rest
	};
}

function endpointUrl(setting: EndpointSetting | undefined): string | undefined {
	return typeof setting === 'string' ? setting : setting?.url;
}
