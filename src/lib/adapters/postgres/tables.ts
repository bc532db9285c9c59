/**
 * The tables the PostgreSQL adapter works on: kitauth's own by default, or a team's existing
 * ones with the same column keys (`shared/tables.ts`).
 */
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { type DialectTables, withCustomTables } from '../shared/tables.js';
import { accounts, authenticators, passwords, rateLimits, sessionCutoffs, sessions, twoFactors, users, verificationTokens } from './schema.js';

export type PostgresTables = DialectTables<PgTable, AnyPgColumn>;

const defaults: PostgresTables = {
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

export function resolveTables(custom: Partial<PostgresTables> = {}): PostgresTables {
	return withCustomTables(defaults, custom);
}
