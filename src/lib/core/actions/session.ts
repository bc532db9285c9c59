import type { AuthContext } from '../context.js';
import { NO_CACHE } from '../response.js';
import type { RequestInternal, ResponseInternal } from '../types/internal.js';
import type { Session } from '../types/models.js';

/** GET /session: the session or `null`. */
export async function getSession(req: RequestInternal, ctx: AuthContext): Promise<ResponseInternal<Session | null>> {
	const { session, cookies } = await ctx.options.strategy.read(ctx);
	return { headers: { ...NO_CACHE }, body: session, cookies };
}

/**
 * POST /session `{csrfToken, data}`: runs the callbacks with trigger `update` and answers the new
 * session. (Without a valid CSRF token the route answers 400 `null`, as in Auth.js.)
 */
export async function updateSession(req: RequestInternal, ctx: AuthContext): Promise<ResponseInternal<Session | null>> {
	const { session, cookies } = await ctx.options.strategy.read(ctx, { data: req.body.data });
	return { body: session, cookies };
}
