import { InvalidRequest } from './errors.js';
import { flowOfType } from './flows/index.js';
import { createLogger } from './logger.js';
import type { AuthAction, AuthConfig, Env, LoggerInstance, WarningCode } from './types/config.js';
import type { Provider, ProviderConfig } from './types/provider.js';

export type { Env };

/** The process environment where there is one (Node, Bun, Deno, workers with node compat). */
export function processEnv(): Env {
	return (globalThis as { process?: { env?: Env } }).process?.env ?? {};
}

export function isProduction(env: Env): boolean {
	return env.NODE_ENV === 'production';
}

/** `AUTH_TRUST_HOST=false` means false (the reference treats any non-empty value as true). */
function flag(value: string | undefined): boolean | undefined {
	if (value === undefined || value === '') return undefined;
	return !/^(false|0|no|off)$/i.test(value.trim());
}

/**
 * Trust the Host header? (Only asked when AUTH_URL is not set: with it, URLs never come from the
 * Host header.) Explicit `AUTH_TRUST_HOST` wins; known platforms and development trust it.
 */
export function trustFromEnv(env: Env): boolean {
	return flag(env.AUTH_TRUST_HOST) ?? (!!env.VERCEL || !!env.CF_PAGES || !isProduction(env));
}

/** The configured site URL: `AUTH_URL`, or the legacy `NEXTAUTH_URL`. */
export function envUrl(env: Env): URL | undefined {
	const raw = env.AUTH_URL || env.NEXTAUTH_URL;
	if (!raw) return undefined;
	try {
		const url = new URL(raw);
		return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
	} catch {
		return undefined;
	}
}

/** The path of the configured site URL without trailing slashes; `undefined` for the root. */
function envUrlPath(url: URL | undefined): string | undefined {
	const path = url?.pathname.replace(/\/+$/, '');
	return path || undefined;
}

/**
 * Auth.js's base-path warnings, given where `AUTH_URL` and the configuration each put the
 * endpoints: none unless both name a path (Auth.js also warns for a root `AUTH_URL`, so every
 * `@auth/sveltekit` app with `AUTH_URL` set warned).
 */
function basePathWarning(urlPath: string | undefined, basePath: string | undefined): WarningCode | undefined {
	const trim = (path: string | undefined) => path?.replace(/^\/+|\/+$/g, '');
	const configured = trim(basePath);
	if (!urlPath || !configured) return undefined;
	return trim(urlPath) === configured ? 'env-url-basepath-redundant' : 'env-url-basepath-mismatch';
}

/** `AUTH_SECRET_3, _2, _1, AUTH_SECRET` (newest first), else the legacy `NEXTAUTH_SECRET`. */
export function envSecrets(env: Env): string[] {
	const rotated = [env.AUTH_SECRET_3, env.AUTH_SECRET_2, env.AUTH_SECRET_1, env.AUTH_SECRET].filter(
		(secret): secret is string => !!secret
	);
	if (rotated.length) return rotated;
	return env.NEXTAUTH_SECRET ? [env.NEXTAUTH_SECRET] : [];
}

/**
 * The configuration with environment-derived defaults filled in, as a new object: explicit options
 * always win, and the user's object is left untouched.
 */
export function withEnvDefaults(
	env: Env,
	config: AuthConfig,
	logger?: Pick<LoggerInstance, 'warn'>,
	suppressBasePathWarning = false
): AuthConfig {
	const url = envUrl(env);
	const urlPath = envUrlPath(url);
	const warning = suppressBasePathWarning ? undefined : basePathWarning(urlPath, config.basePath);
	if (warning) logger?.warn(warning);
	return {
		...config,
		basePath: config.basePath ?? urlPath ?? '/auth',
		// As Auth.js: an unset or empty secret becomes the environment's list, an array even of one.
		secret: config.secret?.length ? config.secret : envSecrets(env),
		redirectProxyUrl: config.redirectProxyUrl ?? (env.AUTH_REDIRECT_PROXY_URL || undefined),
		trustHost: config.trustHost ?? (url ? true : trustFromEnv(env)),
		providers: config.providers.map((provider) => providerWithEnv(env, provider))
	};
}

/**
 * `AUTH_<ID>_<SUFFIX>` variables fill the fields a provider's flow reads from the environment
 * (OAuth: `_ID`, `_SECRET`, `_ISSUER` → `clientId`, `clientSecret`, `issuer`). A preset function
 * is called with them, and fields the provider leaves unset take them.
 */
function providerWithEnv(env: Env, provider: Provider): ProviderConfig {
	const probe = typeof provider === 'function' ? provider() : provider;
	const fields = flowOfType(probe.type)?.env;
	if (!fields) return probe;
	const prefix = `AUTH_${probe.id.toUpperCase().replace(/-/g, '_')}_`;
	const fromEnv: Record<string, string> = {};
	for (const [suffix, field] of Object.entries(fields)) {
		const value = env[`${prefix}${suffix}`];
		if (value) fromEnv[field] = value;
	}
	const resolved = typeof provider === 'function' ? provider(fromEnv) : probe;
	const unset = Object.entries(fromEnv).filter(([field]) => (resolved as unknown as Record<string, unknown>)[field] === undefined);
	// Only fields this type's flow reads from the environment are added (strings, unset before).
	return { ...resolved, ...Object.fromEntries(unset) };
}

/**
 * Sets environment-derived defaults on `config` itself (the spec's `setEnvDefaults`, for framework
 * authors who own that object), warning through the config's `logger` as Auth.js does. kitauth's
 * own integration uses {@link withEnvDefaults} instead.
 */
export function setEnvDefaults(env: Env, config: AuthConfig, suppressBasePathWarning = false): void {
	Object.assign(config, withEnvDefaults(env, config, createLogger(config), suppressBasePathWarning));
}

/**
 * The URL of an action for server-side calls: from `AUTH_URL` when set (never from a forwarded
 * header then), else from `x-forwarded-host`/`host` and `x-forwarded-proto`/`protocol` — each
 * only when well-formed (the first of a comma-separated list), so a hostile header falls back to
 * the next source instead of throwing. No usable host at all is an `InvalidRequest` (a 400).
 */
export function createActionURL(
	action: AuthAction,
	protocol: string,
	headers: Headers,
	envObject: Env,
	config: Pick<AuthConfig, 'basePath' | 'logger'>
): URL {
	const configured = envUrl(envObject);
	let origin: string;
	let basePath = config.basePath;
	if (configured) {
		origin = configured.origin;
		const urlPath = envUrlPath(configured);
		// As Auth.js: the configured basePath wins, with a warning when AUTH_URL names another path.
		if (basePathWarning(urlPath, basePath) === 'env-url-basepath-mismatch') {
			createLogger(config).warn('env-url-basepath-mismatch');
		}
		basePath ??= urlPath;
	} else {
		// Forwarded headers are anyone's: only a well-formed value is used, else the next source.
		const host = usableHost(headers.get('x-forwarded-host')) ?? usableHost(headers.get('host'));
		if (!host) throw new InvalidRequest('The request has no usable Host header');
		const proto = usableProtocol(headers.get('x-forwarded-proto')) ?? usableProtocol(protocol) ?? 'https';
		origin = `${proto}://${host}`;
	}
	const path = (basePath ?? '/auth').replace(/^\/+|\/+$/g, '');
	return new URL(`${origin}/${path ? `${path}/` : ''}${action}`);
}

const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?|\[[0-9a-f:.]{2,45}\])(?::\d{1,5})?$/i;

/** The first entry of a (forwarded) host header, when it is a plain `host[:port]`. */
function usableHost(value: string | null | undefined): string | undefined {
	const first = value?.split(',')[0]?.trim();
	if (!first || first.length > 260 || !HOST.test(first)) return undefined;
	try {
		return new URL(`http://${first}`).host;
	} catch {
		return undefined;
	}
}

/** `http` or `https` from a (forwarded) protocol value such as `https`, `HTTPS` or `http:`. */
function usableProtocol(value: string | null | undefined): 'http' | 'https' | undefined {
	const first = value?.split(',')[0]?.trim().toLowerCase().replace(/:$/, '');
	return first === 'http' || first === 'https' ? first : undefined;
}
