/** WebAuthn authenticators (passkeys), over a dialect's statements. */
import type { Adapter } from '../../core/types/adapter.js';
import { columnValues, toAuthenticator } from './rows.js';
import type { DialectParts } from './statements.js';
import { inserted } from './users.js';

type AuthenticatorMethods = Required<
	Pick<
		Adapter,
		| 'createAuthenticator'
		| 'getAuthenticator'
		| 'listAuthenticatorsByUserId'
		| 'updateAuthenticatorCounter'
		| 'updateAuthenticatorUse'
		| 'updateAuthenticatorName'
		| 'deleteAuthenticator'
	>
>;

export function authenticatorMethods({ statements, tables, fail }: DialectParts): AuthenticatorMethods {
	const st = statements.authenticators;
	const authenticators = tables.authenticatorsTable;

	return {
		// Throws on failure, as the spec asks: a duplicate credentialID or an unknown user.
		createAuthenticator: async (authenticator) =>
			toAuthenticator(inserted(await st.insertAuthenticator(columnValues(authenticators, authenticator)), 'createAuthenticator', fail)),

		getAuthenticator: async (credentialID) => {
			const row = await st.authenticator(credentialID);
			return row ? toAuthenticator(row) : null;
		},

		listAuthenticatorsByUserId: async (userId) => (await st.authenticatorsOfUser(userId)).map(toAuthenticator),

		updateAuthenticatorCounter: async (credentialID, newCounter) => {
			const row = await st.setAuthenticatorCounter(credentialID, newCounter);
			if (!row) throw fail('updateAuthenticatorCounter', 'NOT_FOUND', 'No authenticator with this credentialID');
			return toAuthenticator(row);
		},

		// One conditional UPDATE: of two sign-ins that read the same counter, only the first
		// changes the row; the other finds the counter moved and gets null.
		updateAuthenticatorUse: async (credentialID, use) => {
			const values = columnValues(authenticators, {
				counter: use.counter,
				credentialBackedUp: use.backedUp,
				lastUsedAt: use.usedAt
			});
			const row = await st.recordAuthenticatorUse(credentialID, use.expectedCounter, values);
			return row ? toAuthenticator(row) : null;
		},

		updateAuthenticatorName: async (credentialID, name) => {
			if (!Object.hasOwn(columnValues(authenticators, { name }), 'name')) {
				throw fail('updateAuthenticatorName', 'UNKNOWN', 'the authenticators table has no name column');
			}
			const row = await st.renameAuthenticator(credentialID, name);
			return row ? toAuthenticator(row) : null;
		},

		deleteAuthenticator: async (credentialID) => {
			const row = await st.deleteAuthenticator(credentialID);
			return row ? toAuthenticator(row) : null;
		}
	};
}
