/**
 * The PostgreSQL statements (drizzle `pg-core`). Every adapter operation is ONE statement, sent on
 * its own with no transaction around it: atomic by itself, and fit for a transaction pooler. (A
 * user's deletion with everything that is theirs is one statement too, with data-modifying CTEs.)
 * The per-request reads are built by drizzle once and run with each call's value on the driver
 * (`PgRun`), their rows decoded with drizzle's own column decoders (`shared/decode.ts`).
 */
import { and, eq, getTableColumns, ne, sql, type Column, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Row } from '../shared/rows.js';
import type { AccountKey, Statements } from '../shared/statements.js';
import { pgCounters } from './counters.js';
import { userTokens } from '../shared/user-tokens.js';
import { compiledRead, type PgExec } from './exec.js';
import type { PostgresTables } from './tables.js';
import { pgTwoFactors } from './two-factor.js';

/** `deletesTwoFactor`: `deleteUser` deletes the user's two-factor record too (`shared/tables.ts`). */
export function pgStatements(exec: PgExec, tables: PostgresTables, deletesTwoFactor: boolean): Statements {
	const { db, run } = exec;
	const { usersTable: users, accountsTable: accounts, sessionsTable: sessions } = tables;
	const { verificationTokensTable: tokens, authenticatorsTable: authenticators, sessionCutoffsTable: cutoffs } = tables;
	const { passwordsTable: passwords } = tables;
	/** The first row a statement returns. */
	const first = async (rows: PromiseLike<unknown[]>): Promise<Row | undefined> => (await rows)[0] as Row | undefined;
	const accountIs = ({ provider, providerAccountId }: AccountKey) =>
		and(eq(accounts.provider, provider), eq(accounts.providerAccountId, providerAccountId));
	const byUser = (column: Column) => eq(column, sql.placeholder('userId'));

	// The reads a signed-in page pays for: one indexed round trip each.
	const sessionAndUser = compiledRead(
		exec,
		'getSessionAndUser',
		db
			.select({ session: sessions, user: users })
			.from(sessions)
			.innerJoin(users, eq(users.id, sessions.userId))
			.where(eq(sessions.sessionToken, sql.placeholder('sessionToken'))),
		{ session: sessions, user: users }
	);
	// Oldest first; tables adopted without `createdAt` fall back to expiry.
	const sessionsOfUser = compiledRead(
		exec,
		'listSessionsByUserId',
		db.select().from(sessions).where(byUser(sessions.userId)).orderBy(sessions.createdAt ?? sessions.expires, sessions.sessionToken),
		{ session: sessions }
	);
	const accountsOfUser = compiledRead(
		exec,
		'listAccountsByUserId',
		db.select().from(accounts).where(byUser(accounts.userId)).orderBy(accounts.provider, accounts.providerAccountId),
		{ account: accounts }
	);
	const passkeysOfUser = compiledRead(
		exec,
		'listAuthenticatorsByUserId',
		db.select().from(authenticators).where(byUser(authenticators.userId)).orderBy(authenticators.credentialID),
		{ authenticator: authenticators }
	);
	const cutoffOf = compiledRead(exec, 'getSessionsValidAfter', db.select().from(cutoffs).where(byUser(cutoffs.userId)), { cutoff: cutoffs });

	// A user and everything that is theirs, in one statement (the foreign keys cascade too, but a
	// team's own tables may lack them, and the two-factor record has none: JWT users need not be
	// stored).
	const deleteUser = (id: string) => {
		const owned = [sessions, accounts, authenticators, passwords, ...(deletesTwoFactor ? [tables.twoFactorsTable] : [])];
		const gone = owned.map((table, i) =>
			db.$with(`gone${i}`).as(db.delete(table).where(eq(table.userId, id)).returning({ userId: table.userId }))
		);
		// One snapshot for the whole statement: the address's tokens are found through the user's row.
		const goneTokens = db.$with('goneTokens').as(db.delete(tokens).where(userTokens(tokens.identifier, users, id)).returning({ identifier: tokens.identifier }));
		return db
			.with(...gone, goneTokens)
			.delete(users)
			.where(eq(users.id, id))
			.returning();
	};

	// A password sign-in's one read: the user of the address and their hash.
	const passwordUserOf = compiledRead(
		exec,
		'getPasswordUser',
		db
			.select({ user: users, password: passwords })
			.from(users)
			.innerJoin(passwords, eq(passwords.userId, users.id))
			.where(eq(users.email, sql.placeholder('email'))),
		{ user: users, password: passwords }
	);

	// A new user and their password row in one statement: the user unless the email is taken
	// (a data-modifying CTE), then the password row selected from what that inserted.
	const insertPasswordUser = (user: Row, password: { hash: string; updatedAt: Date }) => {
		const created = db.$with('created').as(db.insert(users).values(user).onConflictDoNothing().returning({ id: users.id }));
		// drizzle writes timestamps as UTC without a zone; so does this (a raw Date would be local time).
		const updatedAt = password.updatedAt.toISOString().replace('T', ' ').replace('Z', '');
		const fields: Record<string, SQL | AnyPgColumn> = { userId: created.id, hash: sql`${password.hash}`, updatedAt: sql`${updatedAt}::timestamp` };
		const ordered = Object.fromEntries(Object.keys(getTableColumns(passwords)).map((key) => [key, fields[key]!]));
		return db
			.with(created)
			.insert(passwords)
			.select(db.select(ordered).from(created))
			.returning({ userId: passwords.userId });
	};

	return {
		users: {
			insertUser: (values) => run('createUser', () => first(db.insert(users).values(values).returning())),
			userById: (id) => run('getUser', () => first(db.select().from(users).where(eq(users.id, id)))),
			userByEmail: (email) => run('getUserByEmail', () => first(db.select().from(users).where(eq(users.email, email)))),
			userByAccount: (key) =>
				run('getUserByAccount', async () => {
					const [row] = await db.select({ user: users }).from(accounts).innerJoin(users, eq(users.id, accounts.userId)).where(accountIs(key));
					return row?.user as Row | undefined;
				}),
			updateUser: (id, values) => run('updateUser', () => first(db.update(users).set(values).where(eq(users.id, id)).returning())),
			deleteUser: (id) => run('deleteUser', () => first(deleteUser(id))),
			insertAccount: (values) => run('linkAccount', () => first(db.insert(accounts).values(values).returning())),
			account: (key) => run('getAccount', () => first(db.select().from(accounts).where(accountIs(key)))),
			accountsOfUser: async (userId) => (await accountsOfUser(userId)).map((row) => row.account),
			updateAccount: (key, values) => run('updateAccount', () => first(db.update(accounts).set(values).where(accountIs(key)).returning())),
			deleteAccount: (key) => run('unlinkAccount', () => first(db.delete(accounts).where(accountIs(key)).returning()))
		},

		sessions: {
			insertSession: (values, signal) => run('createSession', () => first(db.insert(sessions).values(values).returning()), signal),
			sessionAndUser: async (sessionToken) => (await sessionAndUser(sessionToken))[0] ?? null,
			session: (sessionToken) => run('updateSession', () => first(db.select().from(sessions).where(eq(sessions.sessionToken, sessionToken)))),
			updateSession: (sessionToken, values) =>
				run('updateSession', () => first(db.update(sessions).set(values).where(eq(sessions.sessionToken, sessionToken)).returning())),
			deleteSession: (sessionToken) =>
				run('deleteSession', () => first(db.delete(sessions).where(eq(sessions.sessionToken, sessionToken)).returning())),
			rekeySession: (sessionToken, newSessionToken) =>
				run('rekeySession', () =>
					first(db.update(sessions).set({ sessionToken: newSessionToken }).where(eq(sessions.sessionToken, sessionToken)).returning())
				),
			sessionsOfUser: async (userId) => (await sessionsOfUser(userId)).map((row) => row.session),
			deleteSessionsOfUser: (userId, keepSessionToken) =>
				run('deleteSessionsByUserId', async () => {
					const keep = keepSessionToken === undefined ? undefined : ne(sessions.sessionToken, keepSessionToken);
					const deleted = await db
						.delete(sessions)
						.where(and(eq(sessions.userId, userId), keep))
						.returning({ sessionToken: sessions.sessionToken });
					return deleted.length;
				}),
			insertVerificationToken: (values) => run('createVerificationToken', () => first(db.insert(tokens).values(values).returning())),
			consumeVerificationToken: (identifier, token) =>
				run('useVerificationToken', () =>
					first(db.delete(tokens).where(and(eq(tokens.identifier, identifier), eq(tokens.token, token))).returning())
				)
		},

		authenticators: {
			insertAuthenticator: (values) => run('createAuthenticator', () => first(db.insert(authenticators).values(values).returning())),
			authenticator: (credentialID) =>
				run('getAuthenticator', () => first(db.select().from(authenticators).where(eq(authenticators.credentialID, credentialID)))),
			authenticatorsOfUser: async (userId) => (await passkeysOfUser(userId)).map((row) => row.authenticator),
			setAuthenticatorCounter: (credentialID, counter) =>
				run('updateAuthenticatorCounter', () =>
					first(db.update(authenticators).set({ counter }).where(eq(authenticators.credentialID, credentialID)).returning())
				),
			recordAuthenticatorUse: (credentialID, expectedCounter, values) =>
				run('updateAuthenticatorUse', () =>
					first(
						db
							.update(authenticators)
							.set(values)
							.where(and(eq(authenticators.credentialID, credentialID), eq(authenticators.counter, expectedCounter)))
							.returning()
					)
				),
			renameAuthenticator: (credentialID, name) =>
				run('updateAuthenticatorName', () =>
					first(db.update(authenticators).set({ name }).where(eq(authenticators.credentialID, credentialID)).returning())
				),
			deleteAuthenticator: (credentialID) =>
				run('deleteAuthenticator', () => first(db.delete(authenticators).where(eq(authenticators.credentialID, credentialID)).returning()))
		},

		counters: pgCounters(exec, tables.rateLimitsTable),

		passwords: {
			insertPasswordUser: (user, password) =>
				run('createPasswordUser', async () => ((await insertPasswordUser(user, password)).length === 1 ? user : undefined)),
			passwordUser: async (email) => (await passwordUserOf(email))[0],
			replacePasswordHash: (userId, hash, expected) =>
				run('updatePasswordHash', async () => {
					const updated = await db
						.update(passwords)
						.set({ hash })
						.where(and(eq(passwords.userId, userId), eq(passwords.hash, expected)))
						.returning({ userId: passwords.userId });
					return updated.length === 1;
				}),
			setPasswordHash: (userId, hash, updatedAt) =>
				run('setPasswordHash', async () => {
					const updated = await db.update(passwords).set({ hash, updatedAt }).where(eq(passwords.userId, userId)).returning({ userId: passwords.userId });
					return updated.length === 1;
				})
		},

		twoFactors: pgTwoFactors(exec, tables.twoFactorsTable),

		cutoffs: {
			cutoff: async (userId) => (await cutoffOf(userId))[0]?.cutoff['validAfter'],
			raiseCutoff: (userId, at) =>
				run('setSessionsValidAfter', async () => {
					await db
						.insert(cutoffs)
						.values({ userId, validAfter: at })
						.onConflictDoUpdate({
							target: cutoffs.userId,
							set: { validAfter: sql`GREATEST(${cutoffs.validAfter}, excluded.${sql.identifier(cutoffs.validAfter.name)})` }
						});
				})
		}
	};
}
