import type { LoggerInstance, WarningCode } from './types/config.js';
import { AuthError } from './errors.js';

const WARNINGS: Record<WarningCode, string> = {
	'debug-enabled': 'Debug logging is on. It can print user data: turn it off in production.',
	'csrf-disabled':
		'CSRF checks are off (skipCSRFCheck). Only do this when the framework checks CSRF itself.',
	'env-url-basepath-redundant':
		'Both AUTH_URL and basePath are set; basePath wins and the path of AUTH_URL is ignored.',
	'env-url-basepath-mismatch':
		'The path of AUTH_URL differs from basePath; basePath is used.',
	'experimental-webauthn': 'WebAuthn support is experimental; its API may change.',
	'short-secret':
		'AUTH_SECRET is shorter than 32 characters. Use at least 32 random characters, e.g. `openssl rand -base64 33`.',
	'untrusted-callback-url': 'A callbackUrl outside this site was ignored.',
	'rate-limited':
		'Sign-in attempts are being refused by the rate limiter (the rateLimited event reports each one).',
	'rate-limit-memory-store':
		'The rate limiter keeps its counters in memory: they do not hold across instances or restarts. ' +
		'With more than one instance, set rateLimit.store (kitauth/limit/redis, kitauth/limit/postgres) ' +
		'or use an adapter with hitRateLimit (kitauth/adapters/libsql).',
	'jwt-sessions-not-revocable':
		"A user's sessions were to be ended, but JWT sessions can only be revoked with an adapter that " +
		'stores session cutoffs (getSessionsValidAfter, e.g. kitauth/adapters/libsql): other browsers stay ' +
		'signed in until their tokens expire.'
};

/**
 * Builds the logger of one configuration: the user's overrides win, debug output only when
 * `debug` is on, and each warning code printed once per configuration (the flags live here, in
 * the options object, not in module state).
 */
export function createLogger(config: {
	debug?: boolean;
	logger?: Partial<LoggerInstance>;
}): LoggerInstance {
	const warned = new Set<WarningCode>();
	const user = config.logger ?? {};
	return {
		error: (error) => (user.error ? user.error(error) : console.error(formatError(error))),
		warn: (code) => {
			if (user.warn) return user.warn(code);
			if (warned.has(code)) return;
			warned.add(code);
			console.warn(`[kitauth][warn][${code}] ${WARNINGS[code]}`);
		},
		debug: (message, metadata) => {
			if (!config.debug) return;
			if (user.debug) return user.debug(message, metadata);
			console.debug(`[kitauth][debug] ${message}`, metadata ?? '');
		}
	};
}

/** How many different configuration failures one instance remembers having logged. */
const MAX_REPORTED = 64;

/**
 * Logs a configuration failure once per long-lived instance (`seen`, keyed by its type and
 * message): every request fails the same way, and one clear entry says what to fix; later ones
 * go to `debug`.
 */
export function logOnce(seen: Set<string>, logger: Pick<LoggerInstance, 'error' | 'debug'>, error: Error): void {
	const key = `${error instanceof AuthError ? error.type : error.name}\u0000${error.message}`;
	if (seen.has(key)) return logger.debug(`again: ${error.message}`);
	if (seen.size < MAX_REPORTED) seen.add(key);
	logger.error(error);
}

/** One readable block per error: type, message and the chain of causes. */
export function formatError(error: Error): string {
	const head = `[kitauth][error] ${error instanceof AuthError ? error.type : error.name}: ${error.message}`;
	const causes: string[] = [];
	let cause = error instanceof AuthError ? error.cause?.err : error.cause;
	for (let depth = 0; cause instanceof Error && depth < 5; depth++) {
		causes.push(`  caused by ${cause.name}: ${cause.message}`);
		cause = cause.cause;
	}
	return [head, ...causes].join('\n');
}
