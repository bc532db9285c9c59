import { deepMerge } from '../core/providers/normalize.js';
import type { WebAuthnConfig } from '../core/types/provider.js';

export type { RelyingPartyValue, WebAuthnConfig } from '../core/types/provider.js';

/** What an app passes to `WebAuthn()` / `Passkey()`: any field, nested settings merged. */
export type WebAuthnUserConfig = Partial<Omit<WebAuthnConfig, 'type'>>;

/**
 * Sign in with WebAuthn credentials, your own settings (for passkeys, use `Passkey`). Experimental,
 * as in Auth.js: needs `experimental: { enableWebAuthn: true }` and an adapter.
 *
 * ```ts
 * WebAuthn({
 *   relayingParty: { id: 'example.com', name: 'Example', origin: 'https://example.com' },
 *   registrationOptions: { authenticatorSelection: { authenticatorAttachment: 'cross-platform' } }
 * })
 * ```
 *
 * User verification is required when verifying unless `verify*Options.requireUserVerification`
 * is `false` (as with SimpleWebAuthn's own default).
 */
export default function WebAuthn(config: WebAuthnUserConfig = {}): WebAuthnConfig {
	const defaults: WebAuthnConfig = {
		id: 'webauthn',
		name: 'WebAuthn',
		type: 'webauthn',
		registrationOptions: { authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' } },
		authenticationOptions: { userVerification: 'preferred' },
		enableConditionalUI: true
	};
	return { ...(deepMerge({ ...defaults }, { ...config }) as unknown as WebAuthnConfig), type: 'webauthn' };
}
