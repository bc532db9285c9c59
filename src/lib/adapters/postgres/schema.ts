/**
 * The tables of the PostgreSQL adapter (drizzle-orm `pg-core`).
 *
 * Table and column names, types and constraints are those of `@auth/drizzle-adapter`'s Postgres
 * schema, so a database made by Auth.js keeps working (its tables are adopted by `migrate()`):
 * camelCase for the service's own fields, snake_case for the OAuth token fields. The first
 * migration is exactly that schema; the second adds kitauth's: `session.createdAt`,
 * `session.userAgent`, the passkey list's `authenticator.name`, `aaguid`, `createdAt`,
 * `lastUsedAt`, indexes on the `userId` of sessions, accounts and authenticators (sign-out
 * everywhere and the lists read by user), the limiter's `rateLimit` counters and the JWT
 * revocation's `sessionCutoff`. The third adds two-factor authentication: `twoFactor` and
 * `session.factors`. The fourth adds `password`: the password hashes of the `Password()`
 * provider's users.
 *
 * Dates are `timestamp` (without time zone, as Auth.js has them), read and written as UTC by
 * drizzle, with microsecond precision: milliseconds round-trip exactly. The counters' times are
 * plain `bigint` milliseconds: they are compared, never shown.
 */
import { bigint, boolean, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import type { AdapterAccount } from '../../core/types/models.js';

export const users = pgTable('user', {
	id: text('id')
		.primaryKey()
		.$defaultFn(() => crypto.randomUUID()),
	name: text('name'),
	email: text('email').unique(),
	emailVerified: timestamp('emailVerified', { mode: 'date' }),
	image: text('image')
});

export const accounts = pgTable(
	'account',
	{
		userId: text('userId')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		type: text('type').$type<AdapterAccount['type']>().notNull(),
		provider: text('provider').notNull(),
		providerAccountId: text('providerAccountId').notNull(),
		refresh_token: text('refresh_token'),
		access_token: text('access_token'),
		/** Seconds since the epoch, as OAuth sends it. */
		expires_at: integer('expires_at'),
		token_type: text('token_type'),
		scope: text('scope'),
		id_token: text('id_token'),
		session_state: text('session_state')
	},
	(account) => [
		primaryKey({ columns: [account.provider, account.providerAccountId] }),
		index('account_userId_idx').on(account.userId)
	]
);

export const sessions = pgTable(
	'session',
	{
		sessionToken: text('sessionToken').primaryKey(),
		userId: text('userId')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		expires: timestamp('expires', { mode: 'date' }).notNull(),
		/** kitauth. Nullable: rows adopted from an Auth.js database have none. */
		createdAt: timestamp('createdAt', { mode: 'date' }),
		/** kitauth: a short description of the client, for the session list. */
		userAgent: text('userAgent'),
		/** kitauth: what the sign-in proved (`session.factors`), comma-separated. */
		factors: text('factors')
	},
	(session) => [index('session_userId_idx').on(session.userId)]
);

export const verificationTokens = pgTable(
	'verificationToken',
	{
		identifier: text('identifier').notNull(),
		token: text('token').notNull(),
		expires: timestamp('expires', { mode: 'date' }).notNull()
	},
	(vt) => [primaryKey({ columns: [vt.identifier, vt.token] })]
);

export const authenticators = pgTable(
	'authenticator',
	{
		credentialID: text('credentialID').notNull().unique(),
		userId: text('userId')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		providerAccountId: text('providerAccountId').notNull(),
		credentialPublicKey: text('credentialPublicKey').notNull(),
		/** A signature counter is 32 bits unsigned: more than Auth.js's `integer` holds (kitauth widens it). */
		counter: bigint('counter', { mode: 'number' }).notNull(),
		credentialDeviceType: text('credentialDeviceType').notNull(),
		credentialBackedUp: boolean('credentialBackedUp').notNull(),
		transports: text('transports'),
		/** kitauth: the name the user knows the passkey by. */
		name: text('name'),
		/** kitauth: the authenticator model's AAGUID. */
		aaguid: text('aaguid'),
		/** kitauth. Nullable: rows adopted from an Auth.js database have none. */
		createdAt: timestamp('createdAt', { mode: 'date' }),
		/** kitauth: the last sign-in with this passkey. */
		lastUsedAt: timestamp('lastUsedAt', { mode: 'date' })
	},
	(authenticator) => [
		primaryKey({ columns: [authenticator.userId, authenticator.credentialID] }),
		index('authenticator_userId_idx').on(authenticator.userId)
	]
);

/** kitauth: the rate limiter's counters (`hitRateLimit`). Keys hold no email in clear (hashed). */
export const rateLimits = pgTable(
	'rateLimit',
	{
		key: text('key').primaryKey(),
		count: integer('count').notNull(),
		/** When the window ends, in milliseconds since the epoch. */
		resetAt: bigint('resetAt', { mode: 'number' }).notNull()
	},
	// The sweep deletes by it.
	(rateLimit) => [index('rateLimit_resetAt_idx').on(rateLimit.resetAt)]
);

/**
 * kitauth: each user's session cutoff (`getSessionsValidAfter`/`setSessionsValidAfter`). No
 * foreign key to `user`: JWT users need not be stored, and a cutoff must outlive a deleted user.
 */
export const sessionCutoffs = pgTable('sessionCutoff', {
	userId: text('userId').primaryKey(),
	validAfter: timestamp('validAfter', { mode: 'date' }).notNull()
});

/**
 * kitauth: two-factor authentication, one row per user who set it up (as in the SQLite schema).
 * No foreign key to `user` (credentials users on JWT sessions need not be stored); `deleteUser`
 * deletes the row. Every change is one conditional statement on this row; the backup codes'
 * hashes are one text column, `,hash,hash,`, so using one is a single UPDATE.
 */
export const twoFactors = pgTable('twoFactor', {
	userId: text('userId').primaryKey(),
	/** The TOTP secret, sealed by kitauth (never in clear). */
	secret: text('secret').notNull(),
	/** When two-factor was turned on; NULL while it is being set up. */
	enabledAt: timestamp('enabledAt', { mode: 'date' }),
	/** The last TOTP time step accepted. */
	lastStep: bigint('lastStep', { mode: 'number' }),
	/** Keyed hashes of the unused backup codes, `,`-separated and -enclosed (`,` when none). */
	backupCodes: text('backupCodes').notNull().default(','),
	/** Devices remembered before this no longer skip the second factor. */
	devicesValidAfter: timestamp('devicesValidAfter', { mode: 'date' }),
	createdAt: timestamp('createdAt', { mode: 'date' }).notNull()
});

/**
 * kitauth: the password hash of a user of the `Password()` provider (a self-describing string,
 * `$scrypt-sha256$…`), one per user, gone with the user.
 */
export const passwords = pgTable('password', {
	userId: text('userId')
		.primaryKey()
		.references(() => users.id, { onDelete: 'cascade' }),
	hash: text('hash').notNull(),
	/** When the password was set (a rehash with new parameters keeps it). */
	updatedAt: timestamp('updatedAt', { mode: 'date' }).notNull()
});
