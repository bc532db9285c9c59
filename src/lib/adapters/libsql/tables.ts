/**
 * The tables an adapter works on: kitauth's own by default, or a team's existing ones (as with
 * `@auth/drizzle-adapter`: pass `usersTable`, `accountsTable`, … with the same column keys).
 */
import type { AnySQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { accounts, authenticators, rateLimits, sessionCutoffs, sessions, twoFactors, users, verificationTokens } from './schema.js';

type Columns<Required extends string, Optional extends string = never> = SQLiteTable &
	Record<Required, AnySQLiteColumn> &
	Partial<Record<Optional, AnySQLiteColumn>>;

export type UsersTable = Columns<'id' | 'name' | 'email' | 'emailVerified' | 'image'>;
export type AccountsTable = Columns<
	'userId' | 'type' | 'provider' | 'providerAccountId',
	| 'refresh_token'
	| 'access_token'
	| 'expires_at'
	| 'token_type'
	| 'scope'
	| 'id_token'
	| 'session_state'
>;
/** `createdAt`, `userAgent` and `factors` are kitauth's: an Auth.js sessions table works without them. */
export type SessionsTable = Columns<'sessionToken' | 'userId' | 'expires', 'createdAt' | 'userAgent' | 'factors'>;
export type VerificationTokensTable = Columns<'identifier' | 'token' | 'expires'>;
/** `name`, `aaguid`, `createdAt` and `lastUsedAt` are kitauth's: an Auth.js table works without them. */
export type AuthenticatorsTable = Columns<
	| 'credentialID'
	| 'userId'
	| 'providerAccountId'
	| 'credentialPublicKey'
	| 'counter'
	| 'credentialDeviceType'
	| 'credentialBackedUp'
	| 'transports',
	'name' | 'aaguid' | 'createdAt' | 'lastUsedAt'
>;

/** kitauth's: the rate limiter's counters. */
export type RateLimitsTable = Columns<'key' | 'count' | 'resetAt'>;
/** kitauth's: per-user session cutoffs (JWT revocation). */
export type SessionCutoffsTable = Columns<'userId' | 'validAfter'>;
/** kitauth's: two-factor records. */
export type TwoFactorsTable = Columns<'userId' | 'secret' | 'enabledAt' | 'lastStep' | 'backupCodes' | 'devicesValidAfter' | 'createdAt'>;

export interface LibSQLTables {
	usersTable: UsersTable;
	accountsTable: AccountsTable;
	sessionsTable: SessionsTable;
	verificationTokensTable: VerificationTokensTable;
	authenticatorsTable: AuthenticatorsTable;
	rateLimitsTable: RateLimitsTable;
	sessionCutoffsTable: SessionCutoffsTable;
	twoFactorsTable: TwoFactorsTable;
}

export function resolveTables(custom: Partial<LibSQLTables> = {}): LibSQLTables {
	return {
		usersTable: custom.usersTable ?? users,
		accountsTable: custom.accountsTable ?? accounts,
		sessionsTable: custom.sessionsTable ?? sessions,
		verificationTokensTable: custom.verificationTokensTable ?? verificationTokens,
		authenticatorsTable: custom.authenticatorsTable ?? authenticators,
		rateLimitsTable: custom.rateLimitsTable ?? rateLimits,
		sessionCutoffsTable: custom.sessionCutoffsTable ?? sessionCutoffs,
		twoFactorsTable: custom.twoFactorsTable ?? twoFactors
	};
}
