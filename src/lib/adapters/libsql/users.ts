/**
 * Users and accounts. Every write is a single `batch` (one explicit transaction, see `guard.ts`).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Adapter } from '../../core/types/adapter.js';
import type { AdapterAccount, AdapterUser } from '../../core/types/models.js';
import type { AdapterContext } from './context.js';
import { hotRead } from './hot-reads.js';
import { notFound } from './errors.js';
import { columnValues, single, toAccount, toUser, userValues, type Row } from './rows.js';

type UserMethods = Required<
	Pick<
		Adapter,
		| 'createUser'
		| 'getUser'
		| 'getUserByEmail'
		| 'getUserByAccount'
		| 'updateUser'
		| 'deleteUser'
		| 'linkAccount'
		| 'unlinkAccount'
		| 'getAccount'
		| 'listAccountsByUserId'
		| 'updateAccount'
	>
>;

export function userMethods({ db, client, tables, guard, deletesTwoFactor }: AdapterContext): UserMethods {
	const { usersTable: users, accountsTable: accounts } = tables;
	const sessions = tables.sessionsTable;
	const authenticators = tables.authenticatorsTable;

	const getUser = (id: string): Promise<AdapterUser | null> =>
		guard.run('getUser', async () => {
			const row: Row | undefined = await db.select().from(users).where(eq(users.id, id)).get();
			return row ? toUser(row) : null;
		});

	// Read on every account page (linked accounts, access tokens): compiled once (`hot-reads.ts`).
	const accountsOrder = [accounts.provider, accounts.providerAccountId] as const;
	const accountsOfUser = hotRead(
		client,
		db
			.select()
			.from(accounts)
			.where(eq(accounts.userId, sql.placeholder('userId')))
			.orderBy(...accountsOrder),
		{ account: accounts },
		{ orderBy: accountsOrder },
		(rows): AdapterAccount[] => rows.map((row) => toAccount(row.account))
	);

	return {
		// Auth.js core passes the user without an id; the adapter makes one.
		createUser: (user) =>
			guard.run('createUser', async () => {
				const values = columnValues(users, userValues({ ...user, id: user.id || crypto.randomUUID() }));
				const [rows] = await db.batch([db.insert(users).values(values).returning()]);
				return toUser(single(rows, 'createUser'));
			}),

		getUser,

		getUserByEmail: (email) =>
			guard.run('getUserByEmail', async () => {
				const row: Row | undefined = await db
					.select()
					.from(users)
					.where(eq(users.email, email))
					.get();
				return row ? toUser(row) : null;
			}),

		getUserByAccount: ({ provider, providerAccountId }) =>
			guard.run('getUserByAccount', async () => {
				const row = await db
					.select({ user: users })
					.from(accounts)
					.innerJoin(users, eq(users.id, accounts.userId))
					.where(
						and(eq(accounts.provider, provider), eq(accounts.providerAccountId, providerAccountId))
					)
					.get();
				return row ? toUser(row.user) : null;
			}),

		updateUser: async ({ id, ...fields }) => {
			const values = columnValues(users, userValues(fields));
			delete values['id'];
			if (Object.keys(values).length === 0) {
				const user = await getUser(id);
				if (!user) throw notFound('updateUser', 'No user with this id');
				return user;
			}
			return guard.run('updateUser', async () => {
				const [rows] = await db.batch([
					db.update(users).set(values).where(eq(users.id, id)).returning()
				]);
				const row = rows[0];
				if (!row) throw notFound('updateUser', 'No user with this id');
				return toUser(row);
			});
		},

		// The explicit deletes make the cascade independent of `PRAGMA foreign_keys` (on by default
		// in libsql, and the foreign keys say ON DELETE CASCADE too).
		deleteUser: (userId) =>
			guard.run('deleteUser', async () => {
				const twoFactor = tables.twoFactorsTable;
				const results = await db.batch([
					db.delete(sessions).where(eq(sessions.userId, userId)),
					db.delete(accounts).where(eq(accounts.userId, userId)),
					db.delete(authenticators).where(eq(authenticators.userId, userId)),
					// No foreign key (JWT users need not be stored): deleted here, so a user made
					// later under the same id (an app's own ids) does not inherit the second factor.
					...(deletesTwoFactor ? [db.delete(twoFactor).where(eq(twoFactor.userId, userId))] : []),
					db.delete(users).where(eq(users.id, userId)).returning()
				]);
				const deleted = results[results.length - 1] as Row[];
				const row = deleted[0];
				return row ? toUser(row) : null;
			}),

		linkAccount: (account) =>
			guard.run('linkAccount', async () => {
				const values = columnValues(accounts, account);
				const [rows] = await db.batch([db.insert(accounts).values(values).returning()]);
				return toAccount(single(rows, 'linkAccount'));
			}),

		unlinkAccount: ({ provider, providerAccountId }) =>
			guard.run('unlinkAccount', async () => {
				const [rows] = await db.batch([
					db
						.delete(accounts)
						.where(
							and(eq(accounts.provider, provider), eq(accounts.providerAccountId, providerAccountId))
						)
						.returning()
				]);
				const row = rows[0];
				return row ? toAccount(row) : undefined;
			}),

		// Token fields only: who the account belongs to and what it is never change here.
		updateAccount: ({ provider, providerAccountId, ...fields }) =>
			guard.run('updateAccount', async () => {
				const values = columnValues(accounts, fields);
				for (const fixed of ['userId', 'type', 'provider', 'providerAccountId']) delete values[fixed];
				const where = and(eq(accounts.provider, provider), eq(accounts.providerAccountId, providerAccountId));
				if (Object.keys(values).length === 0) {
					const row: Row | undefined = await db.select().from(accounts).where(where).get();
					return row ? toAccount(row) : null;
				}
				const [rows] = await db.batch([db.update(accounts).set(values).where(where).returning()]);
				const row = rows[0];
				return row ? toAccount(row) : null;
			}),

		// Note the argument order: (providerAccountId, provider), as in Auth.js.
		getAccount: (providerAccountId, provider) =>
			guard.run('getAccount', async () => {
				const row: Row | undefined = await db
					.select()
					.from(accounts)
					.where(
						and(eq(accounts.provider, provider), eq(accounts.providerAccountId, providerAccountId))
					)
					.get();
				return row ? toAccount(row) : null;
			}),

		listAccountsByUserId: (userId) => guard.read('listAccountsByUserId', accountsOfUser, userId)
	};
}
