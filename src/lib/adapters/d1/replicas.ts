/**
 * Read replicas with read-your-writes on D1 (its Sessions API): the adapter on a session of the
 * database that starts at a bookmark, the one the same browser's last request ended at (kept in
 * a cookie by the app). D1 then answers from a replica at least as fresh as that bookmark, so a
 * session created at sign-in is found on the very next request, whichever replica serves it.
 * Without a bookmark (a browser with no writes of its own to see) any replica may answer.
 */
import type { D1Binding } from './client.js';

/** A session of a D1 database (`env.DB.withSession(…)`). */
export interface D1SessionBinding extends D1Binding {
	getBookmark(): string | null | Promise<string | null>;
}

/** A D1 binding with the Sessions API. */
export interface D1WithSessions extends D1Binding {
	withSession(constraintOrBookmark?: string): D1SessionBinding;
}

/** What a bookmark looks like (hex groups and dashes); anything else from a cookie is ignored. */
const BOOKMARK = /^[0-9a-f]+(?:-[0-9a-f]+){0,15}$/i;

/**
 * The session to run a request's adapter on: from `bookmark` when it is one, else unconstrained.
 * After the response, `session.getBookmark()` is the bookmark for the browser's next request.
 */
export function d1Session(database: D1WithSessions, bookmark: string | null | undefined): D1SessionBinding {
	const valid = typeof bookmark === 'string' && bookmark.length <= 512 && BOOKMARK.test(bookmark);
	return database.withSession(valid ? bookmark : 'first-unconstrained');
}
