import { createKeyring, hex, type Keyring, randomBytes, randomUUID } from './crypto/index.js';
import { wrapAdapter, wrapEvents } from './adapter.js';
import { assertConfig, assertProviders } from './assert.js';
import { type Env, envUrl, processEnv, withEnvDefaults } from './env.js';
import { adapterStore } from './limit/adapter-store.js';
import { keyedHasher } from './limit/hash.js';
import { createLimiterShared } from './limit/limiter.js';
import { MemoryStore } from './limit/memory.js';
import { createOnce } from './limit/once.js';
import { resolveLimiter } from './limit/resolve.js';
import { createLogger } from './logger.js';
import { withDevOutbox } from './flows/email/outbox.js';
import { resolveTwoFactor } from './factors/options.js';
import { normalizeProviders } from './providers/normalize.js';
import { defaultRedirect } from './redirect.js';
import { refreshJwtTokens, sessionTokens } from './flows/oauth/refresh.js';
import { createDatabaseStrategy } from './session/database.js';
import { defaultJwtCallback, defaultSessionCallback } from './session/default-callbacks.js';
import { createJwtStrategy } from './session/jwt-session.js';
import { sessionAdapter } from './session/strategy.js';
import { decode, encode } from './session/jwt.js';
import { isMarker, raw, skipCSRFCheck } from './markers.js';
import type { AuthConfig, CallbacksOptions, SessionOptions } from './types/config.js';
import type { AuthOptions, Runtime } from './types/options.js';

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
		i18n: Object.freeze({ ...config.i18n }),
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
