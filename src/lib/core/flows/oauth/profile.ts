import type { Account, Profile, TokenSet, User } from '../../types/models.js';
import type { OAuthConfig } from '../../types/provider.js';
import { OAuthProfileParseError } from '../../errors.js';

/** The default `profile()`: OIDC standard claims, with the usual fallbacks. */
function defaultProfile(profile: Profile): User & { id: string } {
	return {
		id: String(profile.sub ?? profile.id ?? ''),
		name: profile.name ?? profile.nickname ?? profile.preferred_username ?? null,
		email: profile.email ?? null,
		image: typeof profile.picture === 'string' ? profile.picture : null
	};
}

/** The default `account()`: the token fields worth keeping. */
function defaultAccount(tokens: TokenSet): Partial<Account> {
	const { access_token, id_token, refresh_token, expires_at, scope, token_type, session_state } = tokens;
	return Object.fromEntries(
		Object.entries({ access_token, id_token, refresh_token, expires_at, scope, token_type, session_state }).filter(
			([, value]) => value !== undefined
		)
	);
}

/** Token endpoint response → TokenSet: `expires_at` from `expires_in`, `token_type` lower-cased. */
export function tokenSet(response: Record<string, unknown>): TokenSet {
	const tokens: TokenSet = { ...response };
	if (typeof response.expires_in === 'number') tokens.expires_at = Math.floor(Date.now() / 1000) + response.expires_in;
	if (typeof response.token_type === 'string') tokens.token_type = response.token_type.toLowerCase();
	return tokens;
}

/** Maps what the provider said to a user and an account (the provider's hooks or the defaults). */
export async function userAndAccount(
	provider: OAuthConfig,
	profile: Profile,
	tokens: TokenSet
): Promise<{ user: User & { id: string }; account: Account }> {
	let user: User & { id: string };
	try {
		user = await (provider.profile ?? defaultProfile)(profile, tokens);
	} catch (error) {
		throw new OAuthProfileParseError(`profile() of "${provider.id}" failed`, { cause: error as Error });
	}
	const providerAccountId = user?.id === undefined || user.id === null ? '' : String(user.id);
	if (!providerAccountId) throw new OAuthProfileParseError(`Provider "${provider.id}" returned a profile without an id`);
	const picked = (provider.account ?? defaultAccount)(tokens) ?? {};
	const token_type = typeof picked.token_type === 'string' ? picked.token_type.toLowerCase() : undefined;
	return {
		user: { ...user, id: providerAccountId },
		account: { ...picked, ...(token_type ? { token_type } : {}), provider: provider.id, type: provider.type, providerAccountId }
	};
}
