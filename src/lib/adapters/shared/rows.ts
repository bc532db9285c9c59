/**
 * Rows (as drizzle decodes them, in any dialect) to the spec's models, and models to the values a
 * table takes. The one home of this mapping: every dialect's statements hand rows here. Custom
 * tables may add columns (they are kept) or store dates differently (Dates, numbers, numeric
 * strings and ISO strings are accepted).
 */
import { getTableColumns, type Table } from 'drizzle-orm';
import type {
	AdapterAccount,
	AdapterAuthenticator,
	AdapterSession,
	AdapterUser,
	VerificationToken
} from '../../core/types/models.js';

export type Row = Record<string, unknown>;

export function toDate(value: unknown): Date | null {
	if (value === null || value === undefined) return null;
	if (value instanceof Date) return value;
	if (typeof value === 'number' || typeof value === 'bigint') return new Date(Number(value));
	if (typeof value === 'string') {
		return /^-?\d+$/.test(value) ? new Date(Number(value)) : new Date(value);
	}
	throw new TypeError(`Not a date: ${typeof value}`);
}

function requiredDate(value: unknown): Date {
	const date = toDate(value);
	if (date === null) throw new TypeError('A required date column is null');
	return date;
}

/**
 * A user without an email (a provider that sends none) is stored with NULL: the unique index on
 * `email` allows many NULLs but only one empty string. The model's `email` is a string, so NULL
 * reads back as `''` (and `getUserByEmail('')` finds nobody).
 */
export function userValues<T extends { email?: string | null }>(user: T): T {
	return user.email === '' ? { ...user, email: null } : user;
}

export function toUser(row: Row): AdapterUser {
	return {
		...row,
		id: String(row['id']),
		name: (row['name'] ?? null) as string | null,
		email: (row['email'] ?? '') as string,
		emailVerified: toDate(row['emailVerified']),
		image: (row['image'] ?? null) as string | null
	};
}

/** OAuth token fields are optional strings in the model: a NULL column means "absent". */
export function toAccount(row: Row): AdapterAccount {
	const account: Row = {};
	for (const [key, value] of Object.entries(row)) {
		if (value !== null && value !== undefined) account[key] = value;
	}
	if (typeof account['expires_at'] === 'bigint') account['expires_at'] = Number(account['expires_at']);
	return account as unknown as AdapterAccount;
}

export function toSession(row: Row): AdapterSession {
	const { factors, ...rest } = row;
	const session: AdapterSession = {
		...rest,
		sessionToken: String(row['sessionToken']),
		userId: String(row['userId']),
		expires: requiredDate(row['expires'])
	};
	// Only where the table has the kitauth columns (an Auth.js sessions table has not).
	if ('createdAt' in row) session.createdAt = toDate(row['createdAt']);
	if ('userAgent' in row) session.userAgent = (row['userAgent'] ?? null) as string | null;
	// Left out when not recorded: rows of sessions made before kitauth recorded it read as they did.
	if (typeof factors === 'string' && factors) session.factors = factors.split(',');
	return session;
}

export function toVerificationToken(row: Row): VerificationToken {
	return {
		identifier: String(row['identifier']),
		token: String(row['token']),
		expires: requiredDate(row['expires'])
	};
}

/** kitauth's optional authenticator columns: left out when empty, so Auth.js-shaped rows stay as they were. */
const AUTHENTICATOR_EXTRAS = ['name', 'aaguid', 'createdAt', 'lastUsedAt'] as const;

export function toAuthenticator(row: Row): AdapterAuthenticator {
	const rest: Row = { ...row };
	for (const key of AUTHENTICATOR_EXTRAS) delete rest[key];
	const authenticator: AdapterAuthenticator = {
		...rest,
		credentialID: String(row['credentialID']),
		userId: String(row['userId']),
		providerAccountId: String(row['providerAccountId']),
		credentialPublicKey: String(row['credentialPublicKey']),
		counter: Number(row['counter']),
		credentialDeviceType: String(row['credentialDeviceType']),
		credentialBackedUp: Boolean(row['credentialBackedUp']),
		transports: (row['transports'] ?? null) as string | null
	};
	if (row['name'] != null) authenticator.name = String(row['name']);
	if (row['aaguid'] != null) authenticator.aaguid = String(row['aaguid']);
	if (row['createdAt'] != null) authenticator.createdAt = toDate(row['createdAt']);
	if (row['lastUsedAt'] != null) authenticator.lastUsedAt = toDate(row['lastUsedAt']);
	return authenticator;
}

/** A session's columns: `factors` as one comma-separated text. */
export function sessionValues(session: Partial<AdapterSession>): Row {
	const { factors, ...rest } = session;
	return factors === undefined ? rest : { ...rest, factors: factors?.length ? factors.join(',') : null };
}

/**
 * The values of `input` that are columns of `table` and not undefined: what an insert or update
 * may set. Keys that are not columns (`expires_in`, a custom model's extras) are left out.
 */
export function columnValues(table: Table, input: object): Row {
	const columns = getTableColumns(table);
	const values: Row = {};
	for (const [key, value] of Object.entries(input)) {
		if (value !== undefined && Object.hasOwn(columns, key)) values[key] = value;
	}
	return values;
}
