/**
 * How one adapter operation runs on PostgreSQL: given up (and rejected `TIMEOUT`, retryable) when
 * the server does not answer in time, so a silent server cannot hang the request that reads the
 * session; its errors as `PostgresAdapterError`. Nothing is retried here: a statement may have
 * committed before its connection broke, and the caller (an HTTP answer of 503 with
 * `Retry-After`, the user's retry) is the one to decide.
 */
import { PostgresAdapterError, wrapError } from './errors.js';

export interface OperationOptions {
	/** How long one operation may take, in milliseconds. */
	timeout: number;
	/** The `retryAfter` (seconds) of a retryable error. */
	retryAfter: number;
}

export type RunOperation = <T>(operation: string, work: () => Promise<T>, signal?: AbortSignal) => Promise<T>;

export function operationRunner({ timeout, retryAfter }: OperationOptions): RunOperation {
	return async (operation, work, signal) => {
		// A write whose client left before it was sent is not sent (its one statement commits alone).
		if (signal?.aborted) {
			throw new PostgresAdapterError(operation, 'ABORTED', 'the client gave up before the write was sent; nothing was changed');
		}
		let timer: ReturnType<typeof setTimeout> | undefined;
		const late = new Promise<never>((_, reject) => {
			timer = setTimeout(
				() => reject(new PostgresAdapterError(operation, 'TIMEOUT', `the database server did not answer within ${timeout} ms`, undefined, { retryAfter })),
				timeout
			);
		});
		const pending = work();
		pending.catch(() => {}); // a failure after the deadline is not an unhandled rejection
		try {
			return await Promise.race([pending, late]);
		} catch (error) {
			throw wrapError(operation, error, retryAfter);
		} finally {
			clearTimeout(timer);
		}
	};
}
