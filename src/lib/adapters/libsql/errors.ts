/**
 * Errors of the libSQL adapter, and how driver errors are classified (see `shared/errors.ts`).
 */
import { DatabaseAdapterError, driverCode, driverError, messageOf } from '../shared/errors.js';

export { driverError, messageOf };

/** What went wrong, as a stable string: an SQLite result code, or one of the adapter's own. */
export type LibSQLAdapterErrorCode =
	| 'SQLITE_BUSY'
	| 'SQLITE_READONLY'
	| 'SQLITE_CONSTRAINT'
	| 'NOT_FOUND'
	| 'TIMEOUT'
	| 'ABORTED'
	| (string & {});

export class LibSQLAdapterError extends DatabaseAdapterError {
	override name = 'LibSQLAdapterError';
	declare readonly code: LibSQLAdapterErrorCode;

	constructor(
		operation: string,
		code: LibSQLAdapterErrorCode,
		message: string,
		cause?: unknown,
		retry?: { retryAfter: number }
	) {
		super('LibSQLAdapter', operation, code, message, cause, retry);
	}
}

/**
 * `error` as the error of `operation`: a write run together with others (a commit group) fails
 * for each caller under the caller's own operation, with the same code, message and retry advice.
 */
export function forOperation(operation: string, error: unknown): unknown {
	if (!(error instanceof LibSQLAdapterError) || error.operation === operation) return error;
	const message = error.message.slice(`LibSQLAdapter.${error.operation}: `.length);
	const retry = error.retryAfter === undefined ? undefined : { retryAfter: error.retryAfter };
	return new LibSQLAdapterError(operation, error.code, message, error.cause, retry);
}

/**
 * The error of a write given up because its client left (the request's signal aborted) before it
 * committed: it changed nothing. Below the guard it is a plain error with this code.
 */
export function abortedError(): Error & { code: 'ABORTED' } {
	return Object.assign(new Error('the client gave up before the write committed; nothing was changed'), { code: 'ABORTED' as const });
}

/** The base SQLite code of a driver error (`SQLITE_BUSY`, …), or the libSQL client's code. */
export function errorCode(error: unknown): string {
	const code = driverCode(error);
	if (code === undefined) return 'UNKNOWN';
	// Remote (Hrana) errors may carry extended codes like SQLITE_BUSY_SNAPSHOT.
	return /^SQLITE_[A-Z]+/.exec(code)?.[0] ?? code;
}

/**
 * SQLITE_BUSY and SQLITE_LOCKED: another connection holds the lock; nothing was changed.
 * SQLITE_PROTOCOL: another process held the WAL index's locks while SQLite retried for ~10 s
 * (see `guard.ts`); nothing was changed either.
 */
export function isBusy(code: string): boolean {
	return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code === 'SQLITE_PROTOCOL';
}
