/**
 * The tables a SQLite adapter (libSQL, D1) works on: kitauth's own by default, or a team's
 * existing ones with the same column keys (`shared/tables.ts`).
 */
import type { AnySQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { type DialectTables, withCustomTables } from '../shared/tables.js';
import { accounts, authenticators, passwords, rateLimits, sessionCutoffs, sessions, twoFactors, users, verificationTokens } from './schema.js';

export type SQLiteTables = DialectTables<SQLiteTable, AnySQLiteColumn>;
export type UsersTable = SQLiteTables['usersTable'];
export type AccountsTable = SQLiteTables['accountsTable'];
export type SessionsTable = SQLiteTables['sessionsTable'];
export type VerificationTokensTable = SQLiteTables['verificationTokensTable'];
export type AuthenticatorsTable = SQLiteTables['authenticatorsTable'];
export type RateLimitsTable = SQLiteTables['rateLimitsTable'];
export type SessionCutoffsTable = SQLiteTables['sessionCutoffsTable'];
export type PasswordsTable = SQLiteTables['passwordsTable'];
export type TwoFactorsTable = SQLiteTables['twoFactorsTable'];

const defaults: SQLiteTables = {
	usersTable: users,
	accountsTable: accounts,
	sessionsTable: sessions,
	verificationTokensTable: verificationTokens,
	authenticatorsTable: authenticators,
	rateLimitsTable: rateLimits,
	sessionCutoffsTable: sessionCutoffs,
	passwordsTable: passwords,
	twoFactorsTable: twoFactors
};

export function resolveTables(custom: Partial<SQLiteTables> = {}): SQLiteTables {
	return withCustomTables(defaults, custom);
}
