/**
 * The tables of the SQLite adapters, libSQL and D1 (drizzle-orm `sqlite-core`).
 *
 * Table and column names are those of `@auth/drizzle-adapter`'s SQLite schema, so a database made
 * by Auth.js keeps working: camelCase for the service's own fields, snake_case for the OAuth token
 * fields. The primary keys and unique constraints are Auth.js's too (they double as the unique
 * indexes on email, (provider, providerAccountId), session token and credentialID). What kitauth
 * adds lives in later migrations: `session.createdAt`, `session.userAgent`, and indexes on
 * `session.userId` and `account.userId` (sign-out-everywhere and the account list read by user);
 * the passkey list's `authenticator.name`, `aaguid`, `createdAt`, `lastUsedAt` and an index on
 * `authenticator.userId` (the fourth).
 *
 * Dates are integer milliseconds (`timestamp_ms`) so they round-trip exactly.
 *
 * The third migration adds kitauth's `rateLimit` table: the rate limiter's counters (one row per
 * key, times as plain integer milliseconds: they are compared, never shown). The fifth adds
 * `sessionCutoff`: per-user cutoffs that revoke JWT sessions. The sixth adds `twoFactor` (TOTP and
 * backup codes) and `session.factors`. The seventh adds `password`: the password hashes of the
 * `Password()` provider's users.
 */
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { AdapterAccount } from '../../core/types/models.js';

export const users = sqliteTable('user', {
	id: text('id')
		.primaryKey()
		.$defaultFn(() => crypto.randomUUID()),
	name: text('name'),
	email: text('email').unique(),
	emailVerified: integer('emailVerified', { mode: 'timestamp_ms' }),
	image: text('image')
});

export const accounts = sqliteTable(
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
		/** Seconds since the epoch, as OAuth sends it (not a date column, as in Auth.js). */
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

export const sessions = sqliteTable(
	'session',
	{
		sessionToken: text('sessionToken').primaryKey(),
		userId: text('userId')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		expires: integer('expires', { mode: 'timestamp_ms' }).notNull(),
		/** kitauth. Nullable: rows adopted from an Auth.js database have none. */
		createdAt: integer('createdAt', { mode: 'timestamp_ms' }),
		/** kitauth: a short description of the client, for the session list. */
		userAgent: text('userAgent'),
		/** kitauth: what the sign-in proved (`session.factors`), comma-separated. */
		factors: text('factors')
	},
	(session) => [index('session_userId_idx').on(session.userId)]
);

export const verificationTokens = sqliteTable(
	'verificationToken',
	{
		identifier: text('identifier').notNull(),
		token: text('token').notNull(),
		expires: integer('expires', { mode: 'timestamp_ms' }).notNull()
	},
	(vt) => [primaryKey({ columns: [vt.identifier, vt.token] })]
);

export const authenticators = sqliteTable(
	'authenticator',
	{
		credentialID: text('credentialID').notNull().unique(),
		userId: text('userId')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		providerAccountId: text('providerAccountId').notNull(),
		credentialPublicKey: text('credentialPublicKey').notNull(),
		counter: integer('counter').notNull(),
		credentialDeviceType: text('credentialDeviceType').notNull(),
		credentialBackedUp: integer('credentialBackedUp', { mode: 'boolean' }).notNull(),
		transports: text('transports'),
		/** kitauth: the name the user knows the passkey by. */
		name: text('name'),
		/** kitauth: the authenticator model's AAGUID. */
		aaguid: text('aaguid'),
		/** kitauth. Nullable: rows adopted from an Auth.js database have none. */
		createdAt: integer('createdAt', { mode: 'timestamp_ms' }),
		/** kitauth: the last sign-in with this passkey. */
		lastUsedAt: integer('lastUsedAt', { mode: 'timestamp_ms' })
	},
	(authenticator) => [
		primaryKey({ columns: [authenticator.userId, authenticator.credentialID] }),
		index('authenticator_userId_idx').on(authenticator.userId)
	]
);

/** kitauth: the rate limiter's counters (`hitRateLimit`). Keys hold no email in clear (hashed). */
export const rateLimits = sqliteTable(
	'rateLimit',
	{
		key: text('key').primaryKey(),
		count: integer('count').notNull(),
		/** When the window ends, in milliseconds since the epoch. */
		resetAt: integer('resetAt').notNull()
	},
	// The sweep deletes by it.
	(rateLimit) => [index('rateLimit_resetAt_idx').on(rateLimit.resetAt)]
);

/**
 * kitauth: each user's session cutoff (`getSessionsValidAfter`/`setSessionsValidAfter`): JWT
 * session tokens issued before it no longer open. No foreign key to `user`: JWT users need not be
 * stored (credentials), and a cutoff must outlive a deleted user's row.
 */
export const sessionCutoffs = sqliteTable('sessionCutoff', {
	userId: text('userId').primaryKey(),
	/** Milliseconds since the epoch. */
	validAfter: integer('validAfter', { mode: 'timestamp_ms' }).notNull()
});

/**
 * kitauth: two-factor authentication, one row per user who set it up. No foreign key to `user`
 * (credentials users on JWT sessions need not be stored); `deleteUser` deletes the row. Every
 * change is one conditional statement on this row: the step check, using a backup code (its hash
 * removed from `backupCodes`, `,hash,hash,`: a list in one column, so consuming one is a single
 * UPDATE), enabling only while off.
 */
export const twoFactors = sqliteTable('twoFactor', {
	userId: text('userId').primaryKey(),
	/** The TOTP secret, sealed by kitauth (never in clear). */
	secret: text('secret').notNull(),
	/** When two-factor was turned on; NULL while it is being set up. */
	enabledAt: integer('enabledAt', { mode: 'timestamp_ms' }),
	/** The last TOTP time step accepted. */
	lastStep: integer('lastStep'),
	/** Keyed hashes of the unused backup codes, `,`-separated and -enclosed (`,` when none). */
	backupCodes: text('backupCodes').notNull().default(','),
	/** Devices remembered before this no longer skip the second factor. */
	devicesValidAfter: integer('devicesValidAfter', { mode: 'timestamp_ms' }),
	createdAt: integer('createdAt', { mode: 'timestamp_ms' }).notNull()
});

/**
 * kitauth: the password hash of a user of the `Password()` provider (a self-describing string,
 * `$scrypt-sha256$…`), one per user, gone with the user.
 */
export const passwords = sqliteTable('password', {
	userId: text('userId')
		.primaryKey()
		.references(() => users.id, { onDelete: 'cascade' }),
	hash: text('hash').notNull(),
	/** When the password was set (a rehash with new parameters keeps it). */
	updatedAt: integer('updatedAt', { mode: 'timestamp_ms' }).notNull()
});
