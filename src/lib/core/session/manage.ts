import { hash } from 'node:crypto';
import { need } from '../adapter.js';
import type { AuthContext } from '../context.js';
import { UnsupportedStrategy } from '../errors.js';
import type { AdapterSession } from '../types/models.js';
import type { SessionRead } from './types.js';

/** One of a user's sessions as the app may show it: no token, an opaque id to revoke it by. */
export interface SessionInfo {
	id: string;
	/** Is this the session of the request asking? */
	current: boolean;
	createdAt: string | null;
	expires: string;
	userAgent: string | null;
}

/**
 * An id for a session that is safe to put in a page: derived one-way from the stored key, so it
 * can neither be used as a session nor reveal one (even with `hashTokens: false`).
 */
function publicId(storedKey: string): string {
	return hash('sha256', `kitauth.session-id\u0000${storedKey}`, 'base64url').slice(0, 22);
}

/**
 * The store, the signed-in user and the store's key of this request's session (`read` is the
 * request's session, already read), or no user.
 */
function whoAsks(ctx: AuthContext, read: SessionRead) {
	const strategy = ctx.options.strategy;
	if (strategy.kind !== 'database') {
		throw new UnsupportedStrategy('Listing and revoking sessions needs database sessions.');
	}
	const store = need(strategy.adapter, 'listSessionsByUserId', 'deleteSessionsByUserId');
	const me = read.user && read.key ? { userId: read.user.id, currentKey: read.key } : undefined;
	return { store, me };
}

function info(session: AdapterSession, currentKey: string): SessionInfo {
	return {
		id: publicId(session.sessionToken),
		current: session.sessionToken === currentKey,
		createdAt: session.createdAt?.toISOString() ?? null,
		expires: session.expires.toISOString(),
		userAgent: session.userAgent ?? null
	};
}

/** The signed-in user's live sessions, newest first; `[]` when not signed in. */
export async function listSessions(ctx: AuthContext, read: SessionRead): Promise<SessionInfo[]> {
	const { store, me } = whoAsks(ctx, read);
	if (!me) return [];
	const now = Date.now();
	const sessions = await store.listSessionsByUserId(me.userId);
	return sessions
		.filter((session) => session.expires.getTime() > now)
		.sort((a, b) => (b.createdAt?.getTime() ?? 0) - (a.createdAt?.getTime() ?? 0))
		.map((session) => info(session, me.currentKey));
}

/** Ends one of the signed-in user's sessions by its public id. `false` if it is not theirs. */
export async function revokeSession(ctx: AuthContext, id: string, read: SessionRead): Promise<boolean> {
	const { store, me } = whoAsks(ctx, read);
	if (!me) return false;
	const sessions = await store.listSessionsByUserId(me.userId);
	const target = sessions.find((session) => publicId(session.sessionToken) === id);
	if (!target) return false;
	await store.deleteSession(target.sessionToken);
	return true;
}

/** "Sign out everywhere else": ends every session of the user but this one. Returns the count. */
export async function revokeOtherSessions(ctx: AuthContext, read: SessionRead): Promise<number> {
	const { store, me } = whoAsks(ctx, read);
	if (!me) return 0;
	return store.deleteSessionsByUserId(me.userId, me.currentKey);
}
