import { sha256 } from '../crypto/index.js';
import { need } from '../adapter.js';
import type { AuthContext } from '../context.js';
import { UnsupportedStrategy } from '../errors.js';
import type { AdapterSession } from '../types/models.js';
import type { SessionRead } from './types.js';
import type { SessionInfo, SessionPage } from '../../shared/views.js';
import { sessionAlive } from './database.js';

export type { SessionInfo, SessionPage };

/**
 * An id for a session that is safe to put in a page: derived one-way from the stored key, so it
 * can neither be used as a session nor reveal one (even with `hashTokens: false`).
 */
async function publicId(storedKey: string): Promise<string> {
	return (await sha256(`kitauth.session-id\u0000${storedKey}`, 'base64url')).slice(0, 22);
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

async function info(session: AdapterSession, currentKey: string): Promise<SessionInfo> {
	return {
		id: await publicId(session.sessionToken),
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
	return Promise.all(
		sessions
			.filter((session) => sessionAlive(ctx, session, now))
			.sort((a, b) => (b.createdAt?.getTime() ?? 0) - (a.createdAt?.getTime() ?? 0))
			.map((session) => info(session, me.currentKey))
	);
}

export interface SessionPageOptions {
	/** Other sessions per page: 1–100, default 20. */
	limit?: number;
	/** `nextCursor` of the previous page; anything else (or nothing) is the first page. */
	cursor?: string | null;
}

export const SESSION_PAGE_DEFAULT = 20;
export const SESSION_PAGE_MAX = 100;

/** A cursor names the last session of a page: its start (ms) and id, so a revoked one still places it. */
const CURSOR = /^(\d{1,16})\.([\w-]{1,64})$/;

function pageLimit(limit: number | undefined): number {
	if (limit === undefined || !Number.isFinite(limit)) return SESSION_PAGE_DEFAULT;
	return Math.min(SESSION_PAGE_MAX, Math.max(1, Math.floor(limit)));
}

const startOf = (info: SessionInfo) => (info.createdAt ? Date.parse(info.createdAt) : 0);

/** Newest first; sessions that started in the same millisecond by id. */
function newestFirst(a: SessionInfo, b: SessionInfo): number {
	return startOf(b) - startOf(a) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * One page of the signed-in user's sessions, for a list that stays small however many sessions
 * pile up: the current one, then at most `limit` others after `cursor`.
 */
export async function listSessionPage(
	ctx: AuthContext,
	read: SessionRead,
	options: SessionPageOptions = {}
): Promise<SessionPage> {
	const all = await listSessions(ctx, read);
	const current = all.find((session) => session.current) ?? null;
	const others = all.filter((session) => !session.current).sort(newestFirst);
	const limit = pageLimit(options.limit);
	const cursor = CURSOR.exec(options.cursor ?? '');
	let start = 0;
	if (cursor) {
		const [at, id] = [Number(cursor[1]), cursor[2]!];
		const next = others.findIndex((s) => startOf(s) < at || (startOf(s) === at && s.id > id));
		start = next === -1 ? others.length : next;
	}
	const page = others.slice(start, start + limit);
	const last = page.at(-1);
	const more = start + limit < others.length;
	return {
		current,
		others: page,
		totalOthers: others.length,
		nextCursor: more && last ? `${startOf(last)}.${last.id}` : null
	};
}

/** Ends one of the signed-in user's sessions by its public id. `false` if it is not theirs. */
export async function revokeSession(ctx: AuthContext, id: string, read: SessionRead): Promise<boolean> {
	const { store, me } = whoAsks(ctx, read);
	if (!me) return false;
	const sessions = await store.listSessionsByUserId(me.userId);
	const ids = await Promise.all(sessions.map((session) => publicId(session.sessionToken)));
	const target = sessions[ids.indexOf(id)];
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
