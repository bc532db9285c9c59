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
import { type AuthContext, createContext, pageUrl, type ProviderContext, resolveCallbackUrl } from './context.js';
import { passwordStep } from './actions/password.js';
import { accountStep } from './actions/password-account.js';
import { InvalidRequest } from './errors.js';
import { RequestSession } from './current-session.js';
import { outboxPage, outboxPath } from './flows/email/outbox.js';
import { formPostCallbacks } from './flows/oauth/form-post.js';
import { requestTranslator } from './i18n.js';
import { createLogger, logOnce } from './logger.js';
import { signInAction } from '../shared/endpoints.js';
import { credentialsChanged, endUserSessions, type SessionsEnded } from './session/end.js';
import { relatedOriginsDocument } from './flows/webauthn/well-known.js';
import { clientProviders } from './providers/public.js';
import { toResponse } from './response.js';
import type { Platform } from './request.js';
import { route } from './router.js';
import { parseCookieHeader } from './session/cookies.js';
import { assertTrustedHost } from './trust.js';
import { secondStep } from './actions/two-factor.js';
import type { AuthConfig, CredentialChange } from './types/config.js';
import type { RequestInternal } from './types/internal.js';
import type { AuthOptions } from './types/options.js';
import type {
	AuthServer,
	CurrentSession,
	PasswordAccountAction,
	PasswordFormAction,
	PasswordOutcome,
	Redirect,
	ServerRequest,
	SessionUpdate,
	SignInParams,
	TwoFactorOutcome
} from './types/server.js';

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
			{ url: request.url, cookies, body: call.body ?? {}, providerId: call.providerId, signal: request.request.signal, request: request.request, waitUntil: request.waitUntil },
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
			const ctx = serverContext(request, cookiesOf(request));
			return new RequestSession(ctx, await options.strategy.read(ctx));
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
		async completeTwoFactor(request: ServerRequest, fields: { code?: unknown; remember?: unknown }): Promise<TwoFactorOutcome> {
			const { req, ctx } = internalRequest(request, { action: 'two-factor', body: { code: fields.code, remember: fields.remember } });
			const step = await secondStep(req, ctx);
			if (!step.ok) return { ok: false, message: step.message };
			const cookies = [...ctx.pendingCookies, ...(step.started.cookies ?? [])];
			return { ok: true, url: step.started.redirect ?? ctx.origin, cookies, ...(step.backupCodes ? { backupCodes: step.backupCodes } : {}) };
		},
		async passwordForm(request: ServerRequest, action: PasswordFormAction, fields: Record<string, string>, providerId?: string): Promise<PasswordOutcome> {
			const { req, ctx } = internalRequest(request, { action, providerId: providerId ?? firstPasswordProvider(), body: fields });
			if (!hasProvider(ctx)) throw new InvalidRequest('no password provider', 404);
			const step = await passwordStep(action, req, ctx, async () => (await resolveCallbackUrl(ctx, req)).callbackUrl);
			if (!step.ok) return { ok: false, ...step.failure };
			return { ok: true, url: step.done.redirect ?? ctx.origin, cookies: [...ctx.pendingCookies, ...(step.done.cookies ?? [])] };
		},
		async passwordAccount(request: ServerRequest, action: PasswordAccountAction, fields: Record<string, string>, providerId?: string) {
			const { req, ctx } = internalRequest(request, { action, providerId: providerId ?? firstPasswordProvider(), body: fields });
			if (!hasProvider(ctx)) throw new InvalidRequest('no password provider', 404);
			const step = await accountStep(action, req, ctx);
			return step.ok ? { ...step, cookies: [...ctx.pendingCookies, ...step.cookies] } : step;
		},
		signOut: (request: ServerRequest, params: { callbackUrl?: string } = {}) =>
			run(request, { action: 'signout', body: { callbackUrl: params.callbackUrl ?? request.url.href } }),
		signInUrl: (request: ServerRequest, callbackUrl: string) => signInUrl(options, request, callbackUrl),
		providers: () => [...clientProviders(options.providers)],
		i18n: (request: Request) => requestTranslator(options.i18n, request),
		endSessionsOf: async (userId: string) => withoutCookies(await endUserSessions(detachedContext(), checkedUserId(userId), 'all')),
		credentialsChanged: async (userId: string, change: CredentialChange) =>
			withoutCookies(await credentialsChanged(detachedContext(), checkedUserId(userId), change))
	});

	function firstPasswordProvider(): string | undefined {
		return options.providers.find((p) => p.type === 'credentials' && p.password)?.id;
	}

	/** A context for calls made outside any request (no URL is generated, no cookie read or set). */
	function detachedContext(): AuthContext {
		return createContext(options, { url: options.siteUrl ?? new URL('http://localhost/'), cookies: {}, body: {} }, { csrfChecked: true });
	}

	/** Runs an action for a server-side caller, straight through the router (no HTTP round trip). */
	async function run(
		request: ServerRequest,
		call: { action: RequestInternal['action']; providerId?: string; body: Record<string, unknown>; query?: URLSearchParams }
	): Promise<Redirect> {
		const { req, ctx } = internalRequest(request, call);
		const res = await route(req, ctx);
		return { url: res.redirect ?? ctx.origin, cookies: res.cookies ?? [] };
	}

	/** A server-side call as the request the router would see (POST, the caller's cookies and headers). */
	function internalRequest(
		request: ServerRequest,
		call: { action: RequestInternal['action']; providerId?: string; body: Record<string, unknown>; query?: URLSearchParams }
	): { req: RequestInternal; ctx: AuthContext } {
		const path = call.providerId ? `${call.action}/${call.providerId}` : call.action;
		const url = new URL(`${request.url.origin}${options.basePath}/${path}`);
		for (const [key, value] of call.query ?? []) url.searchParams.append(key, value);
		const cookies = cookiesOf(request);
		const ctx = serverContext({ url, request: request.request, waitUntil: request.waitUntil }, cookies, call);
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
			clientAddress: request.clientAddress,
			...(request.waitUntil ? { waitUntil: request.waitUntil } : {})
		};
		return { req, ctx };
	}
}

function hasProvider(ctx: AuthContext): ctx is ProviderContext {
	return ctx.provider !== undefined;
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
