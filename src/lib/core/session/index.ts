import type { AuthContext } from '../context.js';
import { endJwtSession, readJwtSession, startJwtSession } from './jwt-session.js';
import type { SessionRead, SessionStart } from './types.js';
import type { Cookie } from '../types/internal.js';

export type { SessionRead, SessionStart } from './types.js';

/** The one entry to sessions, whatever the strategy: read (or update), start, end. */
export function readSession(
	ctx: AuthContext,
	requestCookies: Record<string, string>,
	update?: { data: unknown }
): Promise<SessionRead> {
	return readJwtSession(ctx, requestCookies, update);
}

export function startSession(ctx: AuthContext, start: SessionStart): Promise<Cookie[]> {
	return startJwtSession(ctx, start);
}

export function endSession(ctx: AuthContext, requestCookies: Record<string, string>): Promise<Cookie[]> {
	return endJwtSession(ctx, requestCookies);
}
