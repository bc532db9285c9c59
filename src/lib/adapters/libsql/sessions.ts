/**
 * Database sessions and verification tokens. Tokens arrive already hashed from the core and are
 * stored exactly as given. Expired rows are returned like any other: the core checks `expires`
 * (and deletes an expired session), as Auth.js does.
 */
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Adapter } from '../../core/types/adapter.js';
import type { AdapterSession } from '../../core/types/models.js';
import type { AdapterContext } from './context.js';
import { hotRead } from './hot-reads.js';
import {
	columnValues,
	sessionValues,
	single,
	toSession,
	toUser,
	toVerificationToken,
	type Row
} from './rows.js';

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

export function sessionMethods({ db, client, tables, guard }: AdapterContext): SessionMethods {
	const { sessionsTable: sessions, usersTable: users } = tables;
	const tokens = tables.verificationTokensTable;

	const getSession = async (sessionToken: string): Promise<AdapterSession | null> => {
		const row: Row | undefined = await db
			.select()
			.from(sessions)
			.where(eq(sessions.sessionToken, sessionToken))
			.get();
		return row ? toSession(row) : null;
	};

	// The reads every protected page pays for, compiled once (see `hot-reads.ts`).
	const sessionAndUser = hotRead(
		client,
		db
			.select({ session: sessions, user: users })
			.from(sessions)
			.innerJoin(users, eq(users.id, sessions.userId))
			.where(eq(sessions.sessionToken, sql.placeholder('sessionToken'))),
		{ session: sessions, user: users },
		{ single: true },
		(row) => (row ? { session: toSession(row.session), user: toUser(row.user) } : null)
	);
	// Oldest first; tables adopted without `createdAt` fall back to expiry.
	const sessionsOrder = [sessions.createdAt ?? sessions.expires, sessions.sessionToken] as const;
	const sessionsOfUser = hotRead(
		client,
		db
			.select()
			.from(sessions)
			.where(eq(sessions.userId, sql.placeholder('userId')))
			.orderBy(...sessionsOrder),
		{ session: sessions },
		{ orderBy: sessionsOrder },
		(rows) => rows.map((row) => toSession(row.session))
	);

	return {
		// A sign-in whose client left (`call.signal` aborted) before the row committed stores none.
		createSession: (session, call) =>
			guard.run(
				'createSession',
				async () => {
					// `createdAt` feeds the session list and the absolute lifetime: a caller that does not
					// know about it (Auth.js core) still gets it.
					const values = columnValues(sessions, sessionValues({ ...session, createdAt: session.createdAt ?? new Date() }));
					const [rows] = await db.batch([db.insert(sessions).values(values).returning()]);
					return toSession(single(rows, 'createSession'));
				},
				call?.signal
			),

		// The hot path of database sessions: one query.
		getSessionAndUser: (sessionToken) => guard.read('getSessionAndUser', sessionAndUser, sessionToken),

		updateSession: ({ sessionToken, ...fields }) =>
			guard.run('updateSession', async () => {
				const values = columnValues(sessions, sessionValues(fields));
				delete values['sessionToken'];
				if (Object.keys(values).length === 0) return getSession(sessionToken);
				const [rows] = await db.batch([
					db.update(sessions).set(values).where(eq(sessions.sessionToken, sessionToken)).returning()
				]);
				const row = rows[0];
				return row ? toSession(row) : null;
			}),

		deleteSession: (sessionToken) =>
			guard.run('deleteSession', async () => {
				const [rows] = await db.batch([
					db.delete(sessions).where(eq(sessions.sessionToken, sessionToken)).returning()
				]);
				const row = rows[0];
				return row ? toSession(row) : null;
			}),

		rekeySession: (sessionToken, newSessionToken) =>
			guard.run('rekeySession', async () => {
				const [rows] = await db.batch([
					db.update(sessions).set({ sessionToken: newSessionToken }).where(eq(sessions.sessionToken, sessionToken)).returning()
				]);
				const row = rows[0];
				return row ? toSession(row) : null;
			}),

		// Expired sessions are listed too; the caller decides what to show.
		listSessionsByUserId: (userId) => guard.read('listSessionsByUserId', sessionsOfUser, userId),

		deleteSessionsByUserId: (userId, keepSessionToken) =>
			guard.run('deleteSessionsByUserId', async () => {
				const keep =
					keepSessionToken === undefined ? undefined : ne(sessions.sessionToken, keepSessionToken);
				const [rows] = await db.batch([
					db
						.delete(sessions)
						.where(and(eq(sessions.userId, userId), keep))
						.returning({ sessionToken: sessions.sessionToken })
				]);
				return rows.length;
			}),

		createVerificationToken: (token) =>
			guard.run('createVerificationToken', async () => {
				const values = columnValues(tokens, token);
				const [rows] = await db.batch([db.insert(tokens).values(values).returning()]);
				return toVerificationToken(single(rows, 'createVerificationToken'));
			}),

		// Returned and deleted by ONE statement: of concurrent uses exactly one gets the row. Both
		// the identifier and the token must match (a right email with a wrong token gets nothing
		// and leaves the real token in place).
		useVerificationToken: ({ identifier, token }) =>
			guard.run('useVerificationToken', async () => {
				const [rows] = await db.batch([
					db
						.delete(tokens)
						.where(and(eq(tokens.identifier, identifier), eq(tokens.token, token)))
						.returning()
				]);
				const row = rows[0];
				return row ? toVerificationToken(row) : null;
			})
	};
}
