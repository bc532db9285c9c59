import type { RequestEvent } from '@sveltejs/kit';
import { getRequestEvent } from '$app/server';
import type { CurrentSession, SessionInfo } from '../core/index.js';

export type { SessionInfo } from '../core/index.js';

/** Server-side session management for the signed-in user (database sessions). */
export interface SessionManager {
	/** The user's live sessions (no token ever leaves the server); `[]` when signed out. */
	list(): Promise<SessionInfo[]>;
	/** End one session by its `id` from `list()`; `false` when it is not the user's. */
	revoke(id: string): Promise<boolean>;
	/** "Sign out everywhere else": end all the user's sessions but this one. */
	revokeOthers(): Promise<number>;
}

export function createSessionManager(current: (event: RequestEvent) => Promise<CurrentSession>): SessionManager {
	// The request's session is the one `locals.auth()` read: no second lookup.
	const scope = () => current(getRequestEvent());
	return {
		list: async () => (await scope()).listSessions(),
		revoke: async (id) => (await scope()).revokeSession(id),
		revokeOthers: async () => (await scope()).revokeOtherSessions()
	};
}
