import type { AuthContext } from '../context.js';
import { RateLimited, RateLimitUnavailable } from '../errors.js';
import type { RequestInternal } from '../types/internal.js';
import type { LimitKind } from '../types/limit.js';

/**
 * The limiter's place in a request: the flows call this once the router has checked CSRF and the
 * provider, before the attempt costs anything (a password or code checked, a link sent, a
 * challenge stored, a redirect to an identity provider). Session reads are never counted.
 *
 * Counts one attempt of `kind` (for the account `identifier`, where the kind has one) before it is
 * made; a refusal throws `RateLimited`, answered 429 with `Retry-After` (`RateLimitUnavailable`,
 * 503, when the store failed and the limiter fails closed). Costs nothing when the limiter is off.
 * Returns what to call once the attempt succeeded: it refunds the attempt's address hit, clears
 * the account's count and, for kinds with an account budget, renews the browser's device cookie
 * (set with whatever the action answers).
 */
export async function limitAttempt(
	ctx: AuthContext,
	req: Pick<RequestInternal, 'clientAddress' | 'headers' | 'cookies'>,
	kind: LimitKind,
	identifier?: string
): Promise<() => Promise<void>> {
	const { limiter } = ctx.options;
	if (!limiter.enabled) return NOTHING;
	const cookie = ctx.cookies.device;
	const device = req.cookies[cookie.name];
	const decision = await limiter.check(kind, { address: req.clientAddress, headers: req.headers, identifier, device });
	if (!decision.allowed) throw decision.unavailable ? new RateLimitUnavailable(decision.retryAfter) : new RateLimited(decision.retryAfter);
	return async () => {
		const [, value] = await Promise.all([
			limiter.succeeded(kind, identifier, decision),
			identifier === undefined ? undefined : limiter.deviceCookie(kind, identifier, decision)
		]);
		if (value !== undefined) ctx.pendingCookies.push({ name: cookie.name, value, options: cookie.options });
	};
}

const NOTHING = async () => {};
