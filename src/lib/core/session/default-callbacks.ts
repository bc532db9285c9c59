import type { CallbacksOptions } from '../types/config.js';

/**
 * The `session` callback when none is configured, as Auth.js's: the user's name, email and image
 * (`null` stays `null`), the expiry, and kitauth's `error` after a failed token refresh. Apps that
 * want more (the user's id) add it in their own callback, which gets `user`/`token` to take it from.
 */
export const defaultSessionCallback: CallbacksOptions['session'] = ({ session }) => ({
	user: { name: session.user?.name, email: session.user?.email, image: session.user?.image },
	expires: session.expires,
	...(typeof session.error === 'string' ? { error: session.error } : {})
});

/** The `jwt` callback when none is configured: the token as it is (session reads skip diffing it). */
export const defaultJwtCallback: CallbacksOptions['jwt'] = ({ token }) => token;
