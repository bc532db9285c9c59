/**
 * What a dialect gives the shared adapter methods: its statements, one function per query, each
 * returning rows as drizzle decodes them (the mapping to models is `rows.ts`'s). Each runs as one
 * operation of its store: the dialect retries, times out and wraps errors under the adapter method
 * it serves, and every write is atomic on its own (one statement, or one transaction where a
 * dialect needs several).
 */
import type { Table } from 'drizzle-orm';
import type { Row } from './rows.js';

export interface AccountKey {
	provider: string;
	providerAccountId: string;
}

/** A counter's columns after a hit, as the driver returns them (numbers, bigints or strings). */
export interface CounterRow {
	count: unknown;
	resetAt: unknown;
}

/** A counter hit: the key, and when a window started now ends (ms since the epoch). */
export interface CounterHit {
	key: string;
	resetAt: number;
}

export interface UserStatements {
	insertUser(values: Row): Promise<Row | undefined>;
	userById(id: string): Promise<Row | undefined>;
	userByEmail(email: string): Promise<Row | undefined>;
	userByAccount(key: AccountKey): Promise<Row | undefined>;
	updateUser(id: string, values: Row): Promise<Row | undefined>;
	/**
	 * Deletes the user with its sessions, accounts, authenticators and password, atomically; with
	 * its two-factor record too where the table is known (`deletesTwoFactor`).
	 */
	deleteUser(id: string): Promise<Row | undefined>;
	insertAccount(values: Row): Promise<Row | undefined>;
	account(key: AccountKey): Promise<Row | undefined>;
	/** Ordered by provider, then providerAccountId. */
	accountsOfUser(userId: string): Promise<Row[]>;
	updateAccount(key: AccountKey, values: Row): Promise<Row | undefined>;
	deleteAccount(key: AccountKey): Promise<Row | undefined>;
}

export interface SessionStatements {
	/** `signal`: once it aborts, a write not yet committed is given up (see `createSession`). */
	insertSession(values: Row, signal?: AbortSignal): Promise<Row | undefined>;
	/** The hot path of database sessions: ONE query (a join on the session's primary key). */
	sessionAndUser(sessionToken: string): Promise<{ session: Row; user: Row } | null>;
	session(sessionToken: string): Promise<Row | undefined>;
	updateSession(sessionToken: string, values: Row): Promise<Row | undefined>;
	deleteSession(sessionToken: string): Promise<Row | undefined>;
	/** One conditional UPDATE of the key: the moved row, or none when another call moved it. */
	rekeySession(sessionToken: string, newSessionToken: string): Promise<Row | undefined>;
	/** Oldest first (by `createdAt`, else `expires`), then by token. */
	sessionsOfUser(userId: string): Promise<Row[]>;
	/** How many went. */
	deleteSessionsOfUser(userId: string, keepSessionToken: string | undefined): Promise<number>;
	insertVerificationToken(values: Row): Promise<Row | undefined>;
	/**
	 * Consume-once: returns and deletes the token in ONE statement (`DELETE … RETURNING`), so of
	 * concurrent uses, from any process, exactly one gets the row.
	 */
	consumeVerificationToken(identifier: string, token: string): Promise<Row | undefined>;
}

export interface AuthenticatorStatements {
	insertAuthenticator(values: Row): Promise<Row | undefined>;
	authenticator(credentialID: string): Promise<Row | undefined>;
	/** Ordered by credentialID. */
	authenticatorsOfUser(userId: string): Promise<Row[]>;
	setAuthenticatorCounter(credentialID: string, counter: number): Promise<Row | undefined>;
	/** One conditional UPDATE: only while the stored counter is still `expectedCounter`. */
	recordAuthenticatorUse(credentialID: string, expectedCounter: number, values: Row): Promise<Row | undefined>;
	renameAuthenticator(credentialID: string, name: string | null): Promise<Row | undefined>;
	deleteAuthenticator(credentialID: string): Promise<Row | undefined>;
}

/**
 * The limiter's counters. Increment-with-expiry: a hit is ONE conditional upsert (a window that
 * ended at or before `now` starts over at 1, else the count grows by 1), so concurrent hits from
 * any process each get their own count.
 */
export interface CounterStatements {
	hitCounter(hit: CounterHit, now: number): Promise<CounterRow | undefined>;
	/** `second` is counted only while `first`'s count (after its hit) is at most `firstLimit`. */
	hitCounterPair(
		first: CounterHit,
		second: CounterHit & { firstLimit: number },
		now: number
	): Promise<[CounterRow | undefined, CounterRow | undefined]>;
	/**
	 * Takes back one hit, in ONE conditional UPDATE: only while the key's window still ends at
	 * `resetAt` (the window of the hit refunded) and its count is above 0.
	 */
	releaseCounter(key: string, resetAt: number): Promise<void>;
	resetCounter(key: string): Promise<void>;
	/** Deletes counters whose window ended at or before `now`, in bounded chunks; how many went. */
	sweepCounters(now: number): Promise<number>;
}

export interface CutoffStatements {
	/** The stored `validAfter` as the driver returns it, or undefined. */
	cutoff(userId: string): Promise<unknown>;
	/** Upserts the cutoff, keeping the later of the stored one and `at` (one statement). */
	raiseCutoff(userId: string, at: Date): Promise<void>;
}

/** The `Password()` provider's users and password hashes. */
export interface PasswordStatements {
	/**
	 * Inserts the user and their password row atomically; undefined, inserting nothing, when a user
	 * already has the email (the unique email decides, whatever process got there first).
	 */
	insertPasswordUser(user: Row, password: { hash: string; updatedAt: Date }): Promise<Row | undefined>;
	/** The user with this email and their password row, in ONE query (a join); none without either. */
	passwordUser(email: string): Promise<{ user: Row; password: Row } | undefined>;
	/** One conditional UPDATE: the hash becomes `hash` only while it is still `expected`. Whether it did. */
	replacePasswordHash(userId: string, hash: string, expected: string): Promise<boolean>;
	/** One UPDATE of the user's password row (hash and `updatedAt`). Whether there was one. */
	setPasswordHash(userId: string, hash: string, updatedAt: Date): Promise<boolean>;
}

/**
 * Two-factor records, one row per user (`two-factor.ts` maps them). Every change is ONE conditional
 * statement on the row, answering whether it changed it, so concurrent requests from any process
 * agree. Backup codes are one text column, `,h1,h2,` (`,` when none), so one is used by removing
 * `,h,` from it.
 */
export interface TwoFactorStatements {
	twoFactor(userId: string): Promise<Row | undefined>;
	/** Inserts a record being set up, or replaces the secret of one not yet enabled. */
	begin(userId: string, secret: string, now: Date): Promise<boolean>;
	/** Only while off and while the secret is `values.secret`: on, with its step and codes. */
	enable(userId: string, values: { secret: string; step: number; backupCodes: string; enabledAt: Date }): Promise<boolean>;
	/** Only while on and `step` is later than the last one recorded. */
	useStep(userId: string, step: number): Promise<boolean>;
	/** Only while on and `needle` (`,h,`) is in the list: the list left, else undefined. */
	useBackupCode(userId: string, needle: string): Promise<string | undefined>;
	/** Only while on. */
	replaceBackupCodes(userId: string, backupCodes: string): Promise<boolean>;
	/** Only while the stored secret is still `expected`. */
	reseal(userId: string, expected: string, secret: string): Promise<boolean>;
	remove(userId: string): Promise<boolean>;
	/** Keeps the later of the stored time and `at`. */
	forgetDevices(userId: string, at: Date): Promise<void>;
}

export interface Statements {
	users: UserStatements;
	sessions: SessionStatements;
	authenticators: AuthenticatorStatements;
	counters: CounterStatements;
	cutoffs: CutoffStatements;
	passwords: PasswordStatements;
	twoFactors: TwoFactorStatements;
}

/** The tables whose columns decide what an insert or update may set (`columnValues`). */
export interface MappedTables {
	usersTable: Table;
	accountsTable: Table;
	sessionsTable: Table;
	verificationTokensTable: Table;
	authenticatorsTable: Table;
	passwordsTable: Table;
}

/** Makes the dialect's error (its class, its `operation: message` form) for the shared methods. */
export type Fail = (operation: string, code: 'NOT_FOUND' | 'INVALID_ARGUMENT' | 'UNKNOWN', message: string) => Error;

/** What the shared adapter methods are built from. */
export interface DialectParts {
	statements: Statements;
	tables: MappedTables;
	fail: Fail;
}
