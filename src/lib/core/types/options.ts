/**
 * The options derived from a configuration (`resolveOptions` in config.ts derives them), the memory
 * of the long-lived instance they belong to, and the context each request is served with: types
 * only, so that nothing imports config.ts or context.ts for a type. The context lives here with the
 * options because they refer to each other (the context holds the options, whose session strategy
 * takes a context), and a type-only import cycle still ties files together.
 */
import type { Translator } from '../../i18n/index.js';
import type { Keyring } from '../crypto/index.js';
import type { LimiterShared } from '../limit/limiter.js';
import type { MemoryStore } from '../limit/memory.js';
import type { Once } from '../limit/once.js';
import type { TwoFactorSetup } from '../factors/options.js';
import type { CsrfState } from '../session/csrf.js';
import type { CookieJar } from '../session/jar.js';
import type { SessionStrategy } from '../session/strategy.js';
import type { Adapter } from './adapter.js';
import type {
	CallbacksOptions,
	CookieKey,
	CookieOption,
	CookiesOptions,
	Env,
	EventCallbacks,
	I18nConfig,
	JWTOptions,
	LoggerInstance,
	PagesOptions,
	SessionOptions,
	Theme
} from './config.js';
import type { Cookie } from './internal.js';
import type { Limiter } from './limit.js';
import type { ProviderConfig } from './provider.js';

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
	readonly strategy: SessionStrategy<AuthContext>;
	readonly jwt: Readonly<JWTOptions>;
	/** Are `jwt.encode`/`decode` the built-in ones (then the fast keyring path is used)? */
	readonly builtinJwt: boolean;
	readonly callbacks: Readonly<CallbacksOptions>;
	readonly events: Readonly<Partial<EventCallbacks>>;
	readonly adapter?: Adapter;
	readonly pages: Readonly<Partial<PagesOptions>>;
	readonly theme: Readonly<Theme>;
	readonly i18n: Readonly<I18nConfig>;
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

/** What every action needs to know about the request it serves. */
export interface AuthContext {
	readonly options: AuthOptions;
	/** The site's origin: `AUTH_URL`'s when configured, else the request's. */
	readonly origin: string;
	/** origin + basePath, e.g. `https://app.example/auth`. */
	readonly baseUrl: string;
	readonly cookies: CookiesOptions;
	/** The request's cookies and the session cookie's forms (`session/jar.ts`). */
	readonly jar: CookieJar;
	readonly provider?: ProviderConfig;
	readonly csrf: CsrfState;
	/** Cookies to set whatever the action answers (a freshly minted CSRF token). */
	readonly pendingCookies: Cookie[];
	/**
	 * The caller already checked CSRF (a framework with its own check, or a server-side call such
	 * as a SvelteKit form action): the double-submit token and the Origin check are not needed.
	 */
	readonly csrfChecked: boolean;
	/**
	 * The request's signal, aborted when its client gives up: a sign-in whose client left stores
	 * no session (see `Adapter.createSession`).
	 */
	readonly signal?: AbortSignal;
	/** Keeps work after the answer alive (the messages sent then), where the platform gives a way. */
	readonly waitUntil?: (promise: Promise<unknown>) => void;
	/** The request's language (`i18n` option, else `Accept-Language`): made when first read (pages, emails). */
	readonly i18n: Translator;
}
