import type { AuthContext } from '../context.js';
import { databaseUserId, endDatabaseSession, readDatabaseSession, startDatabaseSession } from './database.js';
import { endJwtSession, jwtUserId, readJwtSession, startJwtSession } from './jwt-session.js';
import type { SessionRead, SessionStart } from './types.js';
import type { Cookie } from '../types/internal.js';

export type { SessionRead, SessionStart } from './types.js';

const isJwt = (ctx: AuthContext) => ctx.options.session.strategy === 'jwt';

/** The one entry to sessions, whatever the strategy: read (or update), start, end. */
export function readSession(
	ctx: AuthContext,
	requestCookies: Record<string, string>,
	update?: { data: unknown }
): Promise<SessionRead> {
	return isJwt(ctx) ? readJwtSession(ctx, requestCookies, update) : readDatabaseSession(ctx, requestCookies, update);
}

export function startSession(ctx: AuthContext, start: SessionStart): Promise<Cookie[]> {
	return isJwt(ctx) ? startJwtSession(ctx, start) : startDatabaseSession(ctx, start);
}

/** The id of the user the request is signed in as (for account linking); no side effects. */
export async function currentUserId(ctx: AuthContext, requestCookies: Record<string, string>): Promise<string | undefined> {
	return isJwt(ctx) ? jwtUserId(ctx, requestCookies) : databaseUserId(ctx, requestCookies);
}

export function endSession(ctx: AuthContext, requestCookies: Record<string, string>): Promise<Cookie[]> {
	return isJwt(ctx) ? endJwtSession(ctx, requestCookies) : endDatabaseSession(ctx, requestCookies);
}
