/**
 * Any OAuth 2 provider, with its endpoints given explicitly (no discovery).
 *
 * ```ts
 * import OAuth from 'kitauth/providers/oauth';
 * OAuth<AcmeUser>({
 *   id: 'acme',
 *   name: 'Acme',
 *   authorization: { url: 'https://acme.test/oauth/authorize', params: { scope: 'user:read' } },
 *   token: 'https://acme.test/oauth/token',
 *   userinfo: 'https://api.acme.test/me',
 *   profile: (user) => ({ id: String(user.id), name: user.display_name, email: user.email, image: null })
 * });
 * ```
 * Callback URL to register: `<origin>/auth/callback/<id>`.
 * Without a `profile` hook, the standard claims are used: `sub` (else `id`), `name` (else
 * `nickname`, else `preferred_username`), `email` and `picture`. Without a scope, the flow asks for
 * `openid profile email`, which a plain OAuth 2 server may refuse: give `authorization.params.scope`.
 */
import type { Profile } from '../core/types/models.js';
import type { OAuthConfig, OAuthUserConfig } from '../core/types/provider.js';

/** Where to send the user, and where to get tokens; the profile comes from `userinfo`. */
export type OAuth2UserConfig<P extends Profile = Profile> = OAuthUserConfig<P> &
	Required<Pick<OAuthConfig<P>, 'id' | 'name' | 'authorization' | 'token' | 'userinfo'>>;

export default function OAuth<P extends Profile = Profile>(options: OAuth2UserConfig<P>): OAuthConfig<P> {
	return {
		id: options.id,
		name: options.name,
		type: 'oauth',
		authorization: options.authorization,
		token: options.token,
		userinfo: options.userinfo,
		options
	};
}
