/**
 * The column keys each table of an adapter must have (and may have), in every dialect: kitauth's
 * tables by default, or a team's existing ones (as with `@auth/drizzle-adapter`: pass
 * `usersTable`, `accountsTable`, … with the same column keys). Each dialect's `tables.ts` makes
 * these its own table types.
 */
export interface TableKeys {
	usersTable: ['id' | 'name' | 'email' | 'emailVerified' | 'image', never];
	accountsTable: [
		'userId' | 'type' | 'provider' | 'providerAccountId',
		'refresh_token' | 'access_token' | 'expires_at' | 'token_type' | 'scope' | 'id_token' | 'session_state'
	];
	/** `createdAt`, `userAgent` and `factors` are kitauth's: an Auth.js sessions table works without them. */
	sessionsTable: ['sessionToken' | 'userId' | 'expires', 'createdAt' | 'userAgent' | 'factors'];
	verificationTokensTable: ['identifier' | 'token' | 'expires', never];
	/** `name`, `aaguid`, `createdAt` and `lastUsedAt` are kitauth's: an Auth.js table works without them. */
	authenticatorsTable: [
		| 'credentialID'
		| 'userId'
		| 'providerAccountId'
		| 'credentialPublicKey'
		| 'counter'
		| 'credentialDeviceType'
		| 'credentialBackedUp'
		| 'transports',
		'name' | 'aaguid' | 'createdAt' | 'lastUsedAt'
	];
	/** kitauth's: the rate limiter's counters. */
	rateLimitsTable: ['key' | 'count' | 'resetAt', never];
	/** kitauth's: per-user session cutoffs (JWT revocation). */
	sessionCutoffsTable: ['userId' | 'validAfter', never];
	/** kitauth's: the `Password()` provider's password hashes, one per user. */
	passwordsTable: ['userId' | 'hash' | 'updatedAt', never];
	/** kitauth's: two-factor records (TOTP and backup codes). */
	twoFactorsTable: ['userId' | 'secret' | 'enabledAt' | 'lastStep' | 'backupCodes' | 'devicesValidAfter' | 'createdAt', never];
}

/** A dialect's table type with the columns `TableKeys[K]` names, of that dialect's column type. */
export type TableWith<T, C, K extends keyof TableKeys> = T &
	Record<TableKeys[K][0], C> &
	Partial<Record<TableKeys[K][1], C>>;

/** Every table of a dialect, by the option key that replaces it. */
export type DialectTables<T, C> = { [K in keyof TableKeys]: TableWith<T, C, K> };

/** The default tables, each replaced by the custom one given for its key. */
export function withCustomTables<T extends object>(defaults: T, custom: Partial<T>): T {
	const tables = { ...defaults };
	for (const key of Object.keys(defaults) as (keyof T)[]) {
		const table = custom[key];
		if (table !== undefined) tables[key] = table;
	}
	return tables;
}

/**
 * Does `deleteUser` delete the user's two-factor record? Where the table is known to exist:
 * kitauth's own tables (its migrations made it), or a `twoFactorsTable` the app gave. An app on
 * its own tables without one keeps the `deleteUser` it had. (No foreign key does it: credentials
 * users on JWT sessions need not be stored.)
 */
export function deletesTwoFactor(custom: { usersTable?: unknown; twoFactorsTable?: unknown }): boolean {
	return custom.twoFactorsTable !== undefined || custom.usersTable === undefined;
}
