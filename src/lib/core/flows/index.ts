import type { CredentialsConfig, EmailConfig, OAuthConfig, ProviderConfig, WebAuthnConfig } from '../types/provider.js';
import { credentialsFlow } from './credentials.js';
import { emailFlow } from './email/index.js';
import type { Flow } from './flow.js';
import { oauthFlow } from './oauth/index.js';
import { webauthnFlow } from './webauthn/index.js';

export type { CallbackOutcome, Flow, FlowSetup } from './flow.js';

/**
 * The flow table: provider type → flow. Nothing outside `flows/` branches on a provider's type;
 * a provider type without an entry here does not type-check as a `ProviderConfig`.
 */
const FLOWS: { [T in ProviderConfig['type']]: Flow<ProviderByType[T]> } = {
	credentials: credentialsFlow,
	email: emailFlow,
	oauth: oauthFlow,
	oidc: oauthFlow,
	webauthn: webauthnFlow
};

interface ProviderByType {
	credentials: CredentialsConfig;
	email: EmailConfig;
	oauth: OAuthConfig;
	oidc: OAuthConfig;
	webauthn: WebAuthnConfig;
}

/** The flow of a provider's type. */
export function flowOf<P extends ProviderConfig>(provider: P): Flow<P> {
	// The table is keyed by `type`, so the entry found is the flow of exactly this provider's type;
	// TypeScript cannot relate a union-keyed lookup back to `P`.
	return FLOWS[provider.type] as unknown as Flow<P>;
}

/** The flow of a type named in a config (before its providers are normalized), if it is known. */
export function flowOfType(type: string): Flow<ProviderConfig> | undefined {
	return Object.hasOwn(FLOWS, type) ? (FLOWS[type as ProviderConfig['type']] as unknown as Flow<ProviderConfig>) : undefined;
}
