/**
 * Notion (OAuth 2, public integrations).
 *
 * ```ts
 * import Notion from 'kitauth/providers/notion';
 * SvelteKitAuth({ providers: [Notion] }); // reads AUTH_NOTION_ID and AUTH_NOTION_SECRET
 * ```
 * Callback URL to register (the public integration's "Redirect URIs"): `<origin>/auth/callback/notion`.
 * Notion signs the user in through the workspace owner they authorize as: the profile is that user.
 */
import type { Profile } from '../core/types/models.js';
import type { EndpointSetting, OAuthConfig, OAuthUserConfig } from '../core/types/provider.js';

/**
 * A Notion person (https://developers.notion.com/reference/user): the owner of the bot that
 * `GET /v1/users/me` describes. `profile()` receives it.
 */
export interface NotionProfile extends Profile {
	object: 'user';
	/** A UUID. */
	id: string;
	type: 'person';
	name: string | null;
	avatar_url: string | null;
	/** `email` needs the integration's "Read user information including email addresses" capability. */
	person: { email?: string };
}

/** `GET /v1/users/me` with a user-authorized token: the bot, and the user who owns it. */
interface NotionBotUser {
	object: 'user';
	id: string;
	type: 'bot';
	bot?: { owner?: { type: 'user'; user?: unknown } | { type: 'workspace'; workspace: true }; workspace_name?: string | null };
}

const API = 'https://api.notion.com';
/** Notion requires a version header on every API request. */
export const NOTION_API_VERSION = '2022-06-28';

export default function Notion<P extends NotionProfile>(options: OAuthUserConfig<P> = {}): OAuthConfig<P> {
	return {
		id: 'notion',
		name: 'Notion',
		type: 'oauth',
		authorization: {
			url: `${API}/v1/oauth/authorize`,
			// The user (not the workspace) authorizes; Notion has no scopes, capabilities are the integration's.
			params: { owner: 'user' }
		},
		// Notion authenticates the client with HTTP Basic only.
		token: `${API}/v1/oauth/token`,
		client: { token_endpoint_auth_method: 'client_secret_basic' },
		userinfo: {
			url: `${API}/v1/users/me`,
			async request({ tokens, provider, fetch }) {
				const response = await fetch(endpointUrl(provider.userinfo) ?? `${API}/v1/users/me`, {
					headers: { Authorization: `Bearer ${tokens.access_token}`, 'Notion-Version': NOTION_API_VERSION }
				});
				if (!response.ok) throw new Error(`Notion /v1/users/me answered ${response.status}`);
				const bot = (await response.json()) as NotionBotUser;
				const owner = bot.bot?.owner;
				if (owner?.type !== 'user' || !isPerson(owner.user)) throw new Error('The Notion token is not owned by a user');
				return owner.user as P;
			}
		},
		profile(profile) {
			return {
				id: profile.id,
				name: profile.name,
				email: profile.person?.email ?? null,
				image: profile.avatar_url
			};
		},
		style: { bg: '#000', text: '#fff' },
		options
	};
}

function isPerson(user: unknown): user is NotionProfile {
	return !!user && typeof user === 'object' && typeof (user as { id?: unknown }).id === 'string';
}

function endpointUrl(setting: EndpointSetting | undefined): string | undefined {
	return typeof setting === 'string' ? setting : setting?.url;
}
