/**
 * Errors of the D1 adapter: D1's own message (never drizzle's wrapper, whose message lists the
 * bound values), and `retryable` for the errors Cloudflare documents as transient (the Durable
 * Object behind the database reset or overloaded, the network to it lost): then an HTTP layer
 * answers 503 with `Retry-After`.
 */
import { DatabaseAdapterError, driverError, messageOf } from '../shared/errors.js';

export type D1AdapterErrorCode = 'NOT_FOUND' | 'INVALID_ARGUMENT' | 'UNKNOWN' | 'D1_ERROR' | 'SCHEMA_MISMATCH' | (string & {});

export class D1AdapterError extends DatabaseAdapterError {
	override name = 'D1AdapterError';
	declare readonly code: D1AdapterErrorCode;

	constructor(operation: string, code: D1AdapterErrorCode, message: string, cause?: unknown, retry?: { retryAfter: number }) {
		super('D1Adapter', operation, code, message, cause, retry);
	}
}

const TRANSIENT = /Network connection lost|storage caused object to be reset|reset because its code was updated|overloaded|Internal error|timed out/i;

export function wrapError(operation: string, error: unknown): D1AdapterError {
	if (error instanceof D1AdapterError) return error;
	const message = messageOf(error);
	return new D1AdapterError(operation, 'D1_ERROR', message, driverError(error), TRANSIENT.test(message) ? { retryAfter: 1 } : undefined);
}
