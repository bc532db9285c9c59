/**
 * What `limiter.ts` (run in a process of its own: it imports the library's sources) hands
 * `run.ts` and `limiter-http.ts`: one line of JSON on its stdout.
 */

/** One store's in-process result. */
export interface LimiterCost {
	store: 'memory' | 'libsql' | 'redis';
	/** Sign-ins in flight at once. */
	inFlight: number;
	/** A sign-in's CPU time without the limiter, µs (median of the rounds). */
	offMicros: number;
	/** The median of the rounds' on/off ratios, minus 1 (0.1: the limiter adds 10 %). */
	cost: number;
	/**
	 * Of the limiter's time, µs per sign-in that the store's own statements take run bare
	 * (`limiter-floor.ts`: the libSQL counters); absent for the other stores.
	 */
	floorMicros?: number;
}

/** The line's prefix. */
export const RESULT_PREFIX = 'LIMITER_RESULT ';
