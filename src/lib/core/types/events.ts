/**
 * The events (`config.events`): what kitauth tells the app happened — Auth.js's, and kitauth's
 * own (credential changes, rate limits, two-factor). Each handler is awaited unless it says not.
 */
import type { Account, AdapterSession, AdapterUser, JWT, Profile, Session, User } from './models.js';
import type { RateLimitedMessage } from './limit.js';
import type { BackupCodeUsedMessage, TwoFactorEventMessage } from './two-factor.js';

type Awaitable<T> = T | PromiseLike<T>;

export interface EventCallbacks {
	signIn: (message: {
		user: User;
		account: Account | null;
		profile?: Profile;
		isNewUser?: boolean;
	}) => Awaitable<void>;
	signOut: (
		message: { session: AdapterSession | null | undefined | void } | { token: JWT | null }
	) => Awaitable<void>;
	createUser: (message: { user: User }) => Awaitable<void>;
	updateUser: (message: { user: User }) => Awaitable<void>;
	/** kitauth: a user deleted their account (`Password()`'s `delete-account`); the user as it was. */
	deleteUser: (message: { user: User }) => Awaitable<void>;
	linkAccount: (message: {
		user: User | AdapterUser;
		account: Account;
		profile: User | AdapterUser;
	}) => Awaitable<void>;
	session: (message: { session: Session; token?: JWT }) => Awaitable<void>;
	/**
	 * kitauth (not in the spec or Auth.js): an attempt was refused by the rate limiter. Carries no
	 * address or identifier, only a short keyed hash of the one that was over its budget. Not
	 * awaited: under a flood, refusals do not wait for the handler.
	 */
	rateLimited: (message: RateLimitedMessage) => Awaitable<void>;
	/**
	 * kitauth: a credential of the user changed — reported by the app (`credentialsChanged()`:
	 * a password or email change) or by kitauth (a passkey removed, an account unlinked) — and
	 * which of their sessions were ended for it (`session.endOnCredentialChange`).
	 */
	credentialsChanged: (message: CredentialsChangedMessage) => Awaitable<void>;
	/** kitauth: a user turned two-factor authentication on (a code from their app confirmed it). */
	twoFactorEnabled: (message: TwoFactorEventMessage) => Awaitable<void>;
	/** kitauth: a user turned two-factor authentication off. */
	twoFactorDisabled: (message: TwoFactorEventMessage) => Awaitable<void>;
	/** kitauth: a backup code signed a user in (worth telling them: it may not have been them). */
	backupCodeUsed: (message: BackupCodeUsedMessage) => Awaitable<void>;
	/**
	 * kitauth: a correctly signed passkey assertion whose signature counter did not go up (the
	 * sign-in was refused). The authenticator may have been cloned: worth an alert.
	 */
	authenticatorCounterRegression: (message: {
		userId: string;
		provider: string;
		credentialID: string;
		storedCounter: number;
		receivedCounter: number;
	}) => Awaitable<void>;
}

/** What changed: kitauth reports `passkey-removed` and `account-unlinked`; the app the others. */
export type CredentialChange = 'password' | 'email' | 'passkey-removed' | 'account-unlinked' | 'other';

export interface CredentialsChangedMessage {
	userId: string;
	change: CredentialChange;
	/** Which sessions were ended: all, all but the one that made the change, or none. */
	ended: 'all' | 'others' | 'none';
	/** Database sessions deleted. */
	deleted: number;
	/** JWT sessions: whether tokens issued before now were revoked (needs a cutoff store). */
	jwtRevoked: boolean;
}
