import type { AdapterTwoFactor } from './two-factor.js';
import type {
	AdapterAccount,
	AdapterAuthenticator,
	AdapterSession,
	AdapterUser,
	VerificationToken
} from './models.js';

type Awaitable<T> = T | PromiseLike<T>;

/** kitauth: a rate-limit counter after a hit (`hitRateLimit`). */
export interface RateLimitCounter {
	/** Hits in the current window, this one included. */
	count: number;
	/** When the window ends, in milliseconds since the epoch. */
	resetAt: number;
}

/** What `updateAccount` receives: the account's key, fields to store, `null` for fields to clear. */
export type AccountUpdate = { [K in keyof AdapterAccount]?: AdapterAccount[K] | null } & Pick<
	AdapterAccount,
	'provider' | 'providerAccountId'
>;

/**
 * The data-layer contract the core calls (the spec's "Adapter interface"). Every method is optional;
 * an operation that needs a missing one fails with `MissingAdapterMethods`.
 */
/** What kitauth hands an adapter method beside its arguments (see `createSession`). */
export interface AdapterCall {
	/** The request's signal: aborted when its client has given up. */
	signal?: AbortSignal;
}

export interface Adapter {
	createUser?(user: AdapterUser): Awaitable<AdapterUser>;
	getUser?(id: string): Awaitable<AdapterUser | null>;
	getUserByEmail?(email: string): Awaitable<AdapterUser | null>;
	getUserByAccount?(
		providerAccountId: Pick<AdapterAccount, 'provider' | 'providerAccountId'>
	): Awaitable<AdapterUser | null>;
	updateUser?(user: Partial<AdapterUser> & Pick<AdapterUser, 'id'>): Awaitable<AdapterUser>;
	/**
	 * Removes the user and what is theirs. kitauth's adapters take, in one atomic step, their
	 * sessions, accounts, passkeys, password, two-factor record and verification tokens (their
	 * address's, and the `Password()` links' `kitauth:<purpose>:<provider>:<userId>`).
	 */
	deleteUser?(userId: string): Awaitable<AdapterUser | null | undefined | void>;
	linkAccount?(account: AdapterAccount): Awaitable<AdapterAccount | null | undefined | void>;
	unlinkAccount?(
		providerAccountId: Pick<AdapterAccount, 'provider' | 'providerAccountId'>
	): Awaitable<AdapterAccount | undefined | void>;
	getAccount?(providerAccountId: string, provider: string): Awaitable<AdapterAccount | null>;
	/**
	 * `call.signal` (kitauth's addition; Auth.js adapters ignore it): aborted when the client of the
	 * request that signs in gives up (where the platform says so, as SvelteKit's Node adapter does).
	 * An adapter that may wait, for a lock or a slow server, should then give up and store nothing:
	 * a session committed after its client left is one nobody holds.
	 */
	createSession?(session: AdapterSession, call?: AdapterCall): Awaitable<AdapterSession>;
	getSessionAndUser?(
		sessionToken: string
	): Awaitable<{ session: AdapterSession; user: AdapterUser } | null>;
	updateSession?(
		session: Partial<AdapterSession> & Pick<AdapterSession, 'sessionToken'>
	): Awaitable<AdapterSession | null | undefined>;
	deleteSession?(sessionToken: string): Awaitable<AdapterSession | null | undefined | void>;
	createVerificationToken?(
		verificationToken: VerificationToken
	): Awaitable<VerificationToken | null | undefined>;
	useVerificationToken?(params: {
		identifier: string;
		token: string;
	}): Awaitable<VerificationToken | null>;
	createAuthenticator?(authenticator: AdapterAuthenticator): Awaitable<AdapterAuthenticator>;
	getAuthenticator?(credentialID: string): Awaitable<AdapterAuthenticator | null>;
	listAuthenticatorsByUserId?(userId: string): Awaitable<AdapterAuthenticator[]>;
	updateAuthenticatorCounter?(
		credentialID: string,
		newCounter: number
	): Awaitable<AdapterAuthenticator>;
	/**
	 * kitauth: the sessions of one user, for "where am I signed in". Optional; session management
	 * needs it.
	 */
	listSessionsByUserId?(userId: string): Awaitable<AdapterSession[]>;
	/** kitauth: delete every session of a user, optionally keeping one. Returns how many went. */
	deleteSessionsByUserId?(userId: string, keepSessionToken?: string): Awaitable<number>;
	/**
	 * kitauth: store new token fields on an account (after a token refresh); a field given as
	 * `null` is cleared (a refresh token the provider refused). Without it the core unlinks and
	 * re-links the account.
	 */
	updateAccount?(account: AccountUpdate): Awaitable<AdapterAccount | null>;
	/**
	 * kitauth: moves a session to a new key in one atomic update (a session Auth.js stored under its
	 * raw token is moved to the token's hash on first use). The moved session, or `null` when no
	 * session had that key (another request moved it first). Optional: without it such sessions
	 * stay readable as they are.
	 */
	rekeySession?(sessionToken: string, newSessionToken: string): Awaitable<AdapterSession | null>;
	/** kitauth: the accounts linked to a user (never their tokens in a browser). */
	listAccountsByUserId?(userId: string): Awaitable<AdapterAccount[]>;
	/**
	 * kitauth: the rate limiter's counter, in one atomic step: if `key`'s window ended at or before
	 * `now` (or it has none), start a window ending at `now + windowMs` with a count of 1, else add
	 * 1. Concurrent calls, from any process, must each get their own count. Times are milliseconds
	 * since the epoch, from the limiter's clock. With this, `releaseRateLimit` and `resetRateLimit`,
	 * the limiter keeps its counters in the adapter's database by default.
	 */
	hitRateLimit?(key: string, windowMs: number, now: number): Awaitable<RateLimitCounter>;
	/**
	 * kitauth, optional: two hits in one transaction, as `hitRateLimit` each — `first`, then
	 * `second` only if `first`'s count is then at most `firstLimit` (else `undefined` for it). Saves
	 * the limiter a round trip (and a commit) per attempt.
	 */
	hitRateLimitPair?(
		first: { key: string; windowMs: number },
		second: { key: string; windowMs: number },
		firstLimit: number,
		now: number
	): Awaitable<[RateLimitCounter, RateLimitCounter | undefined]>;
	/**
	 * kitauth: take back one hit, atomically: subtract 1 from `key`'s count only if its window
	 * still ends at `resetAt` (the end `hitRateLimit` answered for that hit) and the count is above
	 * 0; otherwise do nothing. The limiter refunds a successful attempt's address hit with it.
	 * Required beside `hitRateLimit`: without it the limiter refuses the adapter at start-up.
	 */
	releaseRateLimit?(key: string, resetAt: number): Awaitable<void>;
	/**
	 * kitauth: takes the lease on `key` until `now + leaseMs`, in ONE conditional statement on the
	 * shared store (an upsert that starts a window only where none is running): `true` for exactly
	 * one caller, from any process, until the lease ends; `false` for every other. The core takes
	 * one before it refreshes an OAuth access token, so the refresh runs once across instances; the
	 * others wait for the new tokens in the account row. kitauth's adapters keep leases with the
	 * limiter's counters (`hitRateLimit` answering 1).
	 */
	acquireLease?(key: string, leaseMs: number, now: number): Awaitable<boolean>;
	/** kitauth: forget a rate-limit counter (after a successful sign-in). */
	resetRateLimit?(key: string): Awaitable<void>;
	/** kitauth: delete the counters whose window ended at or before `now`; returns how many. */
	deleteExpiredRateLimits?(now: number): Awaitable<number>;
	/**
	 * kitauth: records a verified passkey sign-in in one atomic step: the counter becomes
	 * `counter` (with the backup state and time of use) only if it is still `expectedCounter`;
	 * `null` when it is not (a concurrent sign-in got there first) or the authenticator is gone.
	 * Without it the core falls back to `updateAuthenticatorCounter`, which cannot detect the race.
	 */
	updateAuthenticatorUse?(
		credentialID: string,
		use: { expectedCounter: number; counter: number; backedUp: boolean; usedAt: Date }
	): Awaitable<AdapterAuthenticator | null>;
	/** kitauth: renames a passkey; `null` when there is no such authenticator. */
	updateAuthenticatorName?(credentialID: string, name: string | null): Awaitable<AdapterAuthenticator | null>;
	/** kitauth: deletes an authenticator; the deleted one, or `null` when there was none. */
	deleteAuthenticator?(credentialID: string): Awaitable<AdapterAuthenticator | null>;
	/**
	 * kitauth: the user's session cutoff: JWT session tokens issued before it no longer open (see
	 * `endSessionsOf`). `null` when none was set. Any user id, stored or not (credentials users on
	 * JWT sessions need not be in the database), and kept when the user is deleted.
	 */
	getSessionsValidAfter?(userId: string): Awaitable<Date | null>;
	/** kitauth: moves the user's session cutoff to `at`, never back (a later cutoff stays). */
	setSessionsValidAfter?(userId: string, at: Date): Awaitable<void>;
	/**
	 * kitauth (the `Password()` provider): creates the user with their password hash in one
	 * atomic step; `null`, storing nothing, when a user already has that email.
	 */
	createPasswordUser?(user: AdapterUser, passwordHash: string): Awaitable<AdapterUser | null>;
	/**
	 * kitauth (`Password()`): the user with this email and their password hash, in one query (a
	 * sign-in for an unknown address costs the same); `null` when there is no such user or they
	 * have no password.
	 */
	getPasswordUser?(email: string): Awaitable<{ user: AdapterUser; passwordHash: string } | null>;
	/**
	 * kitauth (`Password()`): replaces a user's password hash only while it is still
	 * `expectedHash` (one conditional update: a rehash at sign-in never overwrites a password
	 * changed meanwhile). Whether it was replaced.
	 */
	updatePasswordHash?(userId: string, passwordHash: string, expectedHash: string): Awaitable<boolean>;
	/**
	 * kitauth (`Password()`): sets the password hash of a user who has one (a password reset).
	 * Whether there was one to replace.
	 */
	setPasswordHash?(userId: string, passwordHash: string): Awaitable<boolean>;
	/**
	 * kitauth, two-factor authentication (`twoFactor`): the user's record, or `null` when they have
	 * none. Any user id, stored or not (credentials users on JWT sessions need not be in the database).
	 */
	getTwoFactor?(userId: string): Awaitable<AdapterTwoFactor | null>;
	/**
	 * kitauth: stores a TOTP secret being set up, in ONE conditional statement: a new record, or the
	 * user's record replaced (its last step and backup codes cleared) only while two-factor is off
	 * (`enabledAt` null). `false`, changing nothing, when it is on.
	 */
	beginTwoFactor?(userId: string, secret: string): Awaitable<boolean>;
	/**
	 * kitauth: turns two-factor on, in ONE conditional statement: only while it is off and the stored
	 * secret is still `secret` (the one the code was checked against). Records the code's `step`,
	 * the backup codes' hashes, and `enabledAt`, which also becomes the remembered-devices cutoff.
	 */
	enableTwoFactor?(
		userId: string,
		enable: { secret: string; step: number; backupCodes: string[]; enabledAt: Date }
	): Awaitable<boolean>;
	/**
	 * kitauth: accepts a TOTP time step once, in ONE conditional statement: records `step` only if
	 * two-factor is on and `step` is later than the last step accepted. Of concurrent uses of one
	 * code, from any process, exactly one gets `true`.
	 */
	useTwoFactorStep?(userId: string, step: number): Awaitable<boolean>;
	/**
	 * kitauth: uses a backup code up, in ONE conditional statement: removes `hash` from the user's
	 * codes only if it is among them and two-factor is on. How many codes are left, or `null` when
	 * it was not there (used already, or never made).
	 */
	useBackupCode?(userId: string, hash: string): Awaitable<number | null>;
	/** kitauth: replaces every backup code (one statement), only while two-factor is on. */
	replaceBackupCodes?(userId: string, backupCodes: string[]): Awaitable<boolean>;
	/** kitauth: stores the secret sealed anew (under a rotated key), only while it is still `expected`. */
	resealTwoFactorSecret?(userId: string, expected: string, secret: string): Awaitable<boolean>;
	/** kitauth: deletes the user's record (two-factor off, codes gone); whether there was one. */
	deleteTwoFactor?(userId: string): Awaitable<boolean>;
	/** kitauth: devices remembered before `at` stop skipping the second factor (never moves back). */
	forgetTwoFactorDevices?(userId: string, at: Date): Awaitable<void>;
}
