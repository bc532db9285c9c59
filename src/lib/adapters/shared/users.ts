/** Users and accounts, over a dialect's statements. */
import type { Adapter } from '../../core/types/adapter.js';
import type { AdapterUser } from '../../core/types/models.js';
import { columnValues, toAccount, toUser, userValues, type Row } from './rows.js';
import type { DialectParts, Fail } from './statements.js';

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

/** The one row an INSERT … RETURNING gives back. */
export function inserted(row: Row | undefined, operation: string, fail: Fail): Row {
	if (!row) throw fail(operation, 'UNKNOWN', 'the database returned no row');
	return row;
}

export function userMethods({ statements, tables, fail }: DialectParts): UserMethods {
	const st = statements.users;
	const { usersTable: users, accountsTable: accounts } = tables;

	const getUser = async (id: string): Promise<AdapterUser | null> => {
		const row = await st.userById(id);
		return row ? toUser(row) : null;
	};

	return {
		// Auth.js core passes the user without an id; the adapter makes one.
		createUser: async (user) => {
			const values = columnValues(users, userValues({ ...user, id: user.id || crypto.randomUUID() }));
			return toUser(inserted(await st.insertUser(values), 'createUser', fail));
		},

		getUser,

		getUserByEmail: async (email) => {
			const row = await st.userByEmail(email);
			return row ? toUser(row) : null;
		},

		getUserByAccount: async (key) => {
			const row = await st.userByAccount({ provider: key.provider, providerAccountId: key.providerAccountId });
			return row ? toUser(row) : null;
		},

		updateUser: async ({ id, ...fields }) => {
			const values = columnValues(users, userValues(fields));
			delete values['id'];
			const row = Object.keys(values).length === 0 ? await st.userById(id) : await st.updateUser(id, values);
			if (!row) throw fail('updateUser', 'NOT_FOUND', 'No user with this id');
			return toUser(row);
		},

		deleteUser: async (userId) => {
			const row = await st.deleteUser(userId);
			return row ? toUser(row) : null;
		},

		linkAccount: async (account) =>
			toAccount(inserted(await st.insertAccount(columnValues(accounts, account)), 'linkAccount', fail)),

		unlinkAccount: async ({ provider, providerAccountId }) => {
			const row = await st.deleteAccount({ provider, providerAccountId });
			return row ? toAccount(row) : undefined;
		},

		// Token fields only: who the account belongs to and what it is never change here.
		updateAccount: async ({ provider, providerAccountId, ...fields }) => {
			const values = columnValues(accounts, fields);
			for (const fixed of ['userId', 'type', 'provider', 'providerAccountId']) delete values[fixed];
			const key = { provider, providerAccountId };
			const row = Object.keys(values).length === 0 ? await st.account(key) : await st.updateAccount(key, values);
			return row ? toAccount(row) : null;
		},

		// Note the argument order: (providerAccountId, provider), as in Auth.js.
		getAccount: async (providerAccountId, provider) => {
			const row = await st.account({ provider, providerAccountId });
			return row ? toAccount(row) : null;
		},

		listAccountsByUserId: async (userId) => (await st.accountsOfUser(userId)).map(toAccount)
	};
}
