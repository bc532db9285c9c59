/**
 * WorkOS (SSO through WorkOS: SAML and OIDC connections of your customers, as OAuth 2).
 *
 * ```ts
 * import WorkOS from 'kitauth/providers/workos';
 * // reads AUTH_WORKOS_ID (Client ID) and AUTH_WORKOS_SECRET (API key)
 * SvelteKitAuth({ providers: [WorkOS({ connection: 'conn_01E4ZCR3C56J083X43JQXF3JK5' })] });
 * // or per sign-in: signIn('workos', {}, { organization: 'org_…' })
 * ```
 * Callback URL to register (Redirects → "Redirect URIs"): `<origin>/auth/callback/workos`.
 * WorkOS needs one of `connection`, `organization` or `provider` on the authorization request.
 */
import type { Profile } from '../core/types/models.js';
import type { OAuthConfig, OAuthUserConfig } from '../core/types/provider.js';

/** `GET /sso/profile` (https://workos.com/docs/reference/sso/profile/get-user-profile). */
export interface WorkOSProfile extends Profile {
	object: 'profile';
	/** `prof_…` */
	id: string;
	organization_id: string | null;
	connection_id: string;
	connection_type: string;
	idp_id: string;
	email: string;
	first_name: string | null;
	last_name: string | null;
	role?: { slug: string } | null;
	groups?: string[];
	custom_attributes?: Record<string, unknown>;
	raw_attributes: Record<string, unknown>;
}

export type WorkOSUserConfig<P extends WorkOSProfile> = OAuthUserConfig<P> & {
	/** WorkOS's API base, `https://api.workos.com/` by default (named `issuer` as in Auth.js). */
	issuer?: string;
	/** The connection to sign in with (`conn_…`), when there is one for every user. */
	connection?: string;
};

export default function WorkOS<P extends WorkOSProfile>(options: WorkOSUserConfig<P> = {}): OAuthConfig<P> {
	const { connection, ...rest } = options;
	const base = (options.issuer ?? 'https://api.workos.com/').replace(/\/*$/, '/');
	return {
		id: 'workos',
		name: 'WorkOS',
		type: 'oauth',
		authorization: { url: `${base}sso/authorize`, params: connection ? { connection } : {} },
		token: `${base}sso/token`,
		// WorkOS takes the client secret (the API key) only in the body.
		client: { token_endpoint_auth_method: 'client_secret_post' },
		userinfo: `${base}sso/profile`,
		profile(profile) {
			const fullName = [profile.first_name, profile.last_name].filter((part) => !!part).join(' ');
			const picture = profile.raw_attributes?.picture;
			return {
				id: profile.id,
				name: fullName || null,
				email: profile.email ?? null,
				image: typeof picture === 'string' ? picture : null
			};
		},
		style: { bg: '#6363F1', text: '#fff' },
		// `issuer` names the API base here, not an OpenID issuer: it stays out of the provider.
		options: { ...rest, issuer: undefined }
	};
}
