import type { LocaleMessages } from '../../i18n/index.js';
import type { Theme } from '../../shared/theme.js';
import type { Adapter } from './adapter.js';
import type {
	Account,
	AdapterUser,
	JWT,
	Profile,
	User
} from './models.js';
import type { RateLimitConfig } from './limit.js';
import type { CredentialInput, Provider } from './provider.js';
import type { SessionCallbackParams, SessionCallbackResult } from './session-callback.js';
import type { EventCallbacks } from './events.js';
import type { TwoFactorConfig } from './two-factor.js';

type Awaitable<T> = T | PromiseLike<T>;

export type { CredentialChange, CredentialsChangedMessage, EventCallbacks } from './events.js';

/** Environment variables: `process.env`, a platform's bindings, or any such record. */
export type Env = Record<string, string | undefined>;

export type AuthAction =
	| 'callback'
	| 'csrf'
	| 'error'
	| 'forgot-password'
	| 'providers'
	| 'session'
	| 'signin'
	| 'signout'
	| 'signup'
	| 'reset-password'
	| 'verify-email'
	| 'resend-verification'
	| 'change-password'
	| 'change-email'
	| 'confirm-email'
	| 'delete-account'
	| 'verify-request'
	| 'webauthn-options'
	| 'two-factor'
	| 'two-factor-setup'
	| 'two-factor-enable'
	| 'two-factor-disable'
	| 'two-factor-backup-codes'
	| 'two-factor-devices';

export type WarningCode =
	| 'debug-enabled'
	| 'csrf-disabled'
	| 'env-url-basepath-redundant'
	| 'env-url-basepath-mismatch'
	| 'experimental-webauthn'
	| 'short-secret'
	| 'untrusted-callback-url'
	| 'rate-limited'
	| 'rate-limit-memory-store'
	| 'jwt-sessions-not-revocable';

export interface LoggerInstance {
	warn: (code: WarningCode) => void;
	error: (error: Error) => void;
	debug: (message: string, metadata?: unknown) => void;
}

export interface SessionOptions {
	/** `jwt` (default without an adapter) or `database` (default with one). */
	strategy: 'jwt' | 'database';
	/** Idle lifetime in seconds (default 30 days). */
	maxAge: number;
	/** How often, in seconds, an active session is extended (default 1 day; 0 = on every access). */
	updateAge: number;
	/**
	 * Database strategy: makes the session token; yours should carry 256 bits of randomness.
	 * Default: 32 random bytes, hex; with `hashTokens: false`, Auth.js's `crypto.randomUUID()`.
	 */
	generateSessionToken: () => string;
	/**
	 * kitauth: absolute lifetime in seconds, counted from sign-in, after which the session ends
	 * however active it is (both strategies: JWT sessions keep their sign-in time, `auth_time`, in
	 * the token). Default: none.
	 */
	absoluteMaxAge?: number;
	/**
	 * kitauth: which sessions end when a credential of the user changes (`credentialsChanged`, and
	 * kitauth's own passkey removal and account unlinking): `'others'` (default: every session but
	 * the one that made the change), `'all'`, or `false` (none; the `credentialsChanged` event still
	 * fires).
	 */
	endOnCredentialChange?: 'others' | 'all' | false;
	/**
	 * kitauth, JWT sessions with an adapter that stores session cutoffs (`getSessionsValidAfter`,
	 * kitauth's libSQL adapter): how long, in seconds, a process may rely on the cutoff it last read
	 * for a user before asking the store again (default 30; 0: on every read). A cutoff set through
	 * this process applies at once; one set through another process within this many seconds.
	 */
	revocationCheckInterval?: number;
	/**
	 * kitauth: store only SHA-256 of database session tokens (default `true`). Sessions Auth.js
	 * wrote (raw tokens) are found anyway and moved to the hash in place, whatever the token's shape
	 * but one: 64 hex digits cannot be told from a stored hash, so such tokens are read only with
	 * this off. Turn off only while Auth.js serves the same database (a rollout), or while sessions
	 * with such tokens should last: rows then keep raw tokens, which Auth.js looks sessions up by,
	 * and new tokens take Auth.js's shape, so they too are moved to their hash once this is back on.
	 */
	hashTokens: boolean;
}

export interface JWTEncodeParams<Payload = JWT> {
	token?: Payload;
	/** The cookie name: the key derivation's salt. */
	salt: string;
	secret: string | string[];
	/** Seconds from now until expiry. */
	maxAge?: number;
}

export interface JWTDecodeParams {
	token?: string;
	salt: string;
	secret: string | string[];
}

export interface JWTOptions {
	secret: string | string[];
	maxAge: number;
	encode: (params: JWTEncodeParams) => Awaitable<string>;
	decode: (params: JWTDecodeParams) => Awaitable<JWT | null>;
}

export interface CookieOption {
	name: string;
	options: CookieSerializeOptions;
}

export interface CookieSerializeOptions {
	domain?: string;
	path?: string;
	expires?: Date;
	maxAge?: number;
	httpOnly?: boolean;
	secure?: boolean;
	sameSite?: 'lax' | 'strict' | 'none';
	partitioned?: boolean;
}

export type CookieKey =
	| 'sessionToken'
	| 'callbackUrl'
	| 'csrfToken'
	| 'pkceCodeVerifier'
	| 'state'
	| 'nonce'
	| 'webauthnChallenge'
	/** kitauth: the address and attempt count of an email sign-in's one-time code (codes only). */
	| 'emailVerification'
	/**
	 * kitauth: the rate limiter's device cookie, proof that this browser signed in to an account
	 * before (its attempts for that account then have a budget of their own; see `rateLimit`).
	 */
	| 'device'
	/** kitauth: a sign-in waiting for its second factor (`twoFactor`): sealed, short-lived, single-use. */
	| 'twoFactor'
	/** kitauth: "remember this device": this browser passed a second factor (`twoFactor.rememberDevice`). */
	| 'twoFactorDevice';

export type CookiesOptions = Record<CookieKey, CookieOption>;

export interface PagesOptions {
	signIn: string;
	signOut: string;
	error: string;
	verifyRequest: string;
	newUser: string;
	/** kitauth: the second-factor challenge (`twoFactor`), instead of the built-in one. */
	twoFactor: string;
}

export type { Theme };

export interface SignInCallbackParams {
	user: User | AdapterUser;
	account: Account | null;
	profile?: Profile;
	email?: { verificationRequest?: boolean };
	credentials?: Record<string, CredentialInput | unknown>;
}

export interface JWTCallbackParams {
	token: JWT;
	/** Only at sign-in (`trigger` `signIn`/`signUp`). */
	user?: User | AdapterUser;
	/** Only at sign-in. */
	account?: Account | null;
	profile?: Profile;
	trigger?: 'signIn' | 'signUp' | 'update';
	/** @deprecated use `trigger === 'signUp'` */
	isNewUser?: boolean;
	/** Data sent by a session update; validate it before trusting it. */
	session?: unknown;
}

export interface CallbacksOptions {
	signIn: (params: SignInCallbackParams) => Awaitable<boolean | string>;
	redirect: (params: { url: string; baseUrl: string }) => Awaitable<string>;
	session: (params: SessionCallbackParams) => Awaitable<SessionCallbackResult>;
	jwt: (params: JWTCallbackParams) => Awaitable<JWT | null>;
}

/**
 * kitauth (Auth.js has no such option): the language of the built-in pages, of the sign-in and
 * sign-out form actions' answers and of the sign-in email.
 */
export interface I18nConfig {
	/**
	 * The locale (a BCP 47 tag), or a function of the request choosing it (e.g. from a cookie or
	 * the URL; return nothing to let `Accept-Language` decide). Default: `Accept-Language`,
	 * negotiated among the shipped locales and those of `messages`, else English.
	 */
	locale?: string | ((request: Request) => string | null | undefined);
	/** Overrides of any message, and locales of the app's own: `{ en: { 'signIn.heading': 'Welcome back' }, nl: {…} }`. */
	messages?: LocaleMessages;
}

/** The configuration record (the spec's `AuthConfig`). */
export interface AuthConfig {
	providers: Provider[];
	adapter?: Adapter;
	basePath?: string;
	secret?: string | string[];
	session?: Partial<SessionOptions>;
	jwt?: Partial<JWTOptions>;
	callbacks?: Partial<CallbacksOptions>;
	events?: Partial<EventCallbacks>;
	cookies?: Partial<Record<CookieKey, Partial<CookieOption>>>;
	pages?: Partial<PagesOptions>;
	theme?: Theme;
	/** kitauth: the locale of pages, form answers and emails, and overrides of their messages. */
	i18n?: I18nConfig;
	debug?: boolean;
	logger?: Partial<LoggerInstance>;
	experimental?: { enableWebAuthn?: boolean };
	trustHost?: boolean;
	useSecureCookies?: boolean;
	redirectProxyUrl?: string;
	/**
	 * kitauth (Auth.js has no limiter): limits on sign-in attempts per client address and per
	 * account (credentials, email requests and codes, WebAuthn, OAuth starts).
	 *
	 * - omitted: on when `NODE_ENV` is `production` with the default budgets, off otherwise;
	 * - `true` or an object: on (unless `enabled: false`); `false`: off;
	 * - the environment variable `AUTH_RATE_LIMIT=off` turns it off whatever this says (load
	 *   tests); `AUTH_RATE_LIMIT=on` turns it on where it would be off by default.
	 *
	 * Counters live in `store`, by default the adapter's (when it has `hitRateLimit`, as kitauth's
	 * libSQL adapter does), else this process's memory. Forwarded headers are only read when
	 * declared in `clientAddress`. A successful password or code sign-in sets the device cookie
	 * (`cookies.device`, `authjs.device`): that browser's later attempts for that account have a
	 * budget of their own, so an attacker cannot lock the account's owner out of it.
	 */
	rateLimit?: boolean | RateLimitConfig;
	/**
	 * kitauth: two-factor authentication (TOTP and backup codes), asked for after every first
	 * factor — credentials, email, OAuth/OIDC, a passkey without user verification — for users who
	 * have it (or must: `required`). No session exists until it passes. Needs an adapter with
	 * kitauth's two-factor methods (its libSQL adapter has them).
	 */
	twoFactor?: TwoFactorConfig;
	/** For framework authors: return the internal response (see `raw`). */
	raw?: symbol;
	/** For framework authors whose framework already checks CSRF (see `skipCSRFCheck`). */
	skipCSRFCheck?: symbol;
}
