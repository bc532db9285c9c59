import { MissingAdapter, MissingAdapterMethods } from '../errors.js';
import type { Adapter } from '../types/adapter.js';
import type { Cookie } from '../types/internal.js';
import type { SessionRead, SessionStart } from './types.js';

/**
 * A session strategy, chosen once when the options are derived: how a request's session is read
 * (or updated), started at sign-in and ended at sign-out. Each reads the request's cookies from
 * the context's jar (`ctx.jar`) and answers the cookies to set. `Ctx` is the request context
 * (`AuthContext`), a parameter rather than an import: the options that hold the strategy are part of
 * the context (types/options.ts), and a type-only import cycle still ties files together.
 */
interface Strategy<Ctx> {
	read(ctx: Ctx, update?: { data: unknown }): Promise<SessionRead>;
	start(ctx: Ctx, start: SessionStart): Promise<Cookie[]>;
	end(ctx: Ctx): Promise<Cookie[]>;
	/** The id of the user the request is signed in as (for account linking); no side effects. */
	userId(ctx: Ctx): Promise<string | undefined>;
	/** Deletions of every session cookie the request carried (no store access, no event). */
	clearCookies(ctx: Ctx): Cookie[];
}

const SESSION_METHODS = ['createSession', 'getSessionAndUser', 'updateSession', 'deleteSession'] as const;

/** What database sessions need of an adapter. */
export type SessionAdapter = Adapter & Required<Pick<Adapter, (typeof SESSION_METHODS)[number]>>;

/** The adapter of database sessions, checked once at start-up: it exists and stores sessions. */
export function sessionAdapter(adapter: Adapter | undefined): SessionAdapter {
	if (!adapter) throw new MissingAdapter('The database session strategy needs an adapter.');
	const missing = SESSION_METHODS.filter((method) => typeof adapter[method] !== 'function');
	if (missing.length) throw new MissingAdapterMethods(`The adapter lacks ${missing.join(', ')} for database sessions.`);
	return adapter as SessionAdapter;
}

export interface JwtStrategy<Ctx> extends Strategy<Ctx> {
	readonly kind: 'jwt';
	/** The request's session token issued anew (a new `iat`), as it is; `[]` without one. */
	reissue(ctx: Ctx): Promise<Cookie[]>;
}

export interface DatabaseStrategy<Ctx> extends Strategy<Ctx> {
	readonly kind: 'database';
	/** The adapter that stores the sessions. */
	readonly adapter: SessionAdapter;
}

export type SessionStrategy<Ctx> = JwtStrategy<Ctx> | DatabaseStrategy<Ctx>;
