import type { SessionCallbackResult } from '../types/session-callback.js';
import type { Session } from '../types/models.js';

/**
 * The `session` callback's result as it goes to the client (`/auth/session`, `locals.auth()`): a
 * `Date` expiry as its ISO string, and without a `sessionToken`. A callback that returns the
 * database session it was given (`{ ...session, … }`, as Auth.js's examples do) would otherwise
 * publish the session's key to the page's scripts; Auth.js sends it.
 */
export function clientSession(result: SessionCallbackResult): Session {
	// A callback that returns no object signs nobody in; it goes on as it is.
	if (!result || typeof result !== 'object') return result;
	// The usual result (the default callback's) needs no copy: this runs on every session read.
	if (!Object.hasOwn(result, 'sessionToken') && !(result.expires instanceof Date)) return result as Session;
	const { sessionToken: _key, expires, ...rest } = result;
	return { ...rest, expires: expires instanceof Date ? expires.toISOString() : expires };
}

/**
 * kitauth: what the session's sign-in proved (`session.factors`, e.g. `['credentials', 'totp']`),
 * set by the core after the `session` callback, so it is there whatever the callback returns;
 * absent when not recorded (a session made before kitauth recorded it).
 */
export function withFactors(session: Session, factors: readonly string[] | null | undefined): Session {
	if (!session || typeof session !== 'object' || !factors?.length) return session;
	return { ...session, factors: [...factors] };
}
