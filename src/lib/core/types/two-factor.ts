/**
 * kitauth: the public types of two-factor authentication (`AuthConfig.twoFactor`): TOTP (RFC 6238)
 * and backup codes, asked for after the first factor. Auth.js has none of it.
 */
import type { ProviderType, User } from './models.js';

type Awaitable<T> = T | PromiseLike<T>;

/**
 * What a session's sign-in proved, in order (`session.factors`): the first factor is the type of
 * the provider signed in with; `user-verification` follows a passkey that verified its user (a PIN
 * or a biometric: two factors in one); then the second factor, if one was asked for: `totp`,
 * `backup-code`, or `remembered-device` (this browser passed one before and was remembered).
 */
export type SignInFactor = ProviderType | 'user-verification' | 'totp' | 'backup-code' | 'remembered-device';

/** The second factors a user can pass at the challenge. */
export type SecondFactor = 'totp' | 'backup-code';

/** `AuthConfig.twoFactor`: two-factor authentication is on when this is given. */
export interface TwoFactorConfig {
	/**
	 * Who must have a second factor. `'optional'` (default): users who turned it on are always asked
	 * for it; `'always'`: every user, and one who has none sets it up before their first session;
	 * a function: `true` for a user who must (as `'always'`), `false` for one who may.
	 */
	required?: 'always' | 'optional' | ((user: User & { id: string }) => Awaitable<boolean>);
	/** The name authenticator apps show for this site (default: the site's host). */
	issuer?: string;
	/**
	 * "Remember this device": after a second factor, the browser may skip it for `maxAge` seconds
	 * (default 30 days) — until the user forgets their devices, turns two-factor off, or a
	 * credential changes (`credentialsChanged`). `false` does not offer it.
	 */
	rememberDevice?: false | { maxAge?: number };
	/** How long, in seconds, the user has for the second factor after the first (default 600). */
	pendingMaxAge?: number;
}

/** The resolved two-factor settings (`AuthOptions.twoFactor`). */
export interface TwoFactorOptions {
	required: NonNullable<TwoFactorConfig['required']>;
	issuer?: string;
	/** Seconds a remembered device is remembered; `0` when the option is off. */
	rememberMaxAge: number;
	pendingMaxAge: number;
}

/**
 * A user's two-factor record as an adapter stores it (kitauth's `getTwoFactor`). The core seals
 * the secret and hashes the backup codes before they reach the adapter: it stores them as given.
 */
export interface AdapterTwoFactor {
	userId: string;
	/** The TOTP secret, sealed by kitauth (encrypted under a key derived from the app's secret). */
	secret: string;
	/** When it was turned on; `null` while it is being set up (a code not yet confirmed). */
	enabledAt: Date | null;
	/** The last TOTP time step accepted (each is accepted once); `null` before the first. */
	lastStep: number | null;
	/** Keyed hashes (lower-case hex) of the backup codes not used yet. */
	backupCodes: string[];
	/** Devices remembered before this no longer skip the second factor; `null` when never set. */
	devicesValidAfter: Date | null;
}

/** The two-factor state of the signed-in user, as the server API shows it (no secret). */
export interface TwoFactorStatus {
	enabled: boolean;
	enabledAt: Date | null;
	/** Unused backup codes left. */
	backupCodesLeft: number;
	/** Whether the user must have a second factor (`required`). */
	required: boolean;
}

/** A TOTP secret being set up: what an authenticator app needs, as a QR code or typed in. */
export interface TwoFactorSetupInfo {
	/** The secret in base32 (RFC 4648, no padding), for typing into an app. */
	secret: string;
	/** The `otpauth://totp/…` URI (the QR code's content). */
	uri: string;
	issuer: string;
	/** The account name the app shows (the user's email, else their id). */
	accountName: string;
}

/** The `twoFactorEnabled`, `twoFactorDisabled` and `backupCodeUsed` events' message. */
export interface TwoFactorEventMessage {
	userId: string;
}

/** `backupCodeUsed`: a backup code signed the user in; how many are left. */
export interface BackupCodeUsedMessage extends TwoFactorEventMessage {
	remaining: number;
}

/**
 * kitauth: two-factor authentication for the signed-in user (`CurrentSession.twoFactor`). Every
 * method throws `InvalidRequest` (403) when signed out, and (404) when `twoFactor` is not configured.
 */
export interface TwoFactorManager {
	status(): Promise<TwoFactorStatus>;
	/**
	 * The TOTP secret being set up (the same one until it is on, unless `fresh`), for a QR code and
	 * a key to type; `undefined` when two-factor is already on.
	 */
	setup(options?: { fresh?: boolean }): Promise<TwoFactorSetupInfo | undefined>;
	/**
	 * Turns two-factor on with a code from the app: the ten backup codes, to show once. Throws
	 * `InvalidTwoFactorCode` for a wrong code.
	 */
	enable(code: unknown): Promise<string[]>;
	/** Turns it off (needs a sign-in within `maxAge` seconds, default 600); whether it was on. */
	disable(options?: { maxAge?: number }): Promise<boolean>;
	/** New backup codes replacing all (needs a recent sign-in); `undefined` when two-factor is off. */
	regenerateBackupCodes(options?: { maxAge?: number }): Promise<string[] | undefined>;
	/** Browsers remembered until now ask for the second factor again. */
	forgetDevices(): Promise<void>;
}

