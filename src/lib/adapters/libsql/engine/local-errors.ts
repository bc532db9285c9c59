/**
 * Which busy errors came from the adapter's own connections to the local file (`local.ts`, both
 * the main-thread one and the one off the main thread): the guard (`guard.ts`) reconnects the
 * client on a busy error only when it is not one of these.
 */

const localErrors = new WeakSet<object>();

/**
 * Whether a busy error came from the local file's connections (it needs no reconnect of the client),
 * also when drizzle wrapped it (`DrizzleQueryError`, the driver's error as its cause).
 */
export function isLocalError(error: unknown): boolean {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
		if (localErrors.has(current)) return true;
		current = (current as { cause?: unknown }).cause;
	}
	return false;
}

/** A busy error leaves marked as ours: the guard then knows no client needs reconnecting. */
export function busy(error: unknown): unknown {
	if (typeof error === 'object' && error !== null) localErrors.add(error);
	return error;
}
