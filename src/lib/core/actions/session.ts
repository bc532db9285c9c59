import type { AuthContext } from '../context.js';
import { NO_CACHE } from '../response.js';
import { readSession } from '../session/index.js';
import type { RequestInternal, ResponseInternal } from '../types/internal.js';
import type { Session } from '../types/models.js';

/** GET /session: the session or `null`. */
export async function getSession(req: RequestInternal, ctx: AuthContext): Promise<ResponseInternal<Session | null>> {
	const { session, cookies } = await readSession(ctx, req.cookies);
	return { headers: { ...NO_CACHE }, body: session, cookies };
}

/**
 * POST /session `{csrfToken, data}`: runs the callbacks with trigger `update` and answers the new
 * session. A missing or wrong CSRF token is 400 `null`, as in Auth.js.
 */
export async function updateSession(req: RequestInternal, ctx: AuthContext): Promise<ResponseInternal<Session | null>> {
	if (!ctx.csrf.verified) {
		ctx.options.logger.debug('session update without a valid CSRF token');
		return { status: 400, body: null };
	}
	const { session, cookies } = await readSession(ctx, req.cookies, { data: req.body.data });
	return { body: session, cookies };
}
