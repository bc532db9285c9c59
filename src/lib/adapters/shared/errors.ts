/**
 * What every database adapter's errors share: the operation that failed, a stable code, and
 * whether trying again later may well succeed (then an HTTP layer answers 503 with
 * `Retry-After: retryAfter`; the core reads `retryable` and `retryAfter`).
 *
 * Driver errors are unwrapped before they become a `cause`: drizzle's `DrizzleQueryError` puts the
 * bound parameters (emails, token hashes) into its message, and those must not reach logs.
 */
export class DatabaseAdapterError extends Error {
	readonly code: string;
	/** The adapter method (or `migrate`) that failed. */
	readonly operation: string;
	/** True when the same call may well succeed later and this one changed nothing. */
	readonly retryable: boolean;
	/** When `retryable`: how long to wait before trying again, in whole seconds (at least 1). */
	readonly retryAfter: number | undefined;

	constructor(
		adapter: string,
		operation: string,
		code: string,
		message: string,
		cause?: unknown,
		retry?: { retryAfter: number }
	) {
		super(`${adapter}.${operation}: ${message}`, cause === undefined ? undefined : { cause });
		this.code = code;
		this.operation = operation;
		this.retryable = retry !== undefined;
		this.retryAfter = retry === undefined ? undefined : Math.max(1, Math.ceil(retry.retryAfter));
	}
}

interface CodedError {
	code?: unknown;
	message?: unknown;
	cause?: unknown;
}

/** The innermost error that carries a string code (the driver's), or the error itself. */
export function driverError(error: unknown): unknown {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
		const coded = current as CodedError;
		if (typeof coded.code === 'string') return current;
		current = coded.cause;
	}
	return error;
}

/** The driver's own message (never drizzle's, which lists the parameters). */
export function messageOf(error: unknown): string {
	const inner = driverError(error);
	return inner instanceof Error ? inner.message : String(inner);
}

/** The driver's code of an error (an SQLite result code, a PostgreSQL SQLSTATE, a socket's), if any. */
export function driverCode(error: unknown): string | undefined {
	const coded = driverError(error) as CodedError | null;
	return typeof coded === 'object' && coded !== null && typeof coded.code === 'string' ? coded.code : undefined;
}
