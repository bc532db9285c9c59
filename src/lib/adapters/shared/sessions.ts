/**
 * Database sessions and verification tokens, over a dialect's statements. Tokens arrive already
 * hashed from the core and are stored exactly as given. Expired rows are returned like any other:
 * the core checks `expires` (and deletes an expired session), as Auth.js does.
 */
import type { Adapter } from '../../core/types/adapter.js';
import { columnValues, sessionValues, toSession, toUser, toVerificationToken } from './rows.js';
import type { DialectParts } from './statements.js';
import { inserted } from './users.js';

type SessionMethods = Required<
	Pick<
		Adapter,
		| 'createSession'
		| 'getSessionAndUser'
		| 'updateSession'
		| 'deleteSession'
		| 'rekeySession'
		| 'listSessionsByUserId'
		| 'deleteSessionsByUserId'
		| 'createVerificationToken'
		| 'useVerificationToken'
	>
>;

export function sessionMethods({ statements, tables, fail }: DialectParts): SessionMethods {
	const st = statements.sessions;
	const { sessionsTable: sessions, verificationTokensTable: tokens } = tables;

	return {
		// A sign-in whose client left (`call.signal` aborted) before the row committed stores none.
		createSession: async (session, call) => {
			// `createdAt` feeds the session list and the absolute lifetime: a caller that does not
			// know about it (Auth.js core) still gets it.
			const values = columnValues(sessions, sessionValues({ ...session, createdAt: session.createdAt ?? new Date() }));
			return toSession(inserted(await st.insertSession(values, call?.signal), 'createSession', fail));
		},

		// The hot path of database sessions: one query.
		getSessionAndUser: async (sessionToken) => {
			const row = await st.sessionAndUser(sessionToken);
			return row ? { session: toSession(row.session), user: toUser(row.user) } : null;
		},

		updateSession: async ({ sessionToken, ...fields }) => {
			const values = columnValues(sessions, sessionValues(fields));
			delete values['sessionToken'];
			const row =
				Object.keys(values).length === 0 ? await st.session(sessionToken) : await st.updateSession(sessionToken, values);
			return row ? toSession(row) : null;
		},

		deleteSession: async (sessionToken) => {
			const row = await st.deleteSession(sessionToken);
			return row ? toSession(row) : null;
		},

		rekeySession: async (sessionToken, newSessionToken) => {
			const row = await st.rekeySession(sessionToken, newSessionToken);
			return row ? toSession(row) : null;
		},

		// Expired sessions are listed too; the caller decides what to show.
		listSessionsByUserId: async (userId) => (await st.sessionsOfUser(userId)).map(toSession),

		deleteSessionsByUserId: (userId, keepSessionToken) => st.deleteSessionsOfUser(userId, keepSessionToken),

		createVerificationToken: async (token) =>
			toVerificationToken(inserted(await st.insertVerificationToken(columnValues(tokens, token)), 'createVerificationToken', fail)),

		// Consume-once (see `SessionStatements.consumeVerificationToken`). Both the identifier and the
		// token must match: a right email with a wrong token gets nothing and leaves the real one.
		useVerificationToken: async ({ identifier, token }) => {
			const row = await st.consumeVerificationToken(identifier, token);
			return row ? toVerificationToken(row) : null;
		}
	};
}
