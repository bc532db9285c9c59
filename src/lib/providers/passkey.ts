import type { WebAuthnConfig } from '../core/types/provider.js';
import WebAuthn, { type WebAuthnUserConfig } from './webauthn.js';

export type { WebAuthnConfig } from '../core/types/provider.js';
export type { WebAuthnUserConfig } from './webauthn.js';

/**
 * Sign in with passkeys: discoverable credentials (no username needed) with user verification
 * required, as Auth.js's `Passkey()`. Experimental: needs `experimental: { enableWebAuthn: true }`
 * and an adapter.
 *
 * ```ts
 * providers: [Passkey],                  // relying party = the site (its hostname and origin)
 * providers: [Passkey({ relayingParty: { id: 'example.com', name: 'Example', origin: 'https://example.com' } })]
 * ```
 */
export default function Passkey(config: WebAuthnUserConfig = {}): WebAuthnConfig {
	return WebAuthn({
		id: 'passkey',
		name: 'Passkey',
		...config,
		registrationOptions: {
			...config.registrationOptions,
			authenticatorSelection: {
				...config.registrationOptions?.authenticatorSelection,
				residentKey: 'required',
				userVerification: 'required'
			}
		},
		authenticationOptions: { ...config.authenticationOptions, userVerification: 'required' },
		verifyAuthenticationOptions: { ...config.verifyAuthenticationOptions, requireUserVerification: true },
		verifyRegistrationOptions: { ...config.verifyRegistrationOptions, requireUserVerification: true }
	});
}
