/**
 * Errors are data: every `AuthError` carries its `type` (for logs) and its `kind` (the page it lands
 * on). `urlErrorFor()` is the one allow-list of what may reach a URL; anything else becomes
 * `Configuration`, so internals never leak into a query string.
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
	| 'InvalidRequest';

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
	| 'WebAuthnVerificationError';

/** The `error` values the error page understands (the spec's error-page values). */
export type ErrorPageParam = 'Configuration' | 'AccessDenied' | 'Verification' | 'OAuthSignin';

export class AuthError extends Error {
	readonly type: ErrorType = 'CallbackRouteError';
	readonly kind: ErrorKind = 'error';
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
		this.name = new.target.name;
	}
}

function defineError(type: ErrorType, kind: ErrorKind = 'error') {
	return class extends AuthError {
		override readonly type: ErrorType = type;
		override readonly kind: ErrorKind = kind;
	};
}

export class AccessDenied extends defineError('AccessDenied') {}
export class AdapterError extends defineError('AdapterError') {}
export class CallbackRouteError extends defineError('CallbackRouteError') {}
export class ErrorPageLoop extends defineError('ErrorPageLoop') {}
export class EventError extends defineError('EventError') {}
export class InvalidCallbackUrl extends defineError('InvalidCallbackUrl') {}
export class InvalidEndpoints extends defineError('InvalidEndpoints') {}
/**
 * A flow's state/PKCE/nonce cookie is missing, expired, forged or another provider's. Shown as a
 * failed sign-in ("try again") rather than a server error: an expired 15-minute cookie is common.
 */
export class InvalidCheck extends defineError('InvalidCheck', 'signIn') {}
export class JWTSessionError extends defineError('JWTSessionError') {}
export class MissingAdapter extends defineError('MissingAdapter') {}
export class MissingAdapterMethods extends defineError('MissingAdapterMethods') {}
export class MissingAuthorize extends defineError('MissingAuthorize') {}
export class MissingSecret extends defineError('MissingSecret') {}
/** The spec's name for {@link MissingSecret}. */
export const MissingSecretError = MissingSecret;
export class OAuthAccountNotLinked extends defineError('OAuthAccountNotLinked', 'signIn') {}
export class OAuthCallbackError extends defineError('OAuthCallbackError', 'signIn') {}
export class OAuthProfileParseError extends defineError('OAuthProfileParseError') {}
export class SessionTokenError extends defineError('SessionTokenError') {}
/** The provider could not be reached or refused to start the flow: shown on the error page. */
export class OAuthSignInError extends defineError('OAuthSignInError') {}
export class EmailSignInError extends defineError('EmailSignInError', 'signIn') {}
export class SignOutError extends defineError('SignOutError') {}
export class UnknownAction extends defineError('UnknownAction') {}
export class UnsupportedStrategy extends defineError('UnsupportedStrategy') {}
export class InvalidProvider extends defineError('InvalidProvider') {}
export class UntrustedHost extends defineError('UntrustedHost') {}
export class Verification extends defineError('Verification') {}
export class MissingCSRF extends defineError('MissingCSRF', 'signIn') {}
export class AccountNotLinked extends defineError('AccountNotLinked', 'signIn') {}
export class DuplicateConditionalUI extends defineError('DuplicateConditionalUI') {}
export class MissingWebAuthnAutocomplete extends defineError('MissingWebAuthnAutocomplete') {}
export class WebAuthnVerificationError extends defineError('WebAuthnVerificationError', 'signIn') {}
export class ExperimentalFeatureNotEnabled extends defineError('ExperimentalFeatureNotEnabled') {}
/** kitauth: the request itself is malformed (answered 4xx, never a 500). */
export class InvalidRequest extends defineError('InvalidRequest') {
	constructor(
		message: string,
		readonly status: 400 | 403 | 404 | 413 = 400
	) {
		super(message);
	}
}

/**
 * Thrown from `authorize()` to refuse a credentials sign-in. `code` travels in the URL
 * (`?error=CredentialsSignin&code=…`), so it must not hint at why (no "wrong password").
 */
export class CredentialsSignin extends defineError('CredentialsSignin', 'signIn') {
	code = 'credentials';
}

/** The one allow-list: error type → the value that may appear as `?error=` in a URL. */
const URL_SAFE: Partial<Record<ErrorType, SignInPageErrorParam | ErrorPageParam>> = {
	AccessDenied: 'AccessDenied',
	Verification: 'Verification',
	CredentialsSignin: 'CredentialsSignin',
	OAuthAccountNotLinked: 'OAuthAccountNotLinked',
	OAuthCallbackError: 'OAuthCallbackError',
	InvalidCheck: 'OAuthCallbackError',
	OAuthSignInError: 'OAuthSignin',
	EmailSignInError: 'EmailSignin',
	MissingCSRF: 'MissingCSRF',
	AccountNotLinked: 'AccountNotLinked',
	WebAuthnVerificationError: 'WebAuthnVerificationError'
};

/** The URL-safe name of an error: its allow-listed value, otherwise `Configuration`. */
export function urlErrorFor(error: unknown): SignInPageErrorParam | ErrorPageParam {
	return (error instanceof AuthError && URL_SAFE[error.type]) || 'Configuration';
}

/** Is this value allowed in an `?error=` parameter? (Used to sanitise incoming query values.) */
export function isUrlSafeError(value: string): boolean {
	return (
		value === 'Configuration' ||
		Object.values(URL_SAFE).includes(value as SignInPageErrorParam) ||
		SIGNIN_PAGE_VALUES.has(value)
	);
}

const SIGNIN_PAGE_VALUES = new Set<string>([
	'Signin',
	'OAuthSignin',
	'OAuthCallbackError',
	'OAuthCreateAccount',
	'EmailCreateAccount',
	'Callback',
	'OAuthAccountNotLinked',
	'EmailSignin',
	'CredentialsSignin',
	'SessionRequired'
]);

/** A CredentialsSignin code is shown in URLs: keep it short and plain. */
export function safeCode(code: unknown): string {
	return typeof code === 'string' && /^[\w.-]{1,64}$/.test(code) ? code : 'credentials';
}
