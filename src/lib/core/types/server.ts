/**
 * The server API's public shapes (`createAuthServer`, `server.ts`): the request a server-side call
 * is made for, what a sign-in or sign-out answers, and the session of one request with what the
 * signed-in user may do with it.
 */
import type { PasskeyInfo, PasskeyRemoval } from '../flows/webauthn/manage.js';
import type { ClientProvider } from '../../shared/provider.js';
import type { Platform } from '../request.js';
import type { LinkedAccount, SignInMethodsHint, UnlinkResult } from '../accounts.js';
import type { SessionsEnded } from '../session/end.js';
import type { SessionInfo, SessionPage, SessionPageOptions } from '../session/manage.js';
import type { CredentialChange } from './config.js';
import type { Cookie } from './internal.js';
import type { PasswordAccountAction, PasswordFormAction } from '../flows/password/fields.js';
import type { AccountStep } from '../flows/password/account-proof.js';

export type { PasswordAccountAction, PasswordFormAction };
import type { Session } from './models.js';
import type { Translator } from '../../i18n/index.js';
import type { TwoFactorManager } from './two-factor.js';

/** The request a server-side call is made for. */
export interface ServerRequest {
	/** The URL the app sees (its origin names the site unless `AUTH_URL` is set). */
	readonly url: URL;
	/** The request itself: its headers (cookies, user agent) and, for `authorize()`, the rest. */
	readonly request: Request;
	/** The connection's address, when the framework knows it (for the rate limiter). */
	readonly clientAddress?: string;
	/** Keeps the messages sent after the answer alive (Cloudflare Workers' `ctx.waitUntil`). */
	readonly waitUntil?: (promise: Promise<unknown>) => void;
}

/** Where a sign-in or sign-out sends the user next, and the cookies to set on the way. */
export interface Redirect {
	url: string;
	cookies: Cookie[];
}

/** A session after an update (`updateSession`), and the cookies to set for it. */
export interface SessionUpdate {
	readonly session: Session | null;
	readonly cookies: readonly Cookie[];
}

/** What a server-side sign-in hands the provider's flow. */
export interface SignInParams {
	/** The submitted fields (credentials) or options. */
	fields?: Record<string, unknown>;
	/** Extra parameters for the authorization request (OAuth). */
	authorizationParams?: URLSearchParams;
	/** Where to go after signing in (checked by the `redirect` callback). */
	callbackUrl?: string;
}

/**
 * The session of one request, read once, and what the signed-in user may do with it. Integrations
 * memoize it per request: every call below reuses the read instead of looking the session up again.
 */
export interface CurrentSession {
	readonly session: Session | null;
	/** Cookies the read wants set: a refreshed session cookie, or the deletion of a dead one. */
	readonly cookies: readonly Cookie[];
	/** The user's live sessions, newest first (database sessions); `[]` when signed out. */
	listSessions(): Promise<SessionInfo[]>;
	/**
	 * One page of them, for a list that stays small however many there are: the current session
	 * apart, then at most `limit` (default 20, at most 100) others, newest first, after `cursor`
	 * (the previous page's `nextCursor`).
	 */
	listSessionPage(options?: SessionPageOptions): Promise<SessionPage>;
	/** Ends one of the user's sessions by its `id` from `listSessions()`; `false` if not theirs. */
	revokeSession(id: string): Promise<boolean>;
	/**
	 * "Sign out everywhere else": ends every session of the user but this one; the count. Needs a
	 * recent sign-in (see `requireRecentAuthentication`; `maxAge` default 10 minutes).
	 */
	revokeOtherSessions(options?: { maxAge?: number }): Promise<number>;
	/**
	 * Ends every session of the signed-in user, this one included (database: the rows; JWT: every
	 * token issued until now, with an adapter that stores session cutoffs — see `endSessionsOf`).
	 * Set the returned `cookies` on the response (they clear this browser's cookie). Signed out:
	 * nothing happens.
	 */
	endAllSessions(): Promise<SessionsEnded>;
	/**
	 * Tell kitauth a credential of the signed-in user changed (their password or email, which the
	 * app manages): ends their sessions as `session.endOnCredentialChange` says (default: every
	 * session but this one; `endSessions` overrides it for this call) and emits the
	 * `credentialsChanged` event. Set the returned `cookies` on the response (JWT: this session is
	 * re-issued). kitauth reports its own changes (a passkey removed, an account unlinked) itself.
	 */
	credentialsChanged(change: CredentialChange, options?: { endSessions?: 'others' | 'all' | 'none' }): Promise<SessionsEnded>;
	/**
	 * When the user last signed in or re-authenticated (every sign-in, including one made while
	 * signed in, starts a new session); `null` when signed out or unknown.
	 */
	readonly authenticatedAt: Date | null;
	/** kitauth: two-factor authentication for the signed-in user (`twoFactor`). */
	readonly twoFactor: TwoFactorManager;
	/** "Sudo mode": did the user sign in within `maxAge` seconds (default 600)? */
	recentlyAuthenticated(maxAge?: number): boolean;
	/**
	 * Guards a sensitive action: throws `ReauthenticationRequired` unless the user signed in within
	 * `maxAge` seconds (default 600). Re-authenticating is signing in again while signed in (a
	 * passkey, or the provider of a linked account), then retrying.
	 */
	requireRecentAuthentication(maxAge?: number): void;
	/** The signed-in user's passkeys (WebAuthn providers): list, rename, remove. */
	readonly passkeys: PasskeyManager;
	/**
	 * The providers linked to the user (no tokens), each saying whether it may be unlinked; `[]`
	 * when signed out or without an adapter. `otherSignIn`: see `unlinkAccount`.
	 */
	linkedAccounts(hint?: SignInMethodsHint): Promise<LinkedAccount[]>;
	/**
	 * Unlinks one of the user's accounts, refusing to remove the last way to sign in: another
	 * linked account, or email sign-in for a user with an address, must remain — or the app says the
	 * user has one kitauth cannot see (`otherSignIn: true`, e.g. a password). `providerAccountId`
	 * picks among several accounts of one provider. Needs an adapter (`listAccountsByUserId`,
	 * `unlinkAccount`).
	 */
	unlinkAccount(provider: string, options?: SignInMethodsHint & { providerAccountId?: string }): Promise<UnlinkResult>;
	/**
	 * The user's access token for a provider, refreshed when expired; `null` when there is none or
	 * it cannot be renewed (the session then carries `error: 'RefreshTokenError'`). Looked up (and
	 * refreshed) once for the request, however many of its callers ask. Server only.
	 */
	accessToken(providerId: string): Promise<string | null>;
}

/** The signed-in user's passkeys. */
export interface PasskeyManager {
	/** Newest first; `[]` when signed out or without WebAuthn providers. */
	list(): Promise<PasskeyInfo[]>;
	/** Renames one by its `id`; `false` when it is not the user's or the name is empty. */
	rename(id: string, name: string): Promise<boolean>;
	/**
	 * Removes one by its `id`. Needs a recent sign-in (throws `ReauthenticationRequired`), and is
	 * refused when it is the user's last way to sign in.
	 */
	remove(id: string, options?: { maxAge?: number }): Promise<PasskeyRemoval>;
}

/**
 * A callback an identity provider reaches with a cross-site form POST from its own page
 * (`response_mode=form_post`): a framework that refuses cross-site form posts before the
 * integration runs must trust `origin` for it.
 */
export interface FormPostCallback {
	providerId: string;
	providerName: string;
	/** The origin of the provider's page that posts (its authorization endpoint's, else its issuer's). */
	origin: string;
	/** The callback's path, under `basePath`. */
	path: string;
}

/**
 * kitauth's framework-free server API for one configuration: everything an integration (kitauth's
 * SvelteKit edge, or another framework's) needs, without building requests of its own.
 */
export interface AuthServer {
	/** The path the REST API and built-in pages live under (e.g. `/auth`). */
	readonly basePath: string;
	/** The callbacks providers reach with a cross-site form POST (`response_mode=form_post`). */
	readonly formPostCallbacks: readonly FormPostCallback[];
	/**
	 * Does `pathname` belong to the REST API and built-in pages (or, when a WebAuthn provider lists
	 * related origins, is it `/.well-known/webauthn`)?
	 */
	serves(pathname: string): boolean;
	/**
	 * Answers a request under `basePath` (as `Auth()` does), and `/.well-known/webauthn`;
	 * `platform.clientAddress` is the connection's address where the framework knows it (for the
	 * rate limiter).
	 */
	handle(request: Request, platform?: Platform): Promise<Response>;
	/** Reads the request's session. Throws `UntrustedHost` (never a session) when the host is not trusted. */
	session(request: ServerRequest): Promise<CurrentSession>;
	/**
	 * Updates the request's session as `POST {basePath}/session` does for the browser's `update()`:
	 * the `jwt` (JWT sessions) or `session` (database sessions) callback runs with trigger `update`
	 * and `data`, and the answer is the new session (`null` when signed out) with the cookies that
	 * carry it. For a server-side caller whose framework has checked the request's origin.
	 */
	updateSession(request: ServerRequest, data: unknown): Promise<SessionUpdate>;
	/**
	 * Signs in with `providerId` for a server-side caller (a form action, `signIn()`), whose
	 * framework has checked the request's origin. An unknown or missing provider goes to the sign-in
	 * page. Throws the `AuthError` of a refused sign-in.
	 */
	signIn(request: ServerRequest, providerId: string | undefined, params?: SignInParams): Promise<Redirect>;
	/**
	 * kitauth: the second step of the sign-in waiting in this browser (`twoFactor`), for a
	 * server-side caller (a form action): `code` is a TOTP or backup code, `remember` (`'on'`) asks
	 * to remember the browser. Throws `TwoFactorExpired` when no sign-in is waiting here.
	 */
	completeTwoFactor(request: ServerRequest, fields: { code?: unknown; remember?: unknown }): Promise<TwoFactorOutcome>;
	/**
	 * A password form (`signup`, `forgot-password`, `reset-password`) of the `Password()` provider
	 * `providerId` (default: the first), submitted by a server-side caller (a form action): the
	 * same step as the REST route's, answered as data.
	 */
	passwordForm(request: ServerRequest, action: PasswordFormAction, fields: Record<string, string>, providerId?: string): Promise<PasswordOutcome>;
	/**
	 * A change to the signed-in user's password account (`change-password`, `change-email`,
	 * `delete-account`) of the `Password()` provider `providerId` (default: the first), for a
	 * server-side caller (a form action): the same step as the REST route's. Set the outcome's
	 * `cookies` on the response (a session re-issued, or cleared by a deletion).
	 */
	passwordAccount(request: ServerRequest, action: PasswordAccountAction, fields: Record<string, string>, providerId?: string): Promise<AccountStep>;
	/** Signs out for a server-side caller. */
	signOut(request: ServerRequest, params?: { callbackUrl?: string }): Promise<Redirect>;
	/** The sign-in page (built-in or `pages.signIn`) with a `callbackUrl`. */
	signInUrl(request: ServerRequest, callbackUrl: string): string;
	/** The client-safe list of the providers, for sign-in forms. */
	providers(): ClientProvider[];
	/**
	 * The request's language: the `i18n.locale` option (a tag, or a function of the request), else
	 * `Accept-Language` negotiated among the shipped locales and the app's; the translator of its
	 * messages (the app's `i18n.messages` first). The form actions answer in it; pass its `locale`
	 * to the components so that they speak it too.
	 */
	i18n(request: Request): Translator;
	/**
	 * Ends every session of a user, wherever they are (an admin tool, a disabled or deleted
	 * account): database sessions are deleted; JWT sessions stop opening when the adapter stores
	 * session cutoffs (`getSessionsValidAfter`/`setSessionsValidAfter`, as kitauth's libSQL adapter
	 * does) — at once in this process, within `session.revocationCheckInterval` seconds in others.
	 * Without such an adapter a JWT session cannot be ended from the server (`jwtRevoked: false`):
	 * it lives until it expires.
	 */
	endSessionsOf(userId: string): Promise<Omit<SessionsEnded, 'cookies'>>;
	/**
	 * A credential of a user changed outside a session of theirs (a password reset by emailed
	 * link, an admin's change): ends all their sessions (unless `session.endOnCredentialChange` is
	 * `false`) and emits `credentialsChanged`.
	 */
	credentialsChanged(userId: string, change: CredentialChange): Promise<Omit<SessionsEnded, 'cookies'>>;
}

/** What the server API's `completeTwoFactor` came to. */
export type TwoFactorOutcome =
	/** Signed in: go to `url` with `cookies` set; `backupCodes` when the sign-in set two-factor up (show them once). */
	| { ok: true; url: string; cookies: Cookie[]; backupCodes?: string[] }
	/** The code was refused (wrong, already used): say `message` under the code field. */
	| { ok: false; message: string };

export type { AccountStep as PasswordAccountOutcome };

/** What the server API's `passwordForm` came to. */
export type PasswordOutcome =
	/** Done: go to `url` with `cookies` set (as the REST route redirects). */
	| { ok: true; url: string; cookies: Cookie[] }
	/** Refused: the reasons under their fields, and the address typed (a sign-up's) to show again. */
	| { ok: false; fieldErrors: { email?: string[]; password?: string[] }; values?: { email?: string } };
