/**
 * What an error becomes in an answer: `urlErrorFor()` is the one allow-list of what may reach a
 * URL (anything else becomes `Configuration`, so internals never leak into a query string), and
 * `retryAfterOf()` tells a store that is busy or out of reach (a 503 with `Retry-After`) from a
 * fault.
 */
import {
	AdapterError,
	AuthError,
	CredentialsSignin,
	type ErrorPageParam,
	type ErrorType,
	RateLimited,
	RateLimitUnavailable,
	type SignInPageErrorParam
} from './errors.js';
import { signInMessage } from '../shared/messages.js';
import type { Translator } from '../i18n/index.js';

/** What JSON answers say of a configuration problem; the details are in the server's log. */
export const CONFIGURATION_MESSAGE = 'There was a problem with the server configuration. Check the server logs for more information.';

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
	WebAuthnVerificationError: 'WebAuthnVerificationError',
	RateLimited: 'RateLimited',
	TwoFactorExpired: 'TwoFactorExpired'
};

/**
 * The URL-safe name of an error: `Unavailable` for a store that is busy or out of reach for a
 * while (`retryAfterOf`), else its allow-listed value, otherwise `Configuration`.
 */
export function urlErrorFor(error: unknown): SignInPageErrorParam | ErrorPageParam {
	if (retryAfterOf(error) !== undefined) return 'Unavailable';
	return (error instanceof AuthError && URL_SAFE[error.type]) || 'Configuration';
}

/**
 * The store is busy or unreachable for a while (an adapter error whose cause says it may be
 * retried, as the libSQL adapter's do when the database is locked, or whose driver could not
 * reach its server, see `unreachable`): when to try again, in seconds. Not a configuration
 * problem: the answer is a 503 with `Retry-After`, not `Configuration`.
 */
export function retryAfterOf(error: unknown): number | undefined {
	if (error instanceof RateLimitUnavailable) return error.retryAfter;
	if (!(error instanceof AdapterError)) return undefined;
	const cause = error.cause?.err as { retryable?: unknown; retryAfter?: unknown } | undefined;
	if (cause?.retryable !== true) return unreachable(cause) ? DEFAULT_RETRY_AFTER : undefined;
	const seconds = typeof cause.retryAfter === 'number' && Number.isFinite(cause.retryAfter) ? Math.ceil(cause.retryAfter) : DEFAULT_RETRY_AFTER;
	return Math.min(Math.max(seconds, 1), 3600);
}

const DEFAULT_RETRY_AFTER = 5;

/** Network errors of Node's sockets that mean the server was not reached, or went away. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ECONNABORTED']);

/**
 * Whether a driver's error (or one of its causes: drizzle wraps them) says its server could not
 * be reached, rather than that it refused the query: a socket error (`NETWORK_CODES`), or an SQL
 * state of the standard's connection-exception class (08xxx), of a server shutting down, crashed
 * or starting up (57P01–57P03), or out of connections (53300), as drivers that keep the SQL state
 * in `code` (`pg`) report them.
 */
function unreachable(error: unknown): boolean {
	const seen: unknown[] = [error];
	for (let i = 0; i < seen.length && i < 10; i++) {
		const current = seen[i] as { code?: unknown; cause?: unknown; errors?: unknown } | null | undefined;
		if (typeof current !== 'object' || current === null) continue;
		const { code } = current;
		if (typeof code === 'string' && (NETWORK_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code) || /^57P0[123]$/.test(code) || code === '53300')) {
			return true;
		}
		seen.push(current.cause);
		if (Array.isArray(current.errors)) seen.push(...(current.errors as unknown[]));
	}
	return false;
}

/** Is this value allowed in an `?error=` parameter? (Used to sanitise incoming query values.) */
export function isUrlSafeError(value: string): boolean {
	return (
		value === 'Configuration' ||
		value === 'Unavailable' ||
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

/** A refused sign-in or sign-out as a form shows it. */
export interface Refusal {
	/** 429: too many attempts; 503: the store was busy or out of reach, nothing changed; else 400. */
	status: 400 | 429 | 503;
	/** The error's allow-listed name (`CredentialsSignin`, `AccessDenied`, …; `Configuration` for anything else). */
	error: SignInPageErrorParam | ErrorPageParam;
	/** `CredentialsSignin`'s code, made safe to show (default `credentials`). */
	code?: string;
	/** What the sign-in page says of it, in words. */
	message: string;
	/** With 429 and 503: seconds until another attempt may be made. */
	retryAfter?: number;
}

/**
 * What a form (a form action, a remote function) shows when the server API refused a sign-in or
 * sign-out: its status, the error's name and code as they may appear in a URL, and the message.
 * `undefined` for what is no `AuthError` — a fault, to be thrown on. Integrations use this instead
 * of taking an error apart themselves. The message is in `i18n`'s language (English without it).
 */
export function refusalOf(error: unknown, i18n?: Translator): Refusal | undefined {
	if (!(error instanceof AuthError)) return undefined;
	const name = urlErrorFor(error);
	const refusal: Refusal = {
		status: 400,
		error: name,
		code: error instanceof CredentialsSignin ? safeCode(error.code) : undefined,
		message: signInMessage(name, i18n)
	};
	if (error instanceof RateLimited) return { ...refusal, status: 429, retryAfter: error.retryAfter };
	const retryAfter = retryAfterOf(error);
	return retryAfter === undefined ? refusal : { ...refusal, status: 503, retryAfter };
}

/** A CredentialsSignin code is shown in URLs: keep it short and plain. */
export function safeCode(code: unknown): string {
	return typeof code === 'string' && /^[\w.-]{1,64}$/.test(code) ? code : 'credentials';
}
