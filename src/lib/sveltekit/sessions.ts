import type { RequestEvent } from '@sveltejs/kit';
import { getRequestEvent } from '$app/server';
import type { AuthOptions } from '../core/config.js';
import { createContext } from '../core/context.js';
import { parseCookieHeader } from '../core/session/cookies.js';
import { listSessions, revokeOtherSessions, revokeSession, type SessionInfo } from '../core/session/manage.js';

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

export function createSessionManager(getOptions: (event: RequestEvent) => Promise<AuthOptions>): SessionManager {
	async function scope() {
		const event = getRequestEvent();
		const options = await getOptions(event);
		const cookies = parseCookieHeader(event.request.headers.get('cookie'));
		return { ctx: createContext(options, { url: event.url, cookies, body: {} }, { csrfChecked: true }), cookies };
	}
	return {
		list: async () => {
			const { ctx, cookies } = await scope();
			return listSessions(ctx, cookies);
		},
		revoke: async (id) => {
			const { ctx, cookies } = await scope();
			return revokeSession(ctx, cookies, id);
		},
		revokeOthers: async () => {
			const { ctx, cookies } = await scope();
			return revokeOtherSessions(ctx, cookies);
		}
	};
}
