import { ReauthenticationRequired } from '../errors.js';
import { now } from './jwt.js';
import type { SessionRead } from './types.js';

/** How recent a sign-in "sudo mode" asks for by default: 10 minutes. */
export const DEFAULT_REAUTHENTICATE_AGE = 10 * 60;

function windowOf(maxAge: number | undefined): number {
	return typeof maxAge === 'number' && Number.isFinite(maxAge) && maxAge >= 0 ? maxAge : DEFAULT_REAUTHENTICATE_AGE;
}

/** When the session's user last signed in or re-authenticated, if the session says. */
export function authenticatedAt(read: SessionRead): Date | null {
	return read.session && read.authTime !== undefined ? new Date(read.authTime * 1000) : null;
}

/**
 * Did the user sign in (or re-authenticate) within `maxAge` seconds? `false` when signed out or
 * when the session does not know (one made before kitauth recorded sign-in times): fail closed.
 */
export function recentlyAuthenticated(read: SessionRead, maxAge?: number): boolean {
	if (!read.session || read.authTime === undefined) return false;
	const age = now() - read.authTime;
	// A sign-in time in the future (beyond clock skew) is not a recent sign-in, it is a bad clock.
	return age >= -60 && age <= windowOf(maxAge);
}

/** Throws `ReauthenticationRequired` unless the user signed in within `maxAge` seconds. */
export function requireRecentAuthentication(read: SessionRead, maxAge?: number): void {
	if (!recentlyAuthenticated(read, maxAge)) throw new ReauthenticationRequired(windowOf(maxAge));
}
