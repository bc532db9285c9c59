import { respond } from './auth.js';
import { type AuthOptions, createRuntime, resolveOptions, type ResolveOptions } from './config.js';
import { type AuthContext, actionUrl, createContext, withParams } from './context.js';
import { accessToken } from './flows/oauth/access-token.js';
import { flowOf } from './flows/index.js';
import { listPasskeys, type PasskeyInfo, type PasskeyRemoval, removePasskey, renamePasskey } from './flows/webauthn/manage.js';
import { credentialsChanged, endUserSessions, type SessionsEnded, sessionUserId } from './session/end.js';
import { relatedOriginsDocument } from './flows/webauthn/well-known.js';
import { type ClientProvider, clientProvider } from './providers/public.js';
import { toResponse } from './response.js';
import type { Platform } from './request.js';
import { route } from './router.js';
import { type LinkedAccount, linkedAccounts, type SignInMethodsHint, unlinkAccount, type UnlinkResult } from './session/accounts.js';
import { parseCookieHeader } from './session/cookies.js';
import {
	listSessionPage,
	listSessions,
	revokeOtherSessions,
	revokeSession,
	type SessionInfo,
	type SessionPage,
	type SessionPageOptions
} from './session/manage.js';
import { authenticatedAt, recentlyAuthenticated, requireRecentAuthentication } from './session/recent.js';
import { assertTrustedHost } from './trust.js';
import type { AuthConfig, CredentialChange } from './types/config.js';
import type { Cookie, RequestInternal } from './types/internal.js';
import type { Session } from './types/models.js';

export type { Platform } from './request.js';

type Awaitable<T> = T | PromiseLike<T>;

/** Where a relying party lists the other origins its passkeys may be used on (Related Origin Requests). */
const WELL_KNOWN_WEBAUTHN = '/.well-known/webauthn';

/** The request a server-side call is made for. */
export interface ServerRequest {
	/** The URL the app sees (its origin names the site unless `AUTH_URL` is set). */
	readonly url: URL;
	/** The request itself: its headers (cookies, user agent) and, for `authorize()`, the rest. */
	readonly request: Request;
	/** The connection's address, when the framework knows it (for the rate limiter). */
	readonly clientAddress?: string;
}

/** Where a sign-in or sign-out sends the user next, and the cookies to set on the way. */
export interface Redirect {
	url: string;
	cookies: Cookie[];
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
	 * it cannot be renewed (the session then carries `error: 'RefreshTokenError'`). Server only.
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
 * kitauth's framework-free server API for one configuration: everything an integration (kitauth's
 * SvelteKit edge, or another framework's) needs, without building requests of its own.
 */
export interface AuthServer {
	/** The path the REST API and built-in pages live under (e.g. `/auth`). */
	readonly basePath: string;
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
	 * Signs in with `providerId` for a server-side caller (a form action, `signIn()`), whose
	 * framework has checked the request's origin. An unknown or missing provider goes to the sign-in
	 * page. Throws the `AuthError` of a refused sign-in.
	 */
	signIn(request: ServerRequest, providerId: string | undefined, params?: SignInParams): Promise<Redirect>;
	/** Signs out for a server-side caller. */
	signOut(request: ServerRequest, params?: { callbackUrl?: string }): Promise<Redirect>;
	/** The sign-in page (built-in or `pages.signIn`) with a `callbackUrl`. */
	signInUrl(request: ServerRequest, callbackUrl: string): string;
	/** The client-safe list of the providers, for sign-in forms. */
	providers(): ClientProvider[];
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

/** How a server is set up beyond its configuration. */
export type ServerSetup = Pick<ResolveOptions, 'env' | 'runtime'>;

/**
 * The server API of one configuration. Throws `MissingSecret` or the configuration's other
 * mistakes at once.
 */
export function createAuthServer(config: AuthConfig, setup: ServerSetup = {}): AuthServer {
	const options = resolveOptions(config, setup);
	const providers = options.providers.map(clientProvider);
	const wellKnown = relatedOriginsDocument(options.providers);
	const serverContext = (request: ServerRequest, cookies: Record<string, string>, call: { body?: Record<string, unknown>; providerId?: string } = {}) => {
		assertTrustedHost(options, request.url);
		return createContext(
			options,
			{ url: request.url, cookies, body: call.body ?? {}, providerId: call.providerId, signal: request.request.signal },
			{ csrfChecked: true }
		);
	};
	const cookiesOf = (request: ServerRequest) => parseCookieHeader(request.request.headers.get('cookie'));

	return Object.freeze({
		basePath: options.basePath,
		serves: (pathname: string) =>
			pathname === options.basePath ||
			pathname.startsWith(`${options.basePath}/`) ||
			(wellKnown !== undefined && pathname === WELL_KNOWN_WEBAUTHN),
		handle: async (request: Request, platform?: Platform) => {
			if (wellKnown && new URL(request.url).pathname === WELL_KNOWN_WEBAUTHN) return wellKnown(request);
			return toResponse(await respond(request, options, platform), request);
		},
		async session(request: ServerRequest): Promise<CurrentSession> {
			const cookies = cookiesOf(request);
			const ctx = serverContext(request, cookies);
			const read = await options.strategy.read(ctx, cookies);
			const asking = { read, requestCookies: cookies };
			const userId = sessionUserId(read);
			const none = (): SessionsEnded => ({ deleted: 0, jwtRevoked: false, cookies: [] });
			return Object.freeze({
				session: read.session,
				cookies: read.cookies,
				listSessions: () => listSessions(ctx, read),
				listSessionPage: (options?: SessionPageOptions) => listSessionPage(ctx, read, options),
				revokeSession: (id: string) => revokeSession(ctx, id, read),
				revokeOtherSessions: async (options: { maxAge?: number } = {}) => {
					// Signed out there is nothing to revoke (and nobody to ask to re-authenticate).
					if (read.session) requireRecentAuthentication(read, options.maxAge);
					return revokeOtherSessions(ctx, read);
				},
				endAllSessions: async () => (userId ? endUserSessions(ctx, userId, 'all', asking) : none()),
				credentialsChanged: async (change: CredentialChange, options: { endSessions?: 'others' | 'all' | 'none' } = {}) =>
					userId ? credentialsChanged(ctx, userId, change, asking, options.endSessions) : none(),
				authenticatedAt: authenticatedAt(read),
				recentlyAuthenticated: (maxAge?: number) => recentlyAuthenticated(read, maxAge),
				requireRecentAuthentication: (maxAge?: number) => requireRecentAuthentication(read, maxAge),
				passkeys: Object.freeze({
					list: () => listPasskeys(ctx, read),
					rename: (id: string, name: string) => renamePasskey(ctx, read, id, name),
					remove: async (id: string, options?: { maxAge?: number }): Promise<PasskeyRemoval> => {
						const result = await removePasskey(ctx, read, id, options);
						if (!result.removed || !userId) return result;
						return { ...result, sessionsEnded: await credentialsChanged(ctx, userId, 'passkey-removed', asking) };
					}
				}),
				linkedAccounts: (hint?: SignInMethodsHint) => linkedAccounts(ctx, read, hint),
				unlinkAccount: async (provider: string, options?: SignInMethodsHint & { providerAccountId?: string }): Promise<UnlinkResult> => {
					const result = await unlinkAccount(ctx, read, provider, options);
					if (!result.ok || !userId) return result;
					return { ...result, sessionsEnded: await credentialsChanged(ctx, userId, 'account-unlinked', asking) };
				},
				accessToken: (providerId: string) => accessToken(ctx, read, providerId)
			});
		},
		async signIn(request: ServerRequest, providerId: string | undefined, params: SignInParams = {}): Promise<Redirect> {
			const callbackUrl = params.callbackUrl ?? request.url.href;
			const provider = options.providers.find((p) => p.id === providerId);
			if (!provider) return { url: signInUrl(options, request, callbackUrl), cookies: [] };
			const action = flowOf(provider).serverAction;
			return run(request, { action, providerId: provider.id, body: { ...params.fields, callbackUrl }, query: params.authorizationParams });
		},
		signOut: (request: ServerRequest, params: { callbackUrl?: string } = {}) =>
			run(request, { action: 'signout', body: { callbackUrl: params.callbackUrl ?? request.url.href } }),
		signInUrl: (request: ServerRequest, callbackUrl: string) => signInUrl(options, request, callbackUrl),
		providers: () => [...providers],
		endSessionsOf: async (userId: string) => withoutCookies(await endUserSessions(detachedContext(), checkedUserId(userId), 'all')),
		credentialsChanged: async (userId: string, change: CredentialChange) =>
			withoutCookies(await credentialsChanged(detachedContext(), checkedUserId(userId), change))
	});

	/** A context for calls made outside any request (no URL is generated, no cookie read or set). */
	function detachedContext(): AuthContext {
		return createContext(options, { url: options.siteUrl ?? new URL('http://localhost/'), cookies: {}, body: {} }, { csrfChecked: true });
	}

	/** Runs an action for a server-side caller, straight through the router (no HTTP round trip). */
	async function run(
		request: ServerRequest,
		call: { action: RequestInternal['action']; providerId?: string; body: Record<string, unknown>; query?: URLSearchParams }
	): Promise<Redirect> {
		const path = call.providerId ? `${call.action}/${call.providerId}` : call.action;
		const url = new URL(`${request.url.origin}${options.basePath}/${path}`);
		for (const [key, value] of call.query ?? []) url.searchParams.append(key, value);
		const cookies = cookiesOf(request);
		const ctx = serverContext({ url, request: request.request }, cookies, call);
		const req: RequestInternal = {
			url,
			method: 'POST',
			action: call.action,
			providerId: call.providerId,
			headers: request.request.headers,
			cookies,
			query: Object.fromEntries(url.searchParams),
			body: call.body,
			request: request.request,
			clientAddress: request.clientAddress
		};
		const res = await route(req, ctx);
		return { url: res.redirect ?? ctx.origin, cookies: res.cookies ?? [] };
	}
}

function withoutCookies({ deleted, jwtRevoked }: SessionsEnded): Omit<SessionsEnded, 'cookies'> {
	return { deleted, jwtRevoked };
}

function checkedUserId(userId: unknown): string {
	if (typeof userId !== 'string' || userId === '') throw new TypeError('endSessionsOf/credentialsChanged need a user id');
	return userId;
}

function signInUrl(options: AuthOptions, request: ServerRequest, callbackUrl: string): string {
	const ctx: AuthContext = createContext(options, { url: request.url, cookies: {}, body: {} }, { csrfChecked: true });
	const page = options.pages.signIn ? `${ctx.origin}${options.pages.signIn}` : actionUrl(ctx, 'signin');
	return withParams(page, { callbackUrl });
}

/**
 * Servers for a configuration that may be a function of a request (or of anything the integration
 * passes): one server per config object, all sharing one runtime — so a function that returns a
 * new object per request still discovers each provider once, refreshes a token once, and derives
 * each secret's keys once.
 */
export function lazyAuthServer<Arg>(
	input: AuthConfig | ((arg: Arg) => Awaitable<AuthConfig>),
	setup: Omit<ServerSetup, 'runtime'> = {}
): (arg: Arg) => Promise<AuthServer> {
	const runtime = createRuntime();
	const servers = new WeakMap<AuthConfig, AuthServer>();
	const serverFor = (config: AuthConfig): AuthServer => {
		let server = servers.get(config);
		if (!server) {
			server = createAuthServer(config, { ...setup, runtime });
			servers.set(config, server);
		}
		return server;
	};
	if (typeof input !== 'function') return async () => serverFor(input);
	return async (arg) => serverFor(await input(arg));
}
