/**
 * Errors of the libSQL adapter, and how driver errors are classified.
 *
 * Driver errors are unwrapped before they become a `cause`: drizzle's `DrizzleQueryError` puts the
 * bound parameters (emails, token hashes) into its message, and those must not reach logs.
 */

/** What went wrong, as a stable string: an SQLite result code, or one of the adapter's own. */
export type LibSQLAdapterErrorCode =
	| 'SQLITE_BUSY'
	| 'SQLITE_READONLY'
	| 'SQLITE_CONSTRAINT'
	| 'NOT_FOUND'
	| 'TIMEOUT'
	| 'ABORTED'
	| (string & {});

export class LibSQLAdapterError extends Error {
	override name = 'LibSQLAdapterError';
	readonly code: LibSQLAdapterErrorCode;
	/** The adapter method (or `migrate`) that failed. */
	readonly operation: string;
	/**
	 * True when the same call may well succeed later and this one changed nothing: the database
	 * stayed locked (`SQLITE_BUSY`) or a remote server did not answer in time (`TIMEOUT`). An HTTP
	 * layer answers 503 with `Retry-After: retryAfter`.
	 */
	readonly retryable: boolean;
	/** When `retryable`: how long to wait before trying again, in whole seconds (at least 1). */
	readonly retryAfter: number | undefined;

	constructor(
		operation: string,
		code: LibSQLAdapterErrorCode,
		message: string,
		cause?: unknown,
		retry?: { retryAfter: number }
	) {
		super(`LibSQLAdapter.${operation}: ${message}`, cause === undefined ? undefined : { cause });
		this.code = code;
		this.operation = operation;
		this.retryable = retry !== undefined;
		this.retryAfter = retry === undefined ? undefined : Math.max(1, Math.ceil(retry.retryAfter));
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

interface CodedError {
	code?: unknown;
	message?: unknown;
	cause?: unknown;
}

/** The innermost error that carries an SQLite/libSQL code, or the error itself. */
export function driverError(error: unknown): unknown {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
		const coded = current as CodedError;
		if (typeof coded.code === 'string') return current;
		current = coded.cause;
	}
	return error;
}

/** The base SQLite code of a driver error (`SQLITE_BUSY`, …), or the libSQL client's code. */
export function errorCode(error: unknown): string {
	const coded = driverError(error) as CodedError | null;
	if (typeof coded === 'object' && coded !== null && typeof coded.code === 'string') {
		// Remote (Hrana) errors may carry extended codes like SQLITE_BUSY_SNAPSHOT.
		const match = /^SQLITE_[A-Z]+/.exec(coded.code);
		return match ? match[0] : coded.code;
	}
	return 'UNKNOWN';
}

/**
 * SQLITE_BUSY and SQLITE_LOCKED: another connection holds the lock; nothing was changed.
 * SQLITE_PROTOCOL: another process held the WAL index's locks while SQLite retried for ~10 s
 * (see `guard.ts`); nothing was changed either.
 */
export function isBusy(code: string): boolean {
	return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code === 'SQLITE_PROTOCOL';
}

export function messageOf(error: unknown): string {
	const inner = driverError(error);
	return inner instanceof Error ? inner.message : String(inner);
}
