/** WebAuthn authenticators (passkeys). */
import { and, eq, sql } from 'drizzle-orm';
import type { Adapter } from '../../core/types/adapter.js';
import type { AdapterAuthenticator } from '../../core/types/models.js';
import type { AdapterContext } from './context.js';
import { hotRead } from './hot-reads.js';
import { LibSQLAdapterError, notFound } from './errors.js';
import { columnValues, single, toAuthenticator, type Row } from './rows.js';

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

export function authenticatorMethods({ db, client, tables, guard }: AdapterContext): AuthenticatorMethods {
	const authenticators = tables.authenticatorsTable;

	// Read on every account page (the passkey list): compiled once (`hot-reads.ts`).
	const passkeysOrder = [authenticators.credentialID] as const;
	const passkeysOfUser = hotRead(
		client,
		db
			.select()
			.from(authenticators)
			.where(eq(authenticators.userId, sql.placeholder('userId')))
			.orderBy(...passkeysOrder),
		{ authenticator: authenticators },
		{ orderBy: passkeysOrder },
		(rows): AdapterAuthenticator[] => rows.map((row) => toAuthenticator(row.authenticator))
	);

	return {
		// Throws on failure, as the spec asks: a duplicate credentialID or an unknown user.
		createAuthenticator: (authenticator) =>
			guard.run('createAuthenticator', async () => {
				const values = columnValues(authenticators, authenticator);
				const [rows] = await db.batch([db.insert(authenticators).values(values).returning()]);
				return toAuthenticator(single(rows, 'createAuthenticator'));
			}),

		getAuthenticator: (credentialID) =>
			guard.run('getAuthenticator', async () => {
				const row: Row | undefined = await db
					.select()
					.from(authenticators)
					.where(eq(authenticators.credentialID, credentialID))
					.get();
				return row ? toAuthenticator(row) : null;
			}),

		listAuthenticatorsByUserId: (userId) => guard.read('listAuthenticatorsByUserId', passkeysOfUser, userId),

		updateAuthenticatorCounter: (credentialID, newCounter) =>
			guard.run('updateAuthenticatorCounter', async () => {
				const [rows] = await db.batch([
					db
						.update(authenticators)
						.set({ counter: newCounter })
						.where(eq(authenticators.credentialID, credentialID))
						.returning()
				]);
				const row = rows[0];
				if (!row) throw notFound('updateAuthenticatorCounter', 'No authenticator with this credentialID');
				return toAuthenticator(row);
			}),

		// One conditional UPDATE: of two sign-ins that read the same counter, only the first
		// changes the row; the other finds the counter moved and gets null.
		updateAuthenticatorUse: (credentialID, use) =>
			guard.run('updateAuthenticatorUse', async () => {
				const values = columnValues(authenticators, {
					counter: use.counter,
					credentialBackedUp: use.backedUp,
					lastUsedAt: use.usedAt
				});
				const [rows] = await db.batch([
					db
						.update(authenticators)
						.set(values)
						.where(and(eq(authenticators.credentialID, credentialID), eq(authenticators.counter, use.expectedCounter)))
						.returning()
				]);
				return rows[0] ? toAuthenticator(rows[0]) : null;
			}),

		updateAuthenticatorName: (credentialID, name) =>
			guard.run('updateAuthenticatorName', async () => {
				const values = columnValues(authenticators, { name });
				if (!Object.hasOwn(values, 'name')) {
					throw new LibSQLAdapterError('updateAuthenticatorName', 'UNKNOWN', 'the authenticators table has no name column');
				}
				const [rows] = await db.batch([
					db.update(authenticators).set({ name }).where(eq(authenticators.credentialID, credentialID)).returning()
				]);
				return rows[0] ? toAuthenticator(rows[0]) : null;
			}),

		deleteAuthenticator: (credentialID) =>
			guard.run('deleteAuthenticator', async () => {
				const [rows] = await db.batch([
					db.delete(authenticators).where(eq(authenticators.credentialID, credentialID)).returning()
				]);
				return rows[0] ? toAuthenticator(rows[0]) : null;
			})
	};
}
