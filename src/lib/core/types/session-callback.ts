import type { AdapterSession, AdapterUser, JWT, Session } from './models.js';

/**
 * The `session` a database session gives its `session` callback, as Auth.js passes it: the stored
 * session with its `user`. Its `sessionToken` is the key the session is stored under (the
 * SHA-256 of the cookie's token; the token itself only with `session.hashTokens: false`), never
 * sent to the client; `expires` is a `Date`; other columns the adapter returns come along.
 */
export type DatabaseSessionParam = AdapterSession & { user: AdapterUser; [field: string]: unknown };

/**
 * What the `session` callback returns: a `Session`, whose `expires` may still be the `Date` it
 * was given (it goes out as its ISO string). A `sessionToken` in it is dropped before it goes out.
 */
export type SessionCallbackResult = { [K in keyof Session]: K extends 'expires' ? string | Date : Session[K] };

/**
 * What the `session` callback gets: with JWT sessions the `session` made from the `token`; with
 * database sessions the stored session (see {@link DatabaseSessionParam}) and its `user`, and on an
 * update the data the client sent. Checking `user` (or `token`) tells the two apart.
 */
export type SessionCallbackParams = JwtSessionCallbackParams | DatabaseSessionCallbackParams;

export interface JwtSessionCallbackParams {
	/** `{ user: { name, email, image }, expires }` (an ISO string), from the token. */
	session: Session;
	/** The token the session was read from. */
	token: JWT;
	user?: undefined;
	newSession?: undefined;
	trigger?: undefined;
}

export interface DatabaseSessionCallbackParams {
	session: DatabaseSessionParam;
	/** The stored user. */
	user: AdapterUser;
	token?: undefined;
	/** On an update: the data the client sent; validate it before trusting it. */
	newSession?: unknown;
	trigger?: 'update';
}
