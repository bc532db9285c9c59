/**
 * `kitauth/remote`: kitauth as SvelteKit remote functions (SvelteKit 3.2+, with
 * `experimental.remoteFunctions`). Import them in components; kit turns them into calls to the
 * server. Nothing else in kitauth imports this, so an app without the flag never loads it.
 *
 * Guards for the app's own remote functions are server-only: `kitauth/remote/server`.
 */
export { session, signIn, signOut, updateSession } from './auth.remote.js';
export type { SessionUpdateData } from './update-data.js';
export type { AuthActionFailure } from '../sveltekit/types.js';
