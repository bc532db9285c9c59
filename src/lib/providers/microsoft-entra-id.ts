/**
 * Microsoft Entra ID, formerly Azure AD (OpenID Connect).
 *
 * ```ts
 * import MicrosoftEntraID from 'kitauth/providers/microsoft-entra-id';
 * // reads AUTH_MICROSOFT_ENTRA_ID_ID, _SECRET and _ISSUER; without an issuer, any work, school or
 * // personal account may sign in (the `common` endpoint). One tenant only:
 * // AUTH_MICROSOFT_ENTRA_ID_ISSUER=https://login.microsoftonline.com/<tenant id>/v2.0
 * SvelteKitAuth({ providers: [MicrosoftEntraID] });
 * ```
 * Callback URL to register (platform "Web"): `<origin>/auth/callback/microsoft-entra-id`.
 */
import type { Profile } from '../core/types/models.js';
import type { OIDCConfig, OAuthUserConfig } from '../core/types/provider.js';

/** The v2.0 ID token's claims (https://learn.microsoft.com/en-us/entra/identity-platform/id-token-claims-reference). */
export interface MicrosoftEntraIDProfile extends Profile {
	iss: string;
	aud: string;
	iat: number;
	nbf: number;
	exp: number;
	/** Pairwise: the same user has another `sub` in another app. */
	sub: string;
	/** The user's object id, the same in every app of the tenant. */
	oid: string;
	tid: string;
	ver: '2.0';
	nonce?: string;
	name?: string;
	/** Usually the sign-in name (UPN); not a verified email address. */
	preferred_username?: string;
	/** Only when the account has a mailbox or the optional claim is configured. */
	email?: string;
	login_hint?: string;
	sid?: string;
	uti?: string;
	rh?: string;
	aio?: string;
}

/** The multi-tenant endpoint, as Auth.js defaults to. */
export const ENTRA_COMMON_ISSUER = 'https://login.microsoftonline.com/common/v2.0';

export default function MicrosoftEntraID<P extends MicrosoftEntraIDProfile>(
	options: OAuthUserConfig<P> = {}
): OIDCConfig<P> {
	return {
		id: 'microsoft-entra-id',
		name: 'Microsoft Entra ID',
		type: 'oidc',
		issuer: options.issuer ?? ENTRA_COMMON_ISSUER,
		// User.Read lets the access token read the user's Microsoft Graph profile and photo.
		authorization: { params: { scope: 'openid profile email User.Read' } },
		// Discovery at a multi-tenant endpoint (`common`, `organizations`) names the issuer
		// `https://login.microsoftonline.com/{tenantid}/v2.0`; each ID token carries its own tenant's
		// issuer, filled in from its `tid` claim (a GUID) and checked against the same JWKS.
		issuerTemplate: { placeholder: '{tenantid}', claim: 'tid' },
		profile(profile) {
			return {
				id: profile.sub,
				name: profile.name ?? null,
				email: profile.email ?? null,
				// The photo is behind Microsoft Graph (`/me/photo/$value`), not in the ID token.
				image: null
			};
		},
		style: { bg: '#0072c6', text: '#fff' },
		options
	};
}
