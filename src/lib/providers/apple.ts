/**
 * Sign in with Apple (OpenID Connect). `clientId` is your Services ID; `clientSecret` is the JWT
 * you sign with your Apple key (it expires after at most six months).
 *
 * ```ts
 * import Apple from 'kitauth/providers/apple';
 * SvelteKitAuth({ providers: [Apple] }); // reads AUTH_APPLE_ID and AUTH_APPLE_SECRET
 * ```
 * Callback URL to register ("Return URLs", https only): `<origin>/auth/callback/apple`.
 *
 * Apple answers with `response_mode=form_post`: its page POSTs to that callback from
 * `https://appleid.apple.com`, a cross-site form POST that SvelteKit refuses (403) before kitauth's
 * handle runs unless the origin is trusted. SvelteKit 3, in vite.config.ts:
 * `sveltekit({ csrf: { trustedOrigins: ['https://appleid.apple.com'] } })`; SvelteKit 2.36 or
 * later, in svelte.config.js: `kit: { csrf: { trustedOrigins: ['https://appleid.apple.com'] } }`.
 * kitauth checks this at the first request and logs a warning when it is missing.
 */
import type { Profile } from '../core/types/models.js';
import type { OIDCConfig, OAuthUserConfig } from '../core/types/provider.js';

/**
 * The ID token's claims (https://developer.apple.com/documentation/signinwithapple/authenticating-users-with-sign-in-with-apple).
 * Apple may send `email_verified` as the string `"true"` instead of a boolean.
 */
export interface AppleProfile extends Profile {
	iss: 'https://appleid.apple.com';
	aud: string;
	iat: number;
	exp: number;
	sub: string;
	nonce?: string;
	nonce_supported?: boolean;
	c_hash?: string;
	at_hash?: string;
	auth_time?: number;
	/** A private relay address (`…@privaterelay.appleid.com`) when the user hides theirs. */
	email?: string;
	is_private_email?: boolean | 'true' | 'false';
	/** 0 unsupported, 1 unknown, 2 likely real. */
	real_user_status?: 0 | 1 | 2;
	transfer_sub?: string;
	/** Not a claim: the `user` form field Apple posts on the first consent only (Auth.js adds it the same way). */
	user?: AppleUser;
}

/** The `user` JSON Apple posts to the callback the first time the user consents. */
export interface AppleUser {
	name?: { firstName?: string; lastName?: string };
	email?: string;
}

export default function Apple<P extends AppleProfile>(options: OAuthUserConfig<P> = {}): OIDCConfig<P> {
	return {
		id: 'apple',
		name: 'Apple',
		type: 'oidc',
		issuer: 'https://appleid.apple.com',
		authorization: {
			params: {
				// Apple's scopes; `openid` is implied. Asking for name or email requires form_post.
				scope: 'name email',
				response_mode: 'form_post'
			}
		},
		// Apple accepts the secret only in the body.
		client: { token_endpoint_auth_method: 'client_secret_post' },
		// Apple honours PKCE; state protects the cross-site form_post callback as well.
		checks: ['pkce', 'state', 'nonce'],
		profile(profile) {
			const fullName = [profile.user?.name?.firstName, profile.user?.name?.lastName]
				.filter((part): part is string => !!part)
				.join(' ');
			return {
				id: profile.sub,
				// Apple tells the name only once; like Auth.js, fall back to the email after that.
				name: fullName || profile.email || null,
				email: profile.email ?? null,
				// Apple has no profile pictures.
				image: null
			};
		},
		style: { bg: '#000', text: '#fff' },
		options
	};
}
