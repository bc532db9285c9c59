/**
 * Errors are data: every `AuthError` carries its `type` (for logs) and its `kind` (the page it lands
 * on). What an error becomes in an answer (a URL's `?error=`, a 503's `Retry-After`) is decided in
 * `error-answers.ts`.
 */

export type ErrorType =
	| 'AccessDenied'
	| 'AdapterError'
	| 'CallbackRouteError'
	| 'ErrorPageLoop'
	| 'EventError'
	| 'InvalidCallbackUrl'
	| 'CredentialsSignin'
	| 'InvalidEndpoints'
	| 'InvalidCheck'
	| 'JWTSessionError'
	| 'MissingAdapter'
	| 'MissingAdapterMethods'
	| 'MissingAuthorize'
	| 'MissingSecret'
	| 'OAuthAccountNotLinked'
	| 'OAuthCallbackError'
	| 'OAuthProfileParseError'
	| 'SessionTokenError'
	| 'OAuthSignInError'
	| 'EmailSignInError'
	| 'SignOutError'
	| 'UnknownAction'
	| 'UnsupportedStrategy'
	| 'InvalidProvider'
	| 'UntrustedHost'
	| 'Verification'
	| 'MissingCSRF'
	| 'AccountNotLinked'
	| 'DuplicateConditionalUI'
	| 'MissingWebAuthnAutocomplete'
	| 'WebAuthnVerificationError'
	| 'ExperimentalFeatureNotEnabled'
	| 'InvalidRequest'
	| 'InvalidRateLimit'
	| 'RateLimitStoreError'
	| 'RateLimited'
	| 'RateLimitUnavailable'
	| 'ReauthenticationRequired'
	| 'TwoFactorExpired'
	| 'InvalidTwoFactorCode';

/** Which page an error lands on: the sign-in page (with `?error=`) or the error page. */
export type ErrorKind = 'signIn' | 'error';

/** The `error` values the sign-in page understands (the spec's sign-in error values). */
export type SignInPageErrorParam =
	| 'Signin'
	| 'OAuthSignin'
	| 'OAuthCallbackError'
	| 'OAuthCreateAccount'
	| 'EmailCreateAccount'
	| 'Callback'
	| 'OAuthAccountNotLinked'
	| 'EmailSignin'
	| 'CredentialsSignin'
	| 'SessionRequired'
	| 'MissingCSRF'
	| 'AccountNotLinked'
	| 'WebAuthnVerificationError'
	| 'RateLimited'
	| 'TwoFactorExpired';

/** The `error` values the error page understands (the spec's error-page values). */
export type ErrorPageParam = 'Configuration' | 'AccessDenied' | 'Verification' | 'OAuthSignin' | 'Unavailable';

/**
 * Base of every kitauth error. Each class names its `type` and `kind` once, statically (as in
 * Auth.js: `CredentialsSignin.type`), and every instance carries them: `type` for logs, `kind`
 * for where a failure lands (`signIn`: the sign-in page, `error`: the error page).
 */
export class AuthError extends Error {
	static readonly type: ErrorType = 'CallbackRouteError';
	static readonly kind: ErrorKind = 'error';
	readonly type: ErrorType;
	readonly kind: ErrorKind;
	// `declare`: a class field here would reset the cause set by `super()` to undefined.
	declare cause?: Record<string, unknown> & { err?: Error };

	constructor(message?: string | Error | ErrorOptions, errorOptions?: ErrorOptions) {
		if (message instanceof Error) {
			super(undefined, { cause: { err: message, ...(message.cause as object | undefined) } });
		} else if (typeof message === 'string') {
			if (errorOptions?.cause instanceof Error) {
				super(message, { cause: { err: errorOptions.cause } });
			} else {
				super(message, errorOptions);
			}
		} else {
			super(undefined, message);
		}
		const own = new.target as typeof AuthError;
		this.type = own.type;
		this.kind = own.kind;
		this.name = new.target.name;
	}
}

/** A failed sign-in attempt: shown on the sign-in page, not the error page. */
export class SignInError extends AuthError {
	static override readonly kind: ErrorKind = 'signIn';
}

export class AccessDenied extends AuthError {
	static override readonly type = 'AccessDenied';
}
export class AdapterError extends AuthError {
	static override readonly type = 'AdapterError';
}
export class CallbackRouteError extends AuthError {
	static override readonly type = 'CallbackRouteError';
}
export class ErrorPageLoop extends AuthError {
	static override readonly type = 'ErrorPageLoop';
}
export class EventError extends AuthError {
	static override readonly type = 'EventError';
}
export class InvalidCallbackUrl extends AuthError {
	static override readonly type = 'InvalidCallbackUrl';
}
export class InvalidEndpoints extends AuthError {
	static override readonly type = 'InvalidEndpoints';
}
/**
 * A flow's state/PKCE/nonce cookie is missing, expired, forged or another provider's. Shown as a
 * failed sign-in ("try again") rather than a server error: an expired 15-minute cookie is common.
 */
export class InvalidCheck extends SignInError {
	static override readonly type = 'InvalidCheck';
}
export class JWTSessionError extends AuthError {
	static override readonly type = 'JWTSessionError';
}
export class MissingAdapter extends AuthError {
	static override readonly type = 'MissingAdapter';
}
export class MissingAdapterMethods extends AuthError {
	static override readonly type = 'MissingAdapterMethods';
}
export class MissingAuthorize extends AuthError {
	static override readonly type = 'MissingAuthorize';
}
export class MissingSecret extends AuthError {
	static override readonly type = 'MissingSecret';
}
/** The spec's name for {@link MissingSecret}. */
export const MissingSecretError = MissingSecret;
export class OAuthAccountNotLinked extends SignInError {
	static override readonly type = 'OAuthAccountNotLinked';
}
export class OAuthCallbackError extends SignInError {
	static override readonly type = 'OAuthCallbackError';
}
export class OAuthProfileParseError extends AuthError {
	static override readonly type = 'OAuthProfileParseError';
}
export class SessionTokenError extends AuthError {
	static override readonly type = 'SessionTokenError';
}
/** The provider could not be reached or refused to start the flow: shown on the error page. */
export class OAuthSignInError extends AuthError {
	static override readonly type = 'OAuthSignInError';
}
export class EmailSignInError extends SignInError {
	static override readonly type = 'EmailSignInError';
}
export class SignOutError extends AuthError {
	static override readonly type = 'SignOutError';
}
export class UnknownAction extends AuthError {
	static override readonly type = 'UnknownAction';
}
export class UnsupportedStrategy extends AuthError {
	static override readonly type = 'UnsupportedStrategy';
}
export class InvalidProvider extends AuthError {
	static override readonly type = 'InvalidProvider';
}
export class UntrustedHost extends AuthError {
	static override readonly type = 'UntrustedHost';
}
export class Verification extends AuthError {
	static override readonly type = 'Verification';
}
export class MissingCSRF extends SignInError {
	static override readonly type = 'MissingCSRF';
}
export class AccountNotLinked extends SignInError {
	static override readonly type = 'AccountNotLinked';
}
export class DuplicateConditionalUI extends AuthError {
	static override readonly type = 'DuplicateConditionalUI';
}
export class MissingWebAuthnAutocomplete extends AuthError {
	static override readonly type = 'MissingWebAuthnAutocomplete';
}
/**
 * A passkey ceremony failed verification. `code` travels in the URL like `CredentialsSignin`'s:
 * `unknown-credential` tells the browser the passkey it used is not (or no longer) known here, so
 * it can stop offering it (WebAuthn Signal API); every other failure is `webauthn`.
 */
export class WebAuthnVerificationError extends SignInError {
	static override readonly type = 'WebAuthnVerificationError';
	code: 'webauthn' | 'unknown-credential' = 'webauthn';
}
export class ExperimentalFeatureNotEnabled extends AuthError {
	static override readonly type = 'ExperimentalFeatureNotEnabled';
}
/** kitauth: the request itself is malformed (answered 4xx, never a 500). */
export class InvalidRequest extends AuthError {
	static override readonly type = 'InvalidRequest';
	constructor(
		message: string,
		readonly status: 400 | 403 | 404 | 413 = 400
	) {
		super(message);
	}
}
/** kitauth: `rateLimit` is misconfigured (found when the options are derived). */
export class InvalidRateLimit extends AuthError {
	static override readonly type = 'InvalidRateLimit';
}
/**
 * kitauth: the rate-limit store failed or did not answer in time. Only ever logged: the limiter
 * still answers (from memory, or by refusing; see `rateLimit.failOpen`).
 */
export class RateLimitStoreError extends AuthError {
	static override readonly type = 'RateLimitStoreError';
}
/** kitauth: an attempt the rate limiter refused, and when it may be made again. */
abstract class LimiterRefusal extends SignInError {
	/** Seconds until the attempt may be made again. */
	readonly retryAfter: number;
	constructor(message: string, retryAfter: number) {
		super(message);
		this.retryAfter = retryAfter;
	}
}
/**
 * kitauth: the rate limiter refused the attempt (too many from this address or for this account).
 * Answered 429 with `Retry-After`, on the sign-in page with `error=RateLimited`.
 */
export class RateLimited extends LimiterRefusal {
	static override readonly type = 'RateLimited';
	constructor(retryAfter: number) {
		super(`Too many attempts: retry after ${retryAfter} s`, retryAfter);
	}
}

/**
 * kitauth: the rate limiter's store failed and `rateLimit.failOpen` is false, so the attempt was
 * refused without being counted. Not the client's doing: answered 503 with `Retry-After` (as a
 * busy store), never 429. The limiter has logged the store's failure.
 */
export class RateLimitUnavailable extends LimiterRefusal {
	static override readonly type = 'RateLimitUnavailable';
	constructor(retryAfter: number) {
		super(`The rate limiter's store is unavailable: retry after ${retryAfter} s`, retryAfter);
	}
}

/**
 * kitauth: a sensitive action (removing a passkey, signing out everywhere, the app's own) needs a
 * recent sign-in, and the session's is older than `maxAge` seconds: sign in again (re-authenticate)
 * and retry.
 */
export class ReauthenticationRequired extends AuthError {
	static override readonly type = 'ReauthenticationRequired';
	constructor(readonly maxAge: number) {
		super(`This action needs a sign-in within the last ${maxAge} seconds`);
	}
}

/**
 * Thrown from `authorize()` to refuse a credentials sign-in. `code` travels in the URL
 * (`?error=CredentialsSignin&code=…`), so it must not hint at why (no "wrong password").
 */
export class CredentialsSignin extends SignInError {
	static override readonly type = 'CredentialsSignin';
	code = 'credentials';
}

/**
 * kitauth: the second step of a sign-in has no valid pending state to finish: none, expired, used
 * already, or from another browser. Nothing was granted; the user signs in again.
 */
export class TwoFactorExpired extends SignInError {
	static override readonly type = 'TwoFactorExpired';
}

/**
 * kitauth: a second-factor code was refused (wrong, a TOTP step already used, a backup code used
 * or never made). Shown on the challenge (or set-up) form; the attempt counted against the limits.
 */
export class InvalidTwoFactorCode extends SignInError {
	static override readonly type = 'InvalidTwoFactorCode';
}
