/**
 * Salesforce (OpenID Connect), production orgs by default.
 *
 * ```ts
 * import Salesforce from 'kitauth/providers/salesforce';
 * SvelteKitAuth({ providers: [Salesforce] }); // reads AUTH_SALESFORCE_ID and AUTH_SALESFORCE_SECRET
 * // A sandbox, or your My Domain: AUTH_SALESFORCE_ISSUER=https://test.salesforce.com
 * ```
 * Callback URL to register (the connected or external client app's "Callback URL"):
 * `<origin>/auth/callback/salesforce`.
 */
import type { Profile } from '../core/types/models.js';
import type { OIDCConfig, OAuthUserConfig } from '../core/types/provider.js';

/** The userinfo response (https://help.salesforce.com/s/articleView?id=sf.remoteaccess_using_userinfo_endpoint.htm), main fields. */
export interface SalesforceProfile extends Profile {
	/** The identity URL, `https://login.salesforce.com/id/<org id>/<user id>`. */
	sub: string;
	user_id: string;
	organization_id: string;
	name?: string;
	given_name?: string;
	family_name?: string;
	preferred_username?: string;
	nickname?: string;
	email?: string;
	email_verified?: boolean;
	/** The profile photo; Salesforce serves it only with the access token. */
	picture?: string;
	zoneinfo?: string;
	locale?: string;
	user_type?: string;
	active?: boolean;
	updated_at?: string;
}

export default function Salesforce<P extends SalesforceProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
	return {
		id: 'salesforce',
		name: 'Salesforce',
		type: 'oidc',
		issuer: 'https://login.salesforce.com',
		authorization: { params: { scope: 'openid profile email' } },
		// No profile(): the default mapping (sub, name, email, picture) is this provider's.
		// Salesforce's ID token carries few claims: the profile comes from userinfo (as in Auth.js).
		idToken: false,
		// Salesforce Lightning blue; the lighter logo blue is too light for white text.
		style: { bg: '#0176D3', text: '#fff' },
		options
	};
}
