/**
 * The `Password()` provider's users and password hashes (kitauth's `createPasswordUser`,
 * `getPasswordUser`, `updatePasswordHash`, `setPasswordHash`), over a dialect's statements.
 */
import type { Adapter } from '../../core/types/adapter.js';
import { columnValues, toUser, userValues } from './rows.js';
import type { DialectParts } from './statements.js';

type PasswordMethods = Required<Pick<Adapter, 'createPasswordUser' | 'getPasswordUser' | 'updatePasswordHash' | 'setPasswordHash'>>;

export function passwordMethods({ statements, tables, fail }: DialectParts): PasswordMethods {
	const st = statements.passwords;
	const hashOf = (hash: unknown, operation: string): string => {
		if (typeof hash !== 'string' || hash === '') throw fail(operation, 'INVALID_ARGUMENT', 'a password hash must be a non-empty string');
		return hash;
	};
	return {
		createPasswordUser: async (user, passwordHash) => {
			const hash = hashOf(passwordHash, 'createPasswordUser');
			const values = columnValues(tables.usersTable, userValues({ ...user, id: user.id || crypto.randomUUID() }));
			const row = await st.insertPasswordUser(values, { hash, updatedAt: new Date() });
			return row ? toUser(row) : null;
		},

		getPasswordUser: async (email) => {
			const found = await st.passwordUser(email);
			const hash = found?.password['hash'];
			return found && typeof hash === 'string' ? { user: toUser(found.user), passwordHash: hash } : null;
		},

		updatePasswordHash: async (userId, passwordHash, expectedHash) =>
			st.replacePasswordHash(userId, hashOf(passwordHash, 'updatePasswordHash'), hashOf(expectedHash, 'updatePasswordHash')),

		setPasswordHash: async (userId, passwordHash) => st.setPasswordHash(userId, hashOf(passwordHash, 'setPasswordHash'), new Date())
	};
}
