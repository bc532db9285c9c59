/**
 * kitauth's framework-free server API: `createAuthServer` for one configuration, `lazyAuthServer`
 * for a configuration that is a function of the request. What it takes and answers (the server
 * request, redirects, the current session and what may be done with it) is `types/server.ts`.
 * It is the edge's one door: kitauth's SvelteKit integration (and any other framework's) reads
 * sessions, signs in and out and serves `/auth/*` through it, never through core internals or
 * requests of its own.
 */
import { respond } from './auth.js';
import { createRuntime, resolveOptions, type ResolveOptions } from './config.js';
import { type AuthContext, createContext, pageUrl } from './context.js';
import { outboxPage, outboxPath } from './flows/email/outbox.js';
import { accessToken } from './flows/oauth/access-token.js';
import { formPostCallbacks } from './flows/oauth/form-post.js';
import { createLogger, logOnce } from './logger.js';
import { signInAction } from '../shared/endpoints.js';
import { listPasskeys, type PasskeyRemoval, removePasskey, renamePasskey } from './flows/webauthn/manage.js';
import { credentialsChanged, endUserSessions, type SessionsEnded, sessionUserId } from './session/end.js';
import { relatedOriginsDocument } from './flows/webauthn/well-known.js';
import { clientProviders } from './providers/public.js';
import { toResponse } from './response.js';
import type { Platform } from './request.js';
import { route } from './router.js';
import { linkedAccounts, type SignInMethodsHint, unlinkAccount, type UnlinkResult } from './accounts.js';
import { parseCookieHeader } from './session/cookies.js';
import { listSessionPage, listSessions, revokeOtherSessions, revokeSession, type SessionPageOptions } from './session/manage.js';
import { authenticatedAt, recentlyAuthenticated, requireRecentAuthentication } from './session/recent.js';
import { assertTrustedHost } from './trust.js';
import type { AuthConfig, CredentialChange } from './types/config.js';
import type { RequestInternal } from './types/internal.js';
import type { AuthOptions } from './types/options.js';
import type { AuthServer, CurrentSession, Redirect, ServerRequest, SessionUpdate, SignInParams } from './types/server.js';

export type { Platform } from './request.js';

type Awaitable<T> = T | PromiseLike<T>;

/** Where a relying party lists the other origins its passkeys may be used on (Related Origin Requests). */
const WELL_KNOWN_WEBAUTHN = '/.well-known/webauthn';

/** How a server is set up beyond its configuration. */
export type ServerSetup = Pick<ResolveOptions, 'env' | 'runtime' | 'devOutbox'>;

/**
 * The server API of one configuration. Throws `MissingSecret` or the configuration's other
 * mistakes at once.
 */
export function createAuthServer(config: AuthConfig, setup: ServerSetup = {}): AuthServer {
	const options = resolveOptions(config, setup);
	const wellKnown = relatedOriginsDocument(options.providers);
	const outbox = setup.devOutbox ? outboxPath(options.basePath) : undefined;
	const serverContext = (request: ServerRequest, cookies: Record<string, string>, call: { body?: Record<string, unknown>; providerId?: string } = {}) => {
		assertTrustedHost(options);
		return createContext(
			options,
			{ url: request.url, cookies, body: call.body ?? {}, providerId: call.providerId, signal: request.request.signal },
			{ csrfChecked: true }
		);
	};
	const cookiesOf = (request: ServerRequest) => parseCookieHeader(request.request.headers.get('cookie'));

	return Object.freeze({
		basePath: options.basePath,
		formPostCallbacks: formPostCallbacks(options),
		serves: (pathname: string) =>
			pathname === options.basePath ||
			pathname.startsWith(`${options.basePath}/`) ||
			(wellKnown !== undefined && pathname === WELL_KNOWN_WEBAUTHN),
		handle: async (request: Request, platform?: Platform) => {
			const { pathname } = new URL(request.url);
			if (wellKnown && pathname === WELL_KNOWN_WEBAUTHN) return wellKnown(request);
			if (pathname === outbox && request.method === 'GET') return outboxPage(request);
			return toResponse(await respond(request, options, platform), request);
		},
		async session(request: ServerRequest): Promise<CurrentSession> {
			const cookies = cookiesOf(request);
			const ctx = serverContext(request, cookies);
			const read = await options.strategy.read(ctx);
			const asking = { read };
			const userId = sessionUserId(read);
			const none = (): SessionsEnded => ({ deleted: 0, jwtRevoked: false, cookies: [] });
			// One look-up (and at most one refresh) per provider for the request, however many of its
			// callers ask at once (remote functions rendered together, say).
			const tokens = new Map<string, Promise<string | null>>();
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
				accessToken: (providerId: string) => {
					let token = tokens.get(providerId);
					if (!token) {
						token = accessToken(ctx, read, providerId);
						tokens.set(providerId, token);
					}
					return token;
				}
			});
		},
		async updateSession(request: ServerRequest, data: unknown): Promise<SessionUpdate> {
			const cookies = cookiesOf(request);
			const read = await options.strategy.read(serverContext(request, cookies), { data });
			return { session: read.session, cookies: read.cookies };
		},
		async signIn(request: ServerRequest, providerId: string | undefined, params: SignInParams = {}): Promise<Redirect> {
			const callbackUrl = params.callbackUrl ?? request.url.href;
			const provider = options.providers.find((p) => p.id === providerId);
			if (!provider) return { url: signInUrl(options, request, callbackUrl), cookies: [] };
			return run(request, { action: signInAction(provider.type), providerId: provider.id, body: { ...params.fields, callbackUrl }, query: params.authorizationParams });
		},
		signOut: (request: ServerRequest, params: { callbackUrl?: string } = {}) =>
			run(request, { action: 'signout', body: { callbackUrl: params.callbackUrl ?? request.url.href } }),
		signInUrl: (request: ServerRequest, callbackUrl: string) => signInUrl(options, request, callbackUrl),
		providers: () => [...clientProviders(options.providers)],
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
	assertTrustedHost(options);
	const ctx: AuthContext = createContext(options, { url: request.url, cookies: {}, body: {} }, { csrfChecked: true });
	return pageUrl(ctx, 'signIn', { callbackUrl });
}

/**
 * Servers for a configuration that may be a function of a request (or of anything the integration
 * passes): one server per config object, all sharing one runtime — so a function that returns a
 * new object per request still discovers each provider once, refreshes a token once, and derives
 * each secret's keys once.
 *
 * A configuration object is resolved here and now: its mistakes (no secret, a provider without
 * its client secret, …) are thrown at start-up. A function's configs are resolved on first use; a
 * broken one rejects the call with its error, logged once per instance (every request meets it
 * alike), and {@link isConfigurationFailure} tells such a rejection from the function's own.
 */
export function lazyAuthServer<Arg>(
	input: AuthConfig | ((arg: Arg) => Awaitable<AuthConfig>),
	setup: Omit<ServerSetup, 'runtime'> = {}
): (arg: Arg) => Promise<AuthServer> {
	const runtime = createRuntime();
	const servers = new WeakMap<AuthConfig, AuthServer>();
	const failures = new WeakMap<AuthConfig, Error>();
	const serverFor = (config: AuthConfig): AuthServer => {
		let server = servers.get(config);
		if (!server) {
			server = createAuthServer(config, { ...setup, runtime });
			servers.set(config, server);
		}
		return server;
	};
	if (typeof input !== 'function') {
		const server = serverFor(input);
		return async () => server;
	}
	return async (arg) => {
		const config = await input(arg);
		const known = failures.get(config);
		if (known) throw known;
		try {
			return serverFor(config);
		} catch (cause) {
			const error = cause instanceof Error ? cause : new Error(String(cause));
			logOnce(runtime.reported, createLogger(config), error);
			configurationFailures.add(error);
			failures.set(config, error);
			throw error;
		}
	};
}

/** Errors of configurations that failed to resolve in `lazyAuthServer` (and were logged there). */
const configurationFailures = new WeakSet<Error>();

/**
 * Is `error` a configuration's failure to resolve, thrown by a `lazyAuthServer` function (which
 * logged it once)? An integration answers it without logging it again.
 */
export function isConfigurationFailure(error: unknown): boolean {
	return error instanceof Error && configurationFailures.has(error);
}
