import { createKeyring, hex, type Keyring, randomBytes, randomUUID } from './crypto/index.js';
import { wrapAdapter, wrapEvents } from './adapter.js';
import { assertConfig, assertProviders } from './assert.js';
import { type Env, envUrl, processEnv, withEnvDefaults } from './env.js';
import { adapterStore } from './limit/adapter-store.js';
import { keyedHasher } from './limit/hash.js';
import { createLimiterShared, type LimiterShared } from './limit/limiter.js';
import { MemoryStore } from './limit/memory.js';
import { createOnce, type Once } from './limit/once.js';
import { resolveLimiter } from './limit/resolve.js';
import { createLogger } from './logger.js';
import { withDevOutbox } from './flows/email/outbox.js';
import { resolveTwoFactor, type TwoFactorSetup } from './factors/options.js';
import { normalizeProviders } from './providers/normalize.js';
import { defaultRedirect } from './redirect.js';
import { refreshJwtTokens, sessionTokens } from './flows/oauth/refresh.js';
import { createDatabaseStrategy } from './session/database.js';
import { createJwtStrategy } from './session/jwt-session.js';
import { sessionAdapter, type SessionStrategy } from './session/strategy.js';
import { decode, encode } from './session/jwt.js';
import { isMarker, raw, skipCSRFCheck } from './markers.js';
import type { Adapter } from './types/adapter.js';
import type {
	AuthConfig,
	CallbacksOptions,
	CookieKey,
	CookieOption,
	EventCallbacks,
	JWTOptions,
	LoggerInstance,
	PagesOptions,
	SessionOptions,
	Theme
} from './types/config.js';
import type { Limiter } from './types/limit.js';
import type { ProviderConfig } from './types/provider.js';

/**
 * Everything derived from one configuration, once: defaults applied, environment inferred,
 * providers normalized, keys ready. Frozen, and the user's config object is never touched.
 */
export interface AuthOptions {
	readonly basePath: string;
	readonly secrets: readonly string[];
	/** The CSRF hash input: secrets comma-joined, as Auth.js does. */
	readonly csrfSecret: string;
	readonly keyring: Keyring;
	readonly providers: readonly ProviderConfig[];
	readonly session: Readonly<SessionOptions>;
	/** The session strategy `session.strategy` names, with what it needs (the adapter). */
	readonly strategy: SessionStrategy;
	readonly jwt: Readonly<JWTOptions>;
	/** Are `jwt.encode`/`decode` the built-in ones (then the fast keyring path is used)? */
	readonly builtinJwt: boolean;
	readonly callbacks: Readonly<CallbacksOptions>;
	readonly events: Readonly<Partial<EventCallbacks>>;
	readonly adapter?: Adapter;
	readonly pages: Readonly<Partial<PagesOptions>>;
	readonly theme: Readonly<Theme>;
	readonly logger: LoggerInstance;
	readonly trustHost: boolean;
	readonly useSecureCookies?: boolean;
	readonly cookieOverrides: Readonly<Partial<Record<CookieKey, Partial<CookieOption>>>>;
	readonly redirectProxyUrl?: string;
	/** `AUTH_URL`: when set, every URL the core generates uses this origin. */
	readonly siteUrl?: URL;
	readonly enableWebAuthn: boolean;
	readonly skipCSRFCheck: boolean;
	readonly raw: boolean;
	readonly env: Readonly<Env>;
	/**
	 * kitauth: the rate limiter (`rateLimit`), frozen; `enabled: false` when off (then its methods
	 * allow everything without touching a store).
	 */
	readonly limiter: Limiter;
	/**
	 * kitauth: values that may be used once (an OAuth callback's state), recorded in the limiter's
	 * store (or the adapter's counters, or memory) whether or not the limiter is on.
	 */
	readonly once: Once;
	/** kitauth: two-factor authentication (`twoFactor`), when configured. */
	readonly twoFactor?: TwoFactorSetup;
	/** Memory of the long-lived instance these options belong to (see {@link Runtime}). */
	readonly runtime: Runtime;
}

/**
 * Memory that outlives a request and belongs to the long-lived auth instance, not to a config
 * object (a lazy config makes a new one per request): keys derived per secret, discovered
 * authorization servers, token refreshes in flight (so parallel requests refresh once), and
 * recently failed refreshes (so repeated requests do not hammer a failing provider).
 */
export interface Runtime {
	readonly keyrings: Map<string, Keyring>;
	/** The rate limiter's: its memory store (and fallback), sweep schedule, warn-once flag. */
	readonly limiter: LimiterShared;
	/** The record of values used once, when there is no shared store (and when it fails). */
	readonly once: MemoryStore;
	readonly discovery: Map<string, Promise<unknown>>;
	readonly refreshes: Map<string, Promise<unknown>>;
	/** Refresh key → when (ms since the epoch) the next attempt may reach the provider. */
	readonly refreshBackoff: Map<string, number>;
	/** JWT revocation: user id → the session cutoff last read (ms, or null) and when it was read. */
	readonly cutoffs: Map<string, { at: number | null; readAt: number }>;
	/**
	 * Configuration failures already logged (see `logOnce`): a broken configuration fails every
	 * request the same way, and is logged once, not on every request.
	 */
	readonly reported: Set<string>;
}

export function createRuntime(): Runtime {
	return Object.freeze({
		keyrings: new Map(),
		limiter: createLimiterShared(),
		once: new MemoryStore({ maxKeys: 200_000 }),
		discovery: new Map(),
		refreshes: new Map(),
		refreshBackoff: new Map(),
		cutoffs: new Map(),
		reported: new Set<string>()
	});
}

const DAY = 24 * 60 * 60;

/**
 * The `session` callback when none is configured, as Auth.js's: the user's name, email and image
 * (`null` stays `null`), the expiry, and kitauth's `error` after a failed token refresh. Apps that
 * want more (the user's id) add it in their own callback, which gets `user`/`token` to take it from.
 */
export const defaultSessionCallback: CallbacksOptions['session'] = ({ session }) => ({
	user: { name: session.user?.name, email: session.user?.email, image: session.user?.image },
	expires: session.expires,
	...(typeof session.error === 'string' ? { error: session.error } : {})
});

/** The `jwt` callback when none is configured: the token as it is (session reads skip diffing it). */
export const defaultJwtCallback: CallbacksOptions['jwt'] = ({ token }) => token;

export interface ResolveOptions {
	/**
	 * The environment, or a function that reads it. A function is only called when the options
	 * are first derived: copying `process.env` costs more than a whole JWT session read.
	 */
	env?: Env | (() => Env);
	/** The long-lived instance's memory (lazy configs re-resolve per request); a new one otherwise. */
	runtime?: Runtime;
	/**
	 * Development only (the integration decides: kitauth's SvelteKit edge sets it under `vite dev`):
	 * email providers with no way to send keep their messages in the development outbox, served at
	 * `{basePath}/dev/outbox`, instead of failing at start-up.
	 */
	devOutbox?: boolean;
}

/**
 * Resolves a configuration. Throws `MissingSecret` when there is no secret, and the matching
 * `AuthError` for any other configuration mistake (see `assert.ts`).
 */
export function resolveOptions(config: AuthConfig, resolve: ResolveOptions = {}): AuthOptions {
	const env = (typeof resolve.env === 'function' ? resolve.env() : resolve.env) ?? processEnv();
	const logger = createLogger(config);
	const withEnv = withEnvDefaults(env, config, logger);
	const secrets = secretList(withEnv.secret);
	const basePath = normalizeBasePath(withEnv.basePath as string);
	const normalized = normalizeProviders(withEnv.providers);
	const providers = resolve.devOutbox ? withDevOutbox(normalized, basePath) : normalized;
	const sessionConfig = stripUndefined(config.session ?? {});
	const session: SessionOptions = {
		strategy: config.adapter ? 'database' : 'jwt',
		maxAge: 30 * DAY,
		updateAge: DAY,
		// With `hashTokens: false` (a rollout beside Auth.js) tokens take Auth.js's shape, so that
		// once hashing is back on they are found and moved to their hash like Auth.js's own (a
		// 64-hex token is not looked up raw: it looks like a stored hash).
		generateSessionToken: sessionConfig.hashTokens === false ? () => randomUUID() : () => hex(randomBytes(32)),
		hashTokens: true,
		...sessionConfig
	};
	assertConfig({ config: withEnv, secrets, session, env, logger });
	const adapter = config.adapter ? wrapAdapter(config.adapter, logger) : undefined;
	const strategy =
		session.strategy === 'database'
			? createDatabaseStrategy(sessionAdapter(adapter))
			: createJwtStrategy({ keepTokens: sessionTokens, refresh: refreshJwtTokens });
	assertProviders(providers, { config: withEnv, session });
	const runtime = resolve.runtime ?? createRuntime();
	const events = Object.freeze(wrapEvents(config.events ?? {}, logger));
	const limiter = resolveLimiter({
		config: config.rateLimit,
		env,
		adapter,
		secrets,
		logger,
		events,
		shared: runtime.limiter
	});
	const limitSettings = typeof config.rateLimit === 'object' && config.rateLimit !== null ? config.rateLimit : {};
	const once = createOnce({
		store: limitSettings.store ?? adapterStore(adapter),
		memory: runtime.once,
		hash: keyedHasher(secrets[0]!),
		logger,
		timeout: limitSettings.timeout ?? 1000
	});

	const options: AuthOptions = {
		basePath,
		secrets,
		csrfSecret: secrets.join(','),
		keyring: keyringFor(secrets, runtime.keyrings),
		providers,
		session: Object.freeze(session),
		strategy: Object.freeze(strategy),
		jwt: Object.freeze({
			secret: secrets as string[],
			maxAge: config.jwt?.maxAge ?? session.maxAge,
			encode: config.jwt?.encode ?? encode,
			decode: config.jwt?.decode ?? decode
		}),
		builtinJwt: !config.jwt?.encode && !config.jwt?.decode,
		callbacks: Object.freeze({
			signIn: () => true,
			redirect: defaultRedirect,
			session: defaultSessionCallback,
			jwt: defaultJwtCallback,
			...stripUndefined(config.callbacks ?? {})
		} satisfies CallbacksOptions),
		events,
		adapter,
		pages: Object.freeze({ ...config.pages }),
		theme: Object.freeze({ colorScheme: 'auto', logo: '', brandColor: '', buttonText: '', ...config.theme }),
		logger,
		trustHost: withEnv.trustHost === true,
		useSecureCookies: config.useSecureCookies,
		cookieOverrides: Object.freeze({ ...config.cookies }),
		redirectProxyUrl: withEnv.redirectProxyUrl,
		siteUrl: envUrl(env),
		enableWebAuthn: config.experimental?.enableWebAuthn === true,
		skipCSRFCheck: isMarker(config.skipCSRFCheck, skipCSRFCheck),
		raw: isMarker(config.raw, raw),
		env: Object.freeze({ ...env }),
		limiter,
		once,
		twoFactor: resolveTwoFactor(config.twoFactor, adapter, secrets),
		runtime
	};
	if (config.debug) logger.warn('debug-enabled');
	if (options.enableWebAuthn) logger.warn('experimental-webauthn');
	Object.freeze(options);
	return options;
}

function secretList(secret: string | string[] | undefined): string[] {
	if (secret === undefined) return [];
	return (Array.isArray(secret) ? secret : [secret]).filter((s) => typeof s === 'string' && s !== '');
}

function keyringFor(secrets: readonly string[], keyrings: Map<string, Keyring>): Keyring {
	const id = secrets.join('\u0000');
	let keyring = keyrings.get(id);
	if (!keyring) {
		keyring = createKeyring(secrets);
		keyrings.set(id, keyring);
	}
	return keyring;
}

function normalizeBasePath(basePath: string): string {
	const trimmed = `/${basePath.replace(/^\/+|\/+$/g, '')}`;
	return trimmed === '/' ? '' : trimmed;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
	return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
