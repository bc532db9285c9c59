import type { RequestEvent } from '@sveltejs/kit';
import { getRequestEvent } from '$app/server';
import type { AuthServer, CredentialChange, CurrentSession, SessionInfo, SessionPage, SessionPageOptions, SessionsEnded } from '../core/index.js';
import { applyCookies } from './cookies.js';

export type { SessionInfo, SessionPage, SessionPageOptions, SessionsEnded } from '../core/index.js';

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
	/**
	 * Ends every session of the signed-in user, this one included (the cookie is cleared on this
	 * response). JWT sessions elsewhere end only with an adapter that stores session cutoffs
	 * (kitauth's libSQL adapter): see `jwtRevoked` in the result.
	 */
	endAll(): Promise<SessionsEnded>;
	/**
	 * Call after the signed-in user changed their password or email: ends their other sessions
	 * (`session.endOnCredentialChange`, default `'others'`; `endSessions` overrides it) and emits
	 * `credentialsChanged`.
	 */
	credentialsChanged(change: CredentialChange, options?: { endSessions?: 'others' | 'all' | 'none' }): Promise<SessionsEnded>;
	/**
	 * Ends every session of any user (an admin action, a disabled or deleted account). Check that
	 * the caller may do this: kitauth does not.
	 */
	endSessionsOf(userId: string): Promise<Omit<SessionsEnded, 'cookies'>>;
}

export function createSessionManager(
	current: (event: RequestEvent) => Promise<CurrentSession>,
	getServer: (event: RequestEvent) => Promise<AuthServer>
): SessionManager {
	// The request's session is the one `locals.auth()` read: no second lookup.
	const scope = () => current(getRequestEvent());
	/** Runs a call that may end sessions, and sets the cookies it answers on this response. */
	const applying = async (call: (session: CurrentSession) => Promise<SessionsEnded>) => {
		const event = getRequestEvent();
		const ended = await call(await current(event));
		applyCookies(event.cookies, ended.cookies);
		return ended;
	};
	return {
		endAll: () => applying((session) => session.endAllSessions()),
		credentialsChanged: (change, options) => applying((session) => session.credentialsChanged(change, options)),
		endSessionsOf: async (userId) => (await getServer(getRequestEvent())).endSessionsOf(userId),
		list: async () => (await scope()).listSessions(),
		page: async (options) => (await scope()).listSessionPage(options),
		revoke: async (id) => (await scope()).revokeSession(id),
		revokeOthers: async (options) => (await scope()).revokeOtherSessions(options),
		authenticatedAt: async () => (await scope()).authenticatedAt,
		recentlyAuthenticated: async (maxAge) => (await scope()).recentlyAuthenticated(maxAge),
		requireRecentAuthentication: async (maxAge) => (await scope()).requireRecentAuthentication(maxAge)
	};
}
