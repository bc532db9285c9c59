import { need } from '../../adapter.js';
import type { AuthContext } from '../../context.js';
import { MissingAdapter } from '../../errors.js';
import type { Adapter } from '../../types/adapter.js';

/**
 * What WebAuthn needs of the adapter: Auth.js's list (users, accounts, authenticators), plus the
 * verification-token pair that makes each challenge single-use on the server.
 */
export const WEBAUTHN_METHODS = [
	'createUser',
	'getUser',
	'getUserByEmail',
	'getUserByAccount',
	'linkAccount',
	'getAccount',
	'getAuthenticator',
	'createAuthenticator',
	'listAuthenticatorsByUserId',
	'updateAuthenticatorCounter',
	'createVerificationToken',
	'useVerificationToken'
] as const;

export type WebAuthnStore = Adapter & Required<Pick<Adapter, (typeof WEBAUTHN_METHODS)[number]>>;

/** The adapter, with the methods WebAuthn needs (checked at start-up; checked again here for types). */
export function webauthnStore(ctx: AuthContext): WebAuthnStore {
	const adapter = ctx.options.adapter;
	if (!adapter) throw new MissingAdapter('WebAuthn providers need an adapter.');
	return need(adapter, ...WEBAUTHN_METHODS);
}
