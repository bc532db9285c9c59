import type { RequestEvent } from '@sveltejs/kit';
import { getRequestEvent } from '$app/server';
import { listSessions, revokeOtherSessions, revokeSession, type SessionInfo } from '../core/session/manage.js';
import type { CurrentSession } from './current.js';

export type { SessionInfo } from '../core/session/manage.js';

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
		list: async () => {
			const { ctx, cookies, read } = await scope();
			return listSessions(ctx, cookies, read);
		},
		revoke: async (id) => {
			const { ctx, cookies, read } = await scope();
			return revokeSession(ctx, cookies, id, read);
		},
		revokeOthers: async () => {
			const { ctx, cookies, read } = await scope();
			return revokeOtherSessions(ctx, cookies, read);
		}
	};
}
