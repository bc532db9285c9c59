/**
 * What the built-in pages say for each `?error=` value; unknown values get the default. Look values
 * up with {@link signInMessage} and {@link errorPageText}: `?error=` is anyone's, and a plain index
 * would find `constructor` or `__proto__` on the object's prototype.
 */
/** What a sign-in refused because the store was busy or out of reach says (the page and the form). */
const BUSY = 'The sign-in service is busy right now. Nothing was changed: try again in a moment.';

export const SIGNIN_MESSAGES: Record<string, string> = {
	Signin: 'Try signing in with a different account.',
	OAuthSignin: 'Try signing in with a different account.',
	OAuthCallbackError: 'The sign-in provider refused or cancelled the request. Try again.',
	OAuthCreateAccount: 'Try signing in with a different account.',
	EmailCreateAccount: 'Try signing in with a different account.',
	Callback: 'Try signing in with a different account.',
	OAuthAccountNotLinked:
		'This email is already used with another sign-in method. Sign in the way you did before, then link this one.',
	AccountNotLinked:
		'This email is already used with another sign-in method. Sign in the way you did before, then link this one.',
	EmailSignin: 'The sign-in email could not be sent. Check the address and try again.',
	CredentialsSignin: 'Sign in failed. Check the details you provided are correct.',
	SessionRequired: 'Please sign in to access this page.',
	MissingCSRF: 'The form expired. Please try again.',
	WebAuthnVerificationError: 'The passkey could not be verified. Try again.',
	RateLimited: 'Too many attempts. Wait a little, then try again.',
	TwoFactorExpired: 'Your sign-in expired before the second step. Sign in again.',
	Unavailable: BUSY,
	default: 'Unable to sign in.'
};

export interface ErrorPageText {
	status: number;
	heading: string;
	message: string;
	/** Offer a link back to the sign-in page? */
	signin: boolean;
}

/**
 * The error page's text and status per `?error=` value. The value is anyone's (a link can carry any
 * of them), so no status here is a 5xx: a crafted link never makes a server error, and monitoring
 * counts only real ones. The failure itself was answered (and logged) by the request that failed,
 * which redirected here; the page only shows it. So `Configuration` and `OAuthSignin` are 200
 * (Auth.js answers 500 for `Configuration`), `AccessDenied` and `Verification` 403 as in Auth.js.
 * When rendering the error page itself fails on the server, that request answers 500 (see
 * `handle-error.ts`).
 */
export const ERROR_PAGES: Record<string, ErrorPageText> = {
	Configuration: {
		status: 200,
		heading: 'Server error',
		message: 'There is a problem with the server configuration. Check the server logs for more information.',
		signin: false
	},
	AccessDenied: {
		status: 403,
		heading: 'Access denied',
		message: 'You do not have permission to sign in.',
		signin: true
	},
	Verification: {
		status: 403,
		heading: 'Unable to sign in',
		message: 'The sign-in link is no longer valid. It may have been used already or it may have expired.',
		signin: true
	},
	OAuthSignin: {
		status: 200,
		heading: 'Sign-in provider unavailable',
		message: 'The sign-in provider could not be reached. Try again in a moment.',
		signin: true
	},
	// The page a link shows (200: a crafted link never makes a 5xx); a busy store answers 503 itself.
	Unavailable: {
		status: 200,
		heading: 'Temporarily unavailable',
		message: BUSY,
		signin: true
	},
	default: {
		status: 200,
		heading: 'Error',
		message: 'Something went wrong while signing in.',
		signin: true
	}
};

/** The sign-in message for an `?error=` value (own keys only), else the generic one. */
export function signInMessage(error: string): string {
	return (Object.hasOwn(SIGNIN_MESSAGES, error) && SIGNIN_MESSAGES[error]) || SIGNIN_MESSAGES.default!;
}

/** The error page's text for an `?error=` value (own keys only), else the generic one. */
export function errorPageText(error: string | undefined): ErrorPageText {
	return (error !== undefined && Object.hasOwn(ERROR_PAGES, error) && ERROR_PAGES[error]) || ERROR_PAGES.default!;
}
