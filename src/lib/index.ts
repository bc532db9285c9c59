/**
 * kitauth — authentication and sessions for SvelteKit.
 *
 * ```ts
 * // src/hooks.server.ts
 * import { SvelteKitAuth } from 'kitauth';
 * export const { handle, signIn, signOut } = SvelteKitAuth({ providers: [...] });
 * ```
 */
export { SvelteKitAuth, type SvelteKitAuthResult } from './sveltekit/index.js';
export type { SignInFunction, SignOutFunction, SignInOptions, AuthorizationParams } from './sveltekit/actions.js';
export type { SvelteKitAuthConfig, SvelteKitAuthConfigInput, AuthActionFailure } from './sveltekit/types.js';
export {
	AuthError,
	CredentialsSignin,
	AccessDenied,
	MissingSecret,
	MissingSecretError,
	ReauthenticationRequired,
	WebAuthnVerificationError,
	InvalidTwoFactorCode,
	TwoFactorExpired,
	type ErrorType
} from './core/errors.js';
export type { SvelteKitTwoFactor, TwoFactorActionData, TwoFactorActions } from './sveltekit/two-factor.js';
export type { PasswordAccountActionData, PasswordActionData, PasswordActions, SvelteKitPasswords } from './sveltekit/passwords.js';
export type * from './core/types.js';
export { customFetch, devOutbox, listProviders, safeCallbackUrl, type ClientProvider, type OutboxMessage } from './core/index.js';
export type { SessionManager, SessionInfo, SessionPage, SessionPageOptions, SessionsEnded } from './sveltekit/sessions.js';
export type { AccountsApi, GetAccessToken, LinkedAccount, SignInMethodsHint, UnlinkResult } from './sveltekit/accounts.js';
export type {
	PasskeyActionData,
	PasskeyActions,
	PasskeyInfo,
	PasskeyManager,
	PasskeyRemoval,
	SvelteKitPasskeys
} from './sveltekit/passkeys.js';
