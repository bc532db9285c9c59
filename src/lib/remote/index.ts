/**
 * `kitauth/remote`: kitauth as SvelteKit remote functions (SvelteKit 3.2+, with
 * `experimental.remoteFunctions`). Import them in components; kit turns them into calls to the
 * server: the session, sign-in and sign-out, the passkey list's and the two-factor components'
 * forms. Nothing else in kitauth imports this, so an app without the flag never loads it.
 *
 * Guards for the app's own remote functions are server-only: `kitauth/remote/server`.
 */
export { session, signIn, signOut, updateSession } from './auth.remote.js';
export { removePasskey, renamePasskey } from './passkeys.remote.js';
export { disableTwoFactor, enableTwoFactor, forgetTwoFactorDevices, regenerateBackupCodes, verifyTwoFactor } from './two-factor.remote.js';
export type { SessionUpdateData } from './update-data.js';
export type { AuthActionFailure } from '../sveltekit/types.js';
export type { PasskeyActionData } from '../sveltekit/passkey-forms.js';
export type { TwoFactorActionData } from '../sveltekit/two-factor-forms.js';
