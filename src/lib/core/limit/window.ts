/**
 * A counter's window as the shared stores keep it: whole milliseconds, at least 1 (a store may be
 * called by code other than the limiter, with fractions or 0).
 */
export function windowMillis(windowMs: number): number {
	return Math.max(1, Math.ceil(windowMs));
}
