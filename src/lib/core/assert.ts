import type { Env } from './env.js';
import { isProduction } from './env.js';
import {
	ExperimentalFeatureNotEnabled,
	InvalidEndpoints,
	InvalidProvider,
	MissingAdapter,
	MissingAdapterMethods,
	MissingAuthorize,
	MissingSecret,
	UnsupportedStrategy
} from './errors.js';
import type { AuthConfig, LoggerInstance, SessionOptions } from './types/config.js';
import type { ProviderConfig } from './types/provider.js';

const SESSION_METHODS = ['createSession', 'getSessionAndUser', 'updateSession', 'deleteSession'] as const;
const CREDENTIALS_DB_METHODS = ['getUser', 'getUserByEmail', 'createUser'] as const;
const USER_METHODS = ['createUser', 'getUser', 'getUserByEmail', 'getUserByAccount', 'linkAccount'] as const;

/** Configuration mistakes, found once when the options are derived rather than mid-request. */
export function assertConfig(input: {
	config: AuthConfig;
	secrets: readonly string[];
	providers: readonly ProviderConfig[];
	session: SessionOptions;
	env: Env;
	logger: LoggerInstance;
}): void {
	const { config, secrets, providers, session, env, logger } = input;

	if (secrets.length === 0) {
		throw new MissingSecret(
			`No secret is configured${isProduction(env) ? ' (required in production)' : ''}. ` +
				'Set AUTH_SECRET to at least 32 random characters, e.g. the output of ' +
				'`openssl rand -base64 33` or `node -e "console.log(crypto.randomBytes(33).toString(\'base64\'))"`, ' +
				'or pass `secret` in the configuration.'
		);
	}
	if (secrets.some((secret) => secret.length < 32)) logger.warn('short-secret');

	if (typeof config.basePath !== 'string' || !/^\/[\w\-./]*$/.test(config.basePath)) {
		throw new InvalidEndpoints(`basePath must be a path starting with "/", got ${JSON.stringify(config.basePath)}`);
	}
	for (const [name, path] of Object.entries(config.pages ?? {})) {
		if (typeof path !== 'string' || !path.startsWith('/') || path.startsWith('//')) {
			throw new InvalidEndpoints(`pages.${name} must be a path on this site, got ${JSON.stringify(path)}`);
		}
	}

	if (session.strategy !== 'jwt' && session.strategy !== 'database') {
		throw new UnsupportedStrategy(`session.strategy must be "jwt" or "database"`);
	}
	if (session.strategy === 'database') {
		if (!config.adapter) {
			throw new MissingAdapter('The database session strategy needs an adapter.');
		}
		const missing = SESSION_METHODS.filter((method) => typeof config.adapter?.[method] !== 'function');
		if (missing.length) {
			throw new MissingAdapterMethods(`The adapter lacks ${missing.join(', ')} for database sessions.`);
		}
	}

	for (const provider of providers) {
		if (provider.type === 'credentials' && typeof provider.authorize !== 'function') {
			throw new MissingAuthorize(`Credentials provider "${provider.id}" has no authorize() function.`);
		}
		if (provider.type === 'credentials' && session.strategy === 'database') {
			const missing = CREDENTIALS_DB_METHODS.filter((method) => typeof config.adapter?.[method] !== 'function');
			if (missing.length) {
				throw new MissingAdapterMethods(`The adapter lacks ${missing.join(', ')} for credentials sign-in with database sessions.`);
			}
		}
		if (provider.type === 'oauth' || provider.type === 'oidc') {
			const hasEndpoints = !!(provider.authorization && provider.token);
			if (!provider.clientId) {
				const variable = `AUTH_${provider.id.toUpperCase().replace(/-/g, '_')}_ID`;
				throw new InvalidProvider(`Provider "${provider.id}" has no clientId: pass it or set ${variable}.`);
			}
			if (!provider.issuer && !provider.wellKnown && !hasEndpoints) {
				throw new InvalidEndpoints(
					`Provider "${provider.id}" needs an issuer (for discovery) or authorization and token endpoints.`
				);
			}
			if (config.adapter) {
				const missing = USER_METHODS.filter((method) => typeof config.adapter?.[method] !== 'function');
				if (missing.length) {
					throw new MissingAdapterMethods(`The adapter lacks ${missing.join(', ')} for provider "${provider.id}".`);
				}
			}
		}
		if ((provider.type as string) === 'webauthn' && !config.experimental?.enableWebAuthn) {
			throw new ExperimentalFeatureNotEnabled('WebAuthn providers need experimental.enableWebAuthn.');
		}
	}
}
