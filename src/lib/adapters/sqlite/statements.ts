/**
 * The SQLite statements (drizzle `sqlite-core`), shared by the engines that speak SQLite: libSQL
 * and Cloudflare D1. What differs between them is how a statement runs (`SQLiteExec`): libSQL's
 * guard with its busy retries and its reads compiled onto its own connection, D1's binding. Every
 * write is one `batch`: one explicit transaction on both.
 */
import { and, eq, getTableColumns, ne, sql, type SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Row } from '../shared/rows.js';
import type { AccountKey, CounterStatements, Statements } from '../shared/statements.js';
import { userTokens } from '../shared/user-tokens.js';
import { relaxedInsert } from './compiled-insert.js';
import type { SQLiteExec } from './exec.js';
import type { SQLiteTables } from './tables.js';
import { sqliteTwoFactors } from './two-factor.js';

export type { BuiltRead, ReadShape, SQLiteDb, SQLiteExec } from './exec.js';

/** The rows of the `index`-th query of a batch (one with RETURNING). */
function rowsAt(results: unknown[], index: number): Row[] {
	return results[index] as Row[];
}

/**
 * Everything but the counters, whose statements each engine runs its own way. `deletesTwoFactor`:
 * `deleteUser` deletes the user's two-factor record too (`shared/tables.ts`).
 */
export function sqliteStatements(exec: SQLiteExec, tables: SQLiteTables, counters: CounterStatements, deletesTwoFactor: boolean): Statements {
	const { db, run, batch } = exec;
	const { usersTable: users, accountsTable: accounts, sessionsTable: sessions } = tables;
	const { verificationTokensTable: tokens, authenticatorsTable: authenticators, sessionCutoffsTable: cutoffs } = tables;
	const { passwordsTable: passwords } = tables;
	/** The first RETURNING row of a one-statement write. */
	const write = async (query: BatchItem<'sqlite'>): Promise<Row | undefined> => rowsAt(await batch([query]), 0)[0];
	const accountIs = ({ provider, providerAccountId }: AccountKey) =>
		and(eq(accounts.provider, provider), eq(accounts.providerAccountId, providerAccountId));

	// The write every sign-in makes, compiled once per set of columns.
	const insertSession = relaxedInsert(exec, sessions, 'createSession');
	// The reads a signed-in page pays for, compiled once.
	const sessionAndUser = exec.read(
		'getSessionAndUser',
		db
			.select({ session: sessions, user: users })
			.from(sessions)
			.innerJoin(users, eq(users.id, sessions.userId))
			.where(eq(sessions.sessionToken, sql.placeholder('sessionToken'))),
		{ session: sessions, user: users },
		{ single: true }
	);
	// Oldest first; tables adopted without `createdAt` fall back to expiry.
	const sessionsOrder = [sessions.createdAt ?? sessions.expires, sessions.sessionToken] as const;
	const sessionsOfUser = exec.read(
		'listSessionsByUserId',
		db.select().from(sessions).where(eq(sessions.userId, sql.placeholder('userId'))).orderBy(...sessionsOrder),
		{ session: sessions },
		{ orderBy: sessionsOrder }
	);
	const accountsOrder = [accounts.provider, accounts.providerAccountId] as const;
	const accountsOfUser = exec.read(
		'listAccountsByUserId',
		db.select().from(accounts).where(eq(accounts.userId, sql.placeholder('userId'))).orderBy(...accountsOrder),
		{ account: accounts },
		{ orderBy: accountsOrder }
	);
	const passkeysOrder = [authenticators.credentialID] as const;
	const passkeysOfUser = exec.read(
		'listAuthenticatorsByUserId',
		db.select().from(authenticators).where(eq(authenticators.userId, sql.placeholder('userId'))).orderBy(...passkeysOrder),
		{ authenticator: authenticators },
		{ orderBy: passkeysOrder }
	);
	// A password sign-in's one read: the user of the address and their hash.
	const passwordUserOf = exec.read(
		'getPasswordUser',
		db
			.select({ user: users, password: passwords })
			.from(users)
			.innerJoin(passwords, eq(passwords.userId, users.id))
			.where(eq(users.email, sql.placeholder('email'))),
		{ user: users, password: passwords },
		{ single: true }
	);
	// Read by every sign-in of a returning user (credentials, passkeys), and by the session list.
	const userOf = exec.read('getUser', db.select().from(users).where(eq(users.id, sql.placeholder('id'))), { user: users }, { single: true });
	// Read by a credentials sign-in on database sessions whose user is not stored under its id.
	const userOfEmail = exec.read('getUserByEmail', db.select().from(users).where(eq(users.email, sql.placeholder('email'))), { user: users }, { single: true });
	// Read on JWT session reads (at most once per `revocationCheckInterval` per user and process).
	const cutoffOf = exec.read(
		'getSessionsValidAfter',
		db.select().from(cutoffs).where(eq(cutoffs.userId, sql.placeholder('userId'))),
		{ cutoff: cutoffs },
		{ single: true }
	);

	return {
		users: {
			insertUser: (values) => run('createUser', () => write(db.insert(users).values(values).returning())),
			userById: async (id) => (await userOf(id))?.user,
			userByEmail: async (email) => (await userOfEmail(email))?.user,
			userByAccount: (key) =>
				run('getUserByAccount', async () => {
					const row = await db
						.select({ user: users })
						.from(accounts)
						.innerJoin(users, eq(users.id, accounts.userId))
						.where(accountIs(key))
						.get();
					return row?.user as Row | undefined;
				}),
			updateUser: (id, values) => run('updateUser', () => write(db.update(users).set(values).where(eq(users.id, id)).returning())),
			// The explicit deletes make the cascade independent of `PRAGMA foreign_keys` (on by default
			// in libsql and D1, and the foreign keys say ON DELETE CASCADE too).
			deleteUser: (id) =>
				run('deleteUser', async () => {
					const twoFactors = tables.twoFactorsTable;
					const results = await batch([
						db.delete(sessions).where(eq(sessions.userId, id)),
						db.delete(accounts).where(eq(accounts.userId, id)),
						db.delete(authenticators).where(eq(authenticators.userId, id)),
						db.delete(passwords).where(eq(passwords.userId, id)),
						// Before the user's row goes: the address's tokens are found through it.
						db.delete(tokens).where(userTokens(tokens.identifier, users, id)),
						// No foreign key (JWT users need not be stored): deleted here, so a user made
						// later under the same id (an app's own ids) does not inherit the second factor.
						...(deletesTwoFactor ? [db.delete(twoFactors).where(eq(twoFactors.userId, id))] : []),
						db.delete(users).where(eq(users.id, id)).returning()
					]);
					return rowsAt(results, results.length - 1)[0];
				}),
			insertAccount: (values) => run('linkAccount', () => write(db.insert(accounts).values(values).returning())),
			account: (key) => run('getAccount', async () => (await db.select().from(accounts).where(accountIs(key)).get()) as Row | undefined),
			accountsOfUser: async (userId) => (await accountsOfUser(userId)).map((row) => row.account),
			updateAccount: (key, values) => run('updateAccount', () => write(db.update(accounts).set(values).where(accountIs(key)).returning())),
			deleteAccount: (key) => run('unlinkAccount', () => write(db.delete(accounts).where(accountIs(key)).returning()))
		},

		sessions: {
			// A new session need not wait for the disk: a power cut that forgets it only asks its user
			// to sign in again (its cookie then finds no row). On a libSQL file that fsync was ~5–10 ms
			// of a ~0.4 ms sign-in on the project's machine. Every removal (sign-out, revocation) and
			// every other write still waits for it. See `compiled-insert.ts`.
			insertSession,
			sessionAndUser,
			session: (sessionToken) =>
				run('updateSession', async () => (await db.select().from(sessions).where(eq(sessions.sessionToken, sessionToken)).get()) as Row | undefined),
			updateSession: (sessionToken, values) =>
				run('updateSession', () => write(db.update(sessions).set(values).where(eq(sessions.sessionToken, sessionToken)).returning())),
			deleteSession: (sessionToken) =>
				run('deleteSession', () => write(db.delete(sessions).where(eq(sessions.sessionToken, sessionToken)).returning())),
			rekeySession: (sessionToken, newSessionToken) =>
				run('rekeySession', () =>
					write(db.update(sessions).set({ sessionToken: newSessionToken }).where(eq(sessions.sessionToken, sessionToken)).returning())
				),
			sessionsOfUser: async (userId) => (await sessionsOfUser(userId)).map((row) => row.session),
			deleteSessionsOfUser: (userId, keepSessionToken) =>
				run('deleteSessionsByUserId', async () => {
					const keep = keepSessionToken === undefined ? undefined : ne(sessions.sessionToken, keepSessionToken);
					const deleted = db
						.delete(sessions)
						.where(and(eq(sessions.userId, userId), keep))
						.returning({ sessionToken: sessions.sessionToken });
					return rowsAt(await batch([deleted]), 0).length;
				}),
			insertVerificationToken: (values) => run('createVerificationToken', () => write(db.insert(tokens).values(values).returning())),
			consumeVerificationToken: (identifier, token) =>
				run('useVerificationToken', () =>
					write(db.delete(tokens).where(and(eq(tokens.identifier, identifier), eq(tokens.token, token))).returning())
				)
		},

		authenticators: {
			insertAuthenticator: (values) => run('createAuthenticator', () => write(db.insert(authenticators).values(values).returning())),
			authenticator: (credentialID) =>
				run('getAuthenticator', async () =>
					(await db.select().from(authenticators).where(eq(authenticators.credentialID, credentialID)).get()) as Row | undefined
				),
			authenticatorsOfUser: async (userId) => (await passkeysOfUser(userId)).map((row) => row.authenticator),
			setAuthenticatorCounter: (credentialID, counter) =>
				run('updateAuthenticatorCounter', () =>
					write(db.update(authenticators).set({ counter }).where(eq(authenticators.credentialID, credentialID)).returning())
				),
			recordAuthenticatorUse: (credentialID, expectedCounter, values) =>
				run('updateAuthenticatorUse', () =>
					write(
						db
							.update(authenticators)
							.set(values)
							.where(and(eq(authenticators.credentialID, credentialID), eq(authenticators.counter, expectedCounter)))
							.returning()
					)
				),
			renameAuthenticator: (credentialID, name) =>
				run('updateAuthenticatorName', () =>
					write(db.update(authenticators).set({ name }).where(eq(authenticators.credentialID, credentialID)).returning())
				),
			deleteAuthenticator: (credentialID) =>
				run('deleteAuthenticator', () => write(db.delete(authenticators).where(eq(authenticators.credentialID, credentialID)).returning()))
		},

		counters,

		passwords: {
			// One batch (one transaction): the user, unless the email is taken, then their password
			// row, selected from the user just inserted (its id is new, so none means none was).
			insertPasswordUser: (user, password) =>
				run('createPasswordUser', async () => {
					const id = String(user['id']);
					const fields: Record<string, SQL | AnySQLiteColumn> = { userId: users.id, hash: sql`${password.hash}`, updatedAt: sql`${password.updatedAt.getTime()}` };
					const ordered = Object.fromEntries(Object.keys(getTableColumns(passwords)).map((key) => [key, fields[key]!]));
					const results = await batch([
						db.insert(users).values(user).onConflictDoNothing().returning(),
						db.insert(passwords).select(db.select(ordered).from(users).where(eq(users.id, id)))
					]);
					return rowsAt(results, 0)[0];
				}),
			passwordUser: async (email) => (await passwordUserOf(email)) ?? undefined,
			replacePasswordHash: (userId, hash, expected) =>
				run('updatePasswordHash', async () => {
					const updated = db
						.update(passwords)
						.set({ hash })
						.where(and(eq(passwords.userId, userId), eq(passwords.hash, expected)))
						.returning({ userId: passwords.userId });
					return rowsAt(await batch([updated]), 0).length === 1;
				}),
			setPasswordHash: (userId, hash, updatedAt) =>
				run('setPasswordHash', async () => {
					const updated = db.update(passwords).set({ hash, updatedAt }).where(eq(passwords.userId, userId)).returning({ userId: passwords.userId });
					return rowsAt(await batch([updated]), 0).length === 1;
				})
		},

		twoFactors: sqliteTwoFactors(exec, tables.twoFactorsTable),

		cutoffs: {
			cutoff: async (userId) => (await cutoffOf(userId))?.cutoff['validAfter'],
			raiseCutoff: (userId, at) =>
				run('setSessionsValidAfter', async () => {
					await batch([
						db
							.insert(cutoffs)
							.values({ userId, validAfter: at })
							.onConflictDoUpdate({
								target: cutoffs.userId,
								set: { validAfter: sql`MAX(${cutoffs.validAfter}, excluded.${sql.identifier(cutoffs.validAfter.name)})` }
							})
					]);
				})
		}
	};
}
