/**
 * Errors of the PostgreSQL adapter: the driver's error (never drizzle's wrapper, whose message
 * lists the bound values) as the cause, its SQLSTATE or socket code as `code`, and `retryable`
 * when the same call may well succeed later and this one changed nothing certain (the server was
 * out of reach, shutting down, out of connections, or the statement lost a serialization race).
 */
import { DatabaseAdapterError, driverCode, driverError, messageOf } from '../shared/errors.js';

/** What went wrong: a PostgreSQL SQLSTATE (`23505`, …), a socket's code, or one of the adapter's own. */
export type PostgresAdapterErrorCode = 'NOT_FOUND' | 'INVALID_ARGUMENT' | 'TIMEOUT' | 'ABORTED' | 'UNKNOWN' | (string & {});

export class PostgresAdapterError extends DatabaseAdapterError {
	override name = 'PostgresAdapterError';
	declare readonly code: PostgresAdapterErrorCode;

	constructor(operation: string, code: PostgresAdapterErrorCode, message: string, cause?: unknown, retry?: { retryAfter: number }) {
		super('PostgresAdapter', operation, code, message, cause, retry);
	}
}

const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ECONNABORTED', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT']);

/**
 * SQLSTATE classes and codes after which trying again is the cure: connection exceptions (08),
 * a server shutting down, crashed or starting (57P01–57P03), too many connections (53300),
 * serialization failure and deadlock (40001, 40P01), and the sockets' own errors (postgres.js
 * names its own: `CONNECTION_CLOSED`, …).
 */
export function isRetryable(code: string): boolean {
	return SOCKET_CODES.has(code) || /^08/.test(code) || /^57P0[123]$/.test(code) || ['53300', '40001', '40P01'].includes(code);
}

/** `error` (a driver's, or drizzle's wrapping it) as the adapter's error for `operation`. */
export function wrapError(operation: string, error: unknown, retryAfter: number): PostgresAdapterError {
	if (error instanceof PostgresAdapterError) return error;
	const code = driverCode(error) ?? 'UNKNOWN';
	const retry = isRetryable(code) ? { retryAfter } : undefined;
	return new PostgresAdapterError(operation, code, messageOf(error), driverError(error), retry);
}
