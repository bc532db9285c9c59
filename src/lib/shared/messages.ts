/**
 * What the built-in pages and the sign-in forms say for each `?error=` value: a message of the
 * catalogue (`i18n/`) per value; unknown values get the default. Look values up with
 * {@link signInMessage} and {@link errorPageText}: `?error=` is anyone's, and a plain index would
 * find `constructor` or `__proto__` on the object's prototype.
 */
import { type PlainKey, type Translator, translator } from '../i18n/index.js';

/** English, when a caller names no locale. */
const ENGLISH = translator('en');

/** The message key of each sign-in error value. */
export const SIGNIN_MESSAGE_KEYS: Readonly<Record<string, PlainKey>> = Object.freeze({
	Signin: 'signIn.error.differentAccount',
	OAuthSignin: 'signIn.error.differentAccount',
	OAuthCallbackError: 'signIn.error.callback',
	OAuthCreateAccount: 'signIn.error.differentAccount',
	EmailCreateAccount: 'signIn.error.differentAccount',
	Callback: 'signIn.error.differentAccount',
	OAuthAccountNotLinked: 'signIn.error.notLinked',
	AccountNotLinked: 'signIn.error.notLinked',
	EmailSignin: 'signIn.error.emailSignin',
	CredentialsSignin: 'signIn.error.credentials',
	SessionRequired: 'signIn.error.sessionRequired',
	MissingCSRF: 'signIn.error.csrf',
	WebAuthnVerificationError: 'signIn.error.webauthn',
	RateLimited: 'signIn.error.rateLimited',
	TwoFactorExpired: 'signIn.error.twoFactorExpired',
	// A sign-in refused because the store was busy or out of reach (the page and the form).
	Unavailable: 'signIn.error.busy',
	default: 'signIn.error.default'
});

/** The sign-in messages in English, by error value. */
export const SIGNIN_MESSAGES: Readonly<Record<string, string>> = Object.freeze(
	Object.fromEntries(Object.entries(SIGNIN_MESSAGE_KEYS).map(([error, key]) => [error, ENGLISH.t(key)]))
);

/** An error page's status, its texts' keys, and whether it offers a link back to the sign-in page. */
export interface ErrorPageKeys {
	status: number;
	heading: PlainKey;
	message: PlainKey;
	signin: boolean;
}

export interface ErrorPageText {
	status: number;
	heading: string;
	message: string;
	/** Offer a link back to the sign-in page? */
	signin: boolean;
}

/**
 * The error page's texts and status per `?error=` value. The value is anyone's (a link can carry
 * any of them), so no status here is a 5xx: a crafted link never makes a server error, and
 * monitoring counts only real ones. The failure itself was answered (and logged) by the request
 * that failed, which redirected here; the page only shows it. So `Configuration` and `OAuthSignin`
 * are 200 (Auth.js answers 500 for `Configuration`), `AccessDenied` and `Verification` 403 as in
 * Auth.js. When rendering the error page itself fails on the server, that request answers 500
 * (see `handle-error.ts`).
 */
export const ERROR_PAGE_KEYS: Readonly<Record<string, ErrorPageKeys>> = Object.freeze({
	Configuration: { status: 200, heading: 'error.configuration.heading', message: 'error.configuration.message', signin: false },
	AccessDenied: { status: 403, heading: 'error.accessDenied.heading', message: 'error.accessDenied.message', signin: true },
	Verification: { status: 403, heading: 'error.verification.heading', message: 'error.verification.message', signin: true },
	OAuthSignin: { status: 200, heading: 'error.providerUnavailable.heading', message: 'error.providerUnavailable.message', signin: true },
	// The page a link shows (200: a crafted link never makes a 5xx); a busy store answers 503 itself.
	Unavailable: { status: 200, heading: 'error.unavailable.heading', message: 'signIn.error.busy', signin: true },
	default: { status: 200, heading: 'error.default.heading', message: 'error.default.message', signin: true }
});

const textOf = (keys: ErrorPageKeys, t: Translator): ErrorPageText => ({
	status: keys.status,
	heading: t.t(keys.heading),
	message: t.t(keys.message),
	signin: keys.signin
});

/** The error pages in English, by error value. */
export const ERROR_PAGES: Readonly<Record<string, ErrorPageText>> = Object.freeze(
	Object.fromEntries(Object.entries(ERROR_PAGE_KEYS).map(([error, keys]) => [error, Object.freeze(textOf(keys, ENGLISH))]))
);

/** The key of the sign-in message for an `?error=` value (own keys only), else the generic one's. */
export function signInMessageKey(error: string): PlainKey {
	return (Object.hasOwn(SIGNIN_MESSAGE_KEYS, error) && SIGNIN_MESSAGE_KEYS[error]) || 'signIn.error.default';
}

/** The sign-in message for an `?error=` value (own keys only), else the generic one; English unless `t` says. */
export function signInMessage(error: string, t: Translator = ENGLISH): string {
	return t.t(signInMessageKey(error));
}

/** The error page's text for an `?error=` value (own keys only), else the generic one; English unless `t` says. */
export function errorPageText(error: string | undefined, t: Translator = ENGLISH): ErrorPageText {
	const keys = (error !== undefined && Object.hasOwn(ERROR_PAGE_KEYS, error) && ERROR_PAGE_KEYS[error]) || ERROR_PAGE_KEYS.default!;
	return textOf(keys, t);
}
