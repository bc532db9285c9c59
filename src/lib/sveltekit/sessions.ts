import type { RequestEvent } from '@sveltejs/kit';
import { getRequestEvent } from '$app/server';
import type { CurrentSession, SessionInfo, SessionPage, SessionPageOptions } from '../core/index.js';

export type { SessionInfo, SessionPage, SessionPageOptions } from '../core/index.js';

/** Server-side session management for the signed-in user (database sessions). */
export interface SessionManager {
	/** The user's live sessions (no token ever leaves the server); `[]` when signed out. */
	list(): Promise<SessionInfo[]>;
	/**
	 * One page of them (for `<SessionList>`): the current session apart, then at most `limit`
	 * (default 20, at most 100) others, newest first, after `cursor` (the last page's `nextCursor`).
	 */
	page(options?: SessionPageOptions): Promise<SessionPage>;
	/** End one session by its `id` from `list()`; `false` when it is not the user's. */
	revoke(id: string): Promise<boolean>;
	/**
	 * "Sign out everywhere else": end all the user's sessions but this one. Needs a recent sign-in:
	 * throws `ReauthenticationRequired` otherwise (`maxAge` seconds, default 600).
	 */
	revokeOthers(options?: { maxAge?: number }): Promise<number>;
	/** When the user last signed in or re-authenticated; `null` when signed out or unknown. */
	authenticatedAt(): Promise<Date | null>;
	/** "Sudo mode": did the user sign in within `maxAge` seconds (default 600)? */
	recentlyAuthenticated(maxAge?: number): Promise<boolean>;
	/**
	 * Guards the app's own sensitive actions: throws `ReauthenticationRequired` unless the user
	 * signed in within `maxAge` seconds (default 600). To re-authenticate, the user signs in again
	 * while signed in (a passkey, or a linked provider).
	 */
	requireRecentAuthentication(maxAge?: number): Promise<void>;
}

export function createSessionManager(current: (event: RequestEvent) => Promise<CurrentSession>): SessionManager {
	// The request's session is the one `locals.auth()` read: no second lookup.
	const scope = () => current(getRequestEvent());
	return {
		list: async () => (await scope()).listSessions(),
		page: async (options) => (await scope()).listSessionPage(options),
		revoke: async (id) => (await scope()).revokeSession(id),
		revokeOthers: async (options) => (await scope()).revokeOtherSessions(options),
		authenticatedAt: async () => (await scope()).authenticatedAt,
		recentlyAuthenticated: async (maxAge) => (await scope()).recentlyAuthenticated(maxAge),
		requireRecentAuthentication: async (maxAge) => (await scope()).requireRecentAuthentication(maxAge)
	};
}
