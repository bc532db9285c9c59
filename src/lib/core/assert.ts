import type { Env } from './env.js';
import { isProduction } from './env.js';
import {
	InvalidEndpoints,
	InvalidProvider,
	MissingSecret,
	UnsupportedStrategy
} from './errors.js';
import { flowOfType } from './flows/index.js';
import type { AuthConfig, LoggerInstance, SessionOptions } from './types/config.js';
import type { ProviderConfig } from './types/provider.js';

/** The shortest secret kitauth takes without a warning (`kitauth doctor` holds apps to it too). */
export const MIN_SECRET_LENGTH = 32;

/** Configuration mistakes, found once when the options are derived rather than mid-request. */
export function assertConfig(input: {
	config: AuthConfig;
	secrets: readonly string[];
	session: SessionOptions;
	env: Env;
	logger: LoggerInstance;
}): void {
	const { config, secrets, session, env, logger } = input;

	if (secrets.length === 0) {
		throw new MissingSecret(
			`No secret is configured${isProduction(env) ? ' (required in production)' : ''}. ` +
				'Set AUTH_SECRET to at least 32 random characters, e.g. the output of ' +
				'`openssl rand -base64 33` or `node -e "console.log(crypto.randomBytes(33).toString(\'base64\'))"`, ' +
				'or pass `secret` in the configuration.'
		);
	}
	if (secrets.some((secret) => secret.length < MIN_SECRET_LENGTH)) logger.warn('short-secret');

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
	const seconds = (name: string, value: unknown, min: number) => {
		if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value >= min)) {
			throw new UnsupportedStrategy(`session.${name} must be a number of seconds of at least ${min}`);
		}
	};
	seconds('absoluteMaxAge', session.absoluteMaxAge, 1);
	seconds('revocationCheckInterval', session.revocationCheckInterval, 0);
	const end = session.endOnCredentialChange;
	if (end !== undefined && end !== 'others' && end !== 'all' && end !== false) {
		throw new UnsupportedStrategy(`session.endOnCredentialChange must be "others", "all" or false`);
	}
}

/** Each provider's configuration mistakes, as its flow sees them. */
export function assertProviders(providers: readonly ProviderConfig[], setup: { config: AuthConfig; session: SessionOptions }): void {
	const { config, session } = setup;
	for (const provider of providers) {
		const flow = flowOfType(provider.type);
		if (!flow) throw new InvalidProvider(`Provider "${provider.id}" has a type kitauth does not support: ${JSON.stringify(provider.type)}.`);
		flow.assert(provider, { config, session });
	}
}
