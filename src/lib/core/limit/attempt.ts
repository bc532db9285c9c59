import type { AuthContext } from '../context.js';
import { RateLimited, RateLimitUnavailable } from '../errors.js';
import type { RequestInternal } from '../types/internal.js';
import type { LimitKind } from '../types/limit.js';

/**
 * Counts one attempt of `kind` (for the account `identifier`, where the kind has one) before it is
 * made; a refusal throws `RateLimited`, answered 429 with `Retry-After` (`RateLimitUnavailable`,
 * 503, when the store failed and the limiter fails closed). Costs nothing when the
 * limiter is off. Returns what to call once the attempt succeeded (it clears the account's count,
 * unless this attempt was the account's first: then there is nothing to clear).
 */
export async function limitAttempt(
	ctx: AuthContext,
	req: Pick<RequestInternal, 'clientAddress' | 'headers'>,
	kind: LimitKind,
	identifier?: string
): Promise<() => Promise<void>> {
	const { limiter } = ctx.options;
	if (!limiter.enabled) return NOTHING;
	const decision = await limiter.check(kind, { address: req.clientAddress, headers: req.headers, identifier });
	if (!decision.allowed) throw decision.unavailable ? new RateLimitUnavailable(decision.retryAfter) : new RateLimited(decision.retryAfter);
	if (identifier === undefined || decision.firstForAccount) return NOTHING;
	return () => limiter.succeeded(kind, identifier, decision);
}

const NOTHING = async () => {};
