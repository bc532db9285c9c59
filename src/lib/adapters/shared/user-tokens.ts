/**
 * The verification tokens `deleteUser` removes with a user: those of their address (email
 * sign-in links and codes: the identifier is the address) and the `Password()` provider's link
 * tokens (reset, confirmation, email change), whose identifier is
 * `kitauth:<purpose>:<provider>:<userId>` (`core/flows/password/link-token.ts`). Matched exactly,
 * in SQL both SQLite and PostgreSQL run: the identifier ends in `:<userId>`, and what precedes
 * that has exactly two colons (so the tokens of a user `x:<userId>` are not this user's).
 */
import { type Column, sql, type SQL, type Table } from 'drizzle-orm';

export function userTokens(identifier: Column, users: Table & { id: Column; email: Column }, userId: string): SQL {
	const prefix = sql`substr(${identifier}, 1, length(${identifier}) - length(${userId}) - 1)`;
	const ofAddress = sql`${identifier} IN (SELECT ${users.email} FROM ${users} WHERE ${users.id} = ${userId})`;
	const linkToken = sql`(${identifier} LIKE 'kitauth:%' AND substr(${identifier}, length(${identifier}) - length(${userId})) = (':' || ${userId}) AND length(${prefix}) - length(replace(${prefix}, ':', '')) = 2)`;
	return sql`(${ofAddress} OR ${linkToken})`;
}
